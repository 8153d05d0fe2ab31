package io.slotted.server.config;

import java.util.Locale;
import java.util.Objects;

/**
 * Where the counters live and how to log in: a JDBC URL for MariaDB/MySQL, PostgreSQL or H2, and
 * optionally a user and a password.
 *
 * <p>Without a URL the embedded default is used, an H2 file database in {@code ./slotted-data}.
 * Every H2 URL gets {@code DB_CLOSE_ON_EXIT=FALSE} unless it says otherwise: H2 would otherwise
 * close the database from a JVM shutdown hook of its own, racing the service's own hook, which must
 * first drain the increments it has accepted into that very database.
 *
 * @param url the JDBC URL as given, or null for the embedded default
 * @param user the user, or null to take it from the URL
 * @param password the password, or null to take it from the URL; never printed
 */
public record DatabaseSettings(String url, String user, String password) {
    /** The embedded default: an H2 file database under the working directory. */
    public static final String DEFAULT_URL = "jdbc:h2:file:./slotted-data/slotted";

    /**
     * The embedded default database.
     *
     * @return settings for {@link #DEFAULT_URL}
     */
    public static DatabaseSettings embeddedDefault() {
        return new DatabaseSettings(null, null, null);
    }

    /**
     * The URL the pool connects to: the one given, or the default, with H2's exit hook turned off.
     *
     * @return a JDBC URL
     */
    public String jdbcUrl() {
        String jdbcUrl = Objects.requireNonNullElse(url, DEFAULT_URL);
        boolean h2 = jdbcUrl.startsWith("jdbc:h2:");
        boolean closeOnExitGiven = jdbcUrl.toUpperCase(Locale.ROOT).contains("DB_CLOSE_ON_EXIT");
        return h2 && !closeOnExitGiven ? jdbcUrl + ";DB_CLOSE_ON_EXIT=FALSE" : jdbcUrl;
    }

    /**
     * The URL for messages and logs, with any password in it masked.
     *
     * @return the URL as given (or the default), safe to print
     */
    public String describe() {
        return Objects.requireNonNullElse(url, DEFAULT_URL)
                .replaceAll("(?i)(password=)[^&;]*", "$1***")
                .replaceAll("(//[^/:@]+:)[^@/]*@", "$1***@");
    }

    @Override
    public String toString() {
        return "DatabaseSettings[url=" + describe() + ", user=" + user
                + ", password=" + (password == null ? "none" : "***") + "]";
    }
}
