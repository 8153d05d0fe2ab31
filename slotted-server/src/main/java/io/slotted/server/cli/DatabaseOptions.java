package io.slotted.server.cli;

import io.slotted.SlottedCounters;
import io.slotted.SlottedException;
import io.slotted.StoppedException;
import io.slotted.server.config.CounterSettings;
import io.slotted.server.config.DatabaseSettings;
import io.slotted.server.store.DatabaseFailure;
import io.slotted.server.store.PooledCounters;
import io.slotted.server.store.SharedH2File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.function.Function;
import javax.sql.DataSource;
import picocli.CommandLine.Option;

/**
 * The database options every command shares: {@code --db}, {@code --db-user} and
 * {@code --db-password-file}, each also read from its environment variable.
 *
 * <p>The password comes from a file, never from the command line, where every user of the machine
 * could read it in the process list.
 */
public final class DatabaseOptions {
    @Option(names = "--db", paramLabel = "JDBC_URL", defaultValue = "${env:SLOTTED_DB_URL}",
            description = {"JDBC URL of MariaDB/MySQL (jdbc:mariadb://host:3306/db), PostgreSQL"
                    + " (jdbc:postgresql://host:5432/db) or H2 (jdbc:h2:file:path).",
                    "Default: an embedded H2 file database in ./slotted-data. Env: SLOTTED_DB_URL."})
    String url;

    @Option(names = "--db-user", paramLabel = "U", defaultValue = "${env:SLOTTED_DB_USER}",
            description = "Database user, unless the URL names one. Env: SLOTTED_DB_USER.")
    String user;

    @Option(names = "--db-password-file", paramLabel = "F",
            defaultValue = "${env:SLOTTED_DB_PASSWORD_FILE}",
            description = "File holding the database password (a trailing newline is ignored)."
                    + " Env: SLOTTED_DB_PASSWORD_FILE.")
    Path passwordFile;

    /**
     * The settings these options give.
     *
     * @return the database settings
     * @throws IllegalArgumentException if the password file cannot be read
     */
    DatabaseSettings settings() {
        return new DatabaseSettings(blankToNull(url), blankToNull(user), password());
    }

    /**
     * Opens the database for one command, runs {@code work} on its counters, and closes it. A
     * library failure is turned into a one-line reason naming the database.
     *
     * @param poolSize connections the command needs
     * @param work what the command does
     * @throws DatabaseFailure if the database fails
     */
    public void withCounters(int poolSize, Consumer<SlottedCounters> work) {
        withCounters(CounterSettings.DEFAULTS, poolSize, work);
    }

    /**
     * As {@link #withCounters(int, Consumer)}, with counter settings of the command's own, such as
     * time buckets.
     *
     * @param counters the counter settings
     * @param poolSize connections the command needs
     * @param work what the command does
     * @throws DatabaseFailure if the database fails
     */
    public void withCounters(CounterSettings counters, int poolSize, Consumer<SlottedCounters> work) {
        try (PooledCounters store = open(counters, poolSize)) {
            try {
                work.accept(store.counters());
            } catch (StoppedException e) {
                // Not a failure of the database: the message says how far the command got.
                throw e;
            } catch (SlottedException e) {
                throw store.explain(e);
            }
        }
    }

    /**
     * Opens the database for a command that runs until it is stopped and closes the store itself.
     *
     * @param counters the counter settings, such as a background roll-up
     * @param poolSize connections the command needs
     * @return the open store
     * @throws IllegalArgumentException if the password file cannot be read or the library refuses
     *     a counter setting
     * @throws DatabaseFailure if the database cannot be reached
     */
    public PooledCounters open(CounterSettings counters, int poolSize) {
        // An H2 file database that a running service has open is reached through the service.
        return PooledCounters.open(SharedH2File.reach(settings()), counters, poolSize, null);
    }

    /**
     * Opens the database for one command that needs only connections, such as {@code doctor}, and
     * closes it after {@code work}.
     *
     * @param work what the command does with the database
     * @return what {@code work} returned
     * @throws DatabaseFailure if the database cannot be reached
     */
    public <T> T withDataSource(Function<DataSource, T> work) {
        try (PooledCounters store = open(CounterSettings.DEFAULTS, 1)) {
            return work.apply(store.pool());
        }
    }

    /**
     * The {@code --db} option as a command advised to the user should repeat it, with any password
     * masked; empty when the default database is used.
     *
     * @return such as {@code --db 'jdbc:mariadb://127.0.0.1:3306/app'}
     */
    String describeOption() {
        return blankToNull(url) == null ? "" : "--db '" + settings().describe() + "'";
    }

    private String password() {
        if (passwordFile == null || passwordFile.toString().isBlank()) {
            return null;
        }
        try {
            return Files.readString(passwordFile, StandardCharsets.UTF_8).replaceFirst("\\R+\\z", "");
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read --db-password-file " + passwordFile + ": " + e, e);
        }
    }

    private static String blankToNull(String text) {
        return text == null || text.isBlank() ? null : text;
    }
}
