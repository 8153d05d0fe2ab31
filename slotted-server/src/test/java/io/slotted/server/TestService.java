package io.slotted.server;

import io.slotted.WriteMode;
import io.slotted.db.TestDatabase;
import io.slotted.server.auth.AccessTokens;
import io.slotted.server.config.CounterSettings;
import io.slotted.server.config.DatabaseSettings;
import io.slotted.server.config.TypeNames;
import io.slotted.server.http.HttpFrontEnd;
import io.slotted.server.http.HttpSettings;
import io.slotted.server.metrics.ServerMetrics;
import io.slotted.server.store.PooledCounters;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The HTTP front end on a table of its own, started with settings a test chooses (small limits,
 * short deadlines), as the service wires it: a pooled store, the tokens of {@link ServiceSuite},
 * the types {@code downloads=1,views=2}. Closing it stops the front end, drains the counters and
 * drops the table.
 */
final class TestService implements AutoCloseable {
    /** Connections in the store's pool. */
    static final int POOL_SIZE = 8;
    private static final AtomicInteger TABLES = new AtomicInteger();

    private final TestDatabase db;
    private final String table;
    private final ServerMetrics metrics;
    private final PooledCounters store;
    private final HttpFrontEnd http;
    private final AtomicBoolean stopped = new AtomicBoolean();

    private TestService(TestDatabase db, String table, ServerMetrics metrics, PooledCounters store,
            HttpFrontEnd http) {
        this.db = db;
        this.table = table;
        this.metrics = metrics;
        this.store = store;
        this.http = http;
    }

    /** Starts a service on a new table, logging in with the database's own URL. */
    static TestService start(TestDatabase db, WriteMode mode, HttpSettings settings) {
        String table = "hard_" + ProcessHandle.current().pid() + "_" + TABLES.incrementAndGet();
        return start(db, db.jdbcUrl(), table, mode, settings);
    }

    /** Starts a service on an existing or new table, reaching the database through {@code url}. */
    static TestService start(TestDatabase db, String url, String table, WriteMode mode,
            HttpSettings settings) {
        ServerMetrics metrics = new ServerMetrics();
        PooledCounters store = PooledCounters.open(new DatabaseSettings(url, null, null),
                new CounterSettings(table, mode, null), POOL_SIZE, metrics.registry());
        store.counters().migrate();
        metrics.bind(store.counters());
        HttpFrontEnd http = new HttpFrontEnd(store, TypeNames.parse("downloads=1,views=2"),
                AccessTokens.read(tokenFile(table)), metrics, settings);
        http.start("127.0.0.1", 0);
        return new TestService(db, table, metrics, store, http);
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
        return http.port();
    }

    String table() {
        return table;
    }

    PooledCounters store() {
        return store;
    }

    /** Stops the front end and the store, and keeps the table; once. */
    void stop() {
        if (!stopped.compareAndSet(false, true)) {
            return;
        }
        try (metrics; store) {
            http.stop();
        }
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
