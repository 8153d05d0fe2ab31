package io.slotted.server.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
    private static final Pattern URL_PASSWORDS =
            Pattern.compile("//[^/:@\\s]+:([^@/\\s]+)@|(?i)password=([^&;\\s]+)");

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
        return maskCredentials(Objects.requireNonNullElse(url, DEFAULT_URL));
    }

    /**
     * Text with every password that a JDBC URL can carry masked: {@code password=…} parameters
     * and the {@code user:password@} part of an authority. Drivers quote the URL they were given
     * in their messages, so every message about the database goes through this before it is
     * printed or logged.
     *
     * @param text a URL, or a message that may quote one
     * @return the text with passwords replaced by {@code ***}
     */
    public static String maskCredentials(String text) {
        return text.replaceAll("(?i)(password=)[^&;\\s]*", "$1***")
                .replaceAll("(//[^/:@\\s]+:)[^@/\\s]*@", "$1***@");
    }

    /**
     * A message about this database with every password it was given masked, wherever the driver
     * quoted it: drivers that cannot parse a URL repeat pieces of it, such as
     * {@code secret@127.0.0.1}, which no pattern would recognise.
     *
     * @param message a message that may quote the URL or the password
     * @return the message with each password replaced by {@code ***}
     */
    public String mask(String message) {
        String masked = message;
        for (String secret : secrets()) {
            masked = masked.replace(secret, "***");
        }
        return maskCredentials(masked);
    }

    private List<String> secrets() {
        List<String> secrets = new ArrayList<>();
        if (password != null && !password.isEmpty()) {
            secrets.add(password);
        }
        Matcher found = URL_PASSWORDS.matcher(Objects.requireNonNullElse(url, ""));
        while (found.find()) {
            secrets.add(found.group(1) != null ? found.group(1) : found.group(2));
        }
        return secrets;
    }

    @Override
    public String toString() {
        return "DatabaseSettings[url=" + describe() + ", user=" + user
                + ", password=" + (password == null ? "none" : "***") + "]";
    }
}
