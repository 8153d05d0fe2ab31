package io.slotted.server;

import io.slotted.WriteMode;
import io.slotted.db.TestDatabase;
import io.slotted.server.config.CounterSettings;
import io.slotted.server.config.DatabaseSettings;
import io.slotted.server.config.ServerSettings;
import io.slotted.server.config.TypeNames;
import io.slotted.server.http.HttpSettings;
import io.slotted.server.resp.RespSettings;
import io.slotted.server.store.PooledCounters;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.SortedSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

/**
 * The service on a table of its own, started with HTTP settings a test chooses (small limits,
 * short deadlines) and, where it asks, counter settings of its own (time buckets), a request
 * deadline of its own and the Redis protocol through
 * {@link SlottedServer#start(ServerSettings, HttpSettings, RespSettings)}, with the tokens of
 * {@link ServiceSuite} and the types {@code downloads=1,views=2}. Closing it stops the
 * service, which drains the counters, and drops the table.
 */
final class TestService implements AutoCloseable {
    /** Connections in the store's pool. */
    static final int POOL_SIZE = SlottedServer.POOL_SIZE;
    private static final AtomicInteger TABLES = new AtomicInteger();

    private final TestDatabase db;
    private final String table;
    private final SlottedServer server;

    private TestService(TestDatabase db, String table, SlottedServer server) {
        this.db = db;
        this.table = table;
        this.server = server;
    }

    /** Starts a service on a new table, logging in with the database's own URL. */
    static TestService start(TestDatabase db, WriteMode mode, HttpSettings settings) {
        return start(db, mode, settings, UnaryOperator.identity());
    }

    /** Starts a service on a new table whose counter work has {@code deadline}. */
    static TestService start(TestDatabase db, WriteMode mode, HttpSettings settings, Duration deadline) {
        return start(db, mode, settings, UnaryOperator.identity(), deadline);
    }

    /**
     * Starts a service on a new table that also serves the Redis protocol, both front ends keeping
     * {@code deadline}, reaching the database through {@code url} (the database's own, or a
     * proxy's).
     */
    static TestService withResp(TestDatabase db, String url, WriteMode mode, Duration deadline) {
        String table = newTable();
        return start(db, url, table, HttpSettings.defaults(), defaults(table, mode), deadline,
                RespSettings.on(0));
    }

    /**
     * Starts a service on a new table, with counter settings a test refines (time buckets, say)
     * from those of {@link #start(TestDatabase, WriteMode, HttpSettings)}.
     */
    static TestService start(TestDatabase db, WriteMode mode, HttpSettings settings,
            UnaryOperator<CounterSettings> counters) {
        return start(db, mode, settings, counters, ServerSettings.DEFAULT_REQUEST_DEADLINE);
    }

    /** As {@link #start(TestDatabase, WriteMode, HttpSettings, UnaryOperator)}, with a deadline. */
    static TestService start(TestDatabase db, WriteMode mode, HttpSettings settings,
            UnaryOperator<CounterSettings> counters, Duration deadline) {
        String table = newTable();
        return start(db, db.jdbcUrl(), table, settings, counters.apply(defaults(table, mode)),
                deadline, null);
    }

    /**
     * Starts a service on an existing or new table, reaching the database through {@code url},
     * whose counter work has {@code deadline}.
     */
    static TestService start(TestDatabase db, String url, String table, WriteMode mode,
            HttpSettings settings, Duration deadline) {
        return start(db, url, table, settings, defaults(table, mode), deadline, null);
    }

    private static TestService start(TestDatabase db, String url, String table, HttpSettings settings,
            CounterSettings counters, Duration deadline, RespSettings resp) {
        SlottedServer server = SlottedServer.start(new ServerSettings(0, "127.0.0.1",
                new DatabaseSettings(url, null, null), tokenFile(table),
                TypeNames.parse("downloads=1,views=2"), counters).withRequestDeadline(deadline),
                settings, resp);
        return new TestService(db, table, server);
    }

    private static String newTable() {
        return "hard_" + ProcessHandle.current().pid() + "_" + TABLES.incrementAndGet();
    }

    private static CounterSettings defaults(String table, WriteMode mode) {
        return new CounterSettings(table, mode, null, Duration.ZERO);
    }

    private static Path tokenFile(String table) {
        try {
            Path file = Files.createDirectories(Path.of("target", "tokens")).resolve(table + ".txt");
            return Files.writeString(file, ServiceSuite.READER + " read\n" + ServiceSuite.WRITER
                    + " write\n" + ServiceSuite.ADMIN + " admin\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    ServiceClient client() {
        return new ServiceClient(port());
    }

    int port() {
        return server.port();
    }

    /** The Redis-protocol port, of a service started {@link #withResp}. */
    int respPort() {
        return server.respPort();
    }

    String table() {
        return table;
    }

    PooledCounters store() {
        return server.store();
    }

    /** The HTTP routes as Javalin has them registered. */
    SortedSet<String> routes() {
        return server.httpRoutes();
    }

    /** Stops the service and keeps the table; safe to call more than once. */
    void stop() {
        server.close();
    }

    @Override
    public void close() {
        try {
            stop();
        } finally {
            db.dropCounterTables(table);
        }
    }
}
