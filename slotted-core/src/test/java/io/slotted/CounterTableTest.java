package io.slotted;

import static org.assertj.core.api.Assertions.assertThat;

import io.slotted.db.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * What the behaviour suites share: each test works in a counter table of its own on a real
 * database, dropped with its companions afterwards, and every counters instance a test builds is
 * closed.
 */
abstract class CounterTableTest {
    private static final AtomicInteger TABLES = new AtomicInteger();

    protected final TestDatabase db;
    protected String table;
    private final List<SlottedCounters> opened = new ArrayList<>();

    protected CounterTableTest(TestDatabase db) {
        this.db = db;
    }

    @BeforeEach
    void newTable() {
        table = "t_" + ProcessHandle.current().pid() + "_" + TABLES.incrementAndGet();
    }

    @AfterEach
    void dropTables() {
        opened.forEach(SlottedCounters::close);
        db.dropCounterTables(table);
    }

    /** Builds counters that the test's end will close. */
    protected SlottedCounters counters(SlottedCountersBuilder builder) {
        SlottedCounters counters = builder.build();
        opened.add(counters);
        return counters;
    }

    /** Builds counters and creates their tables. */
    protected SlottedCounters migrated(SlottedCountersBuilder builder) {
        SlottedCounters counters = counters(builder);
        counters.migrate();
        return counters;
    }

    /** Opens a transaction that holds the locks on a counter's slot rows until rolled back. */
    protected Connection lockSlotRows(int recordType, long recordId) throws SQLException {
        Connection holder = db.dataSource().getConnection();
        holder.setAutoCommit(false);
        try (PreparedStatement update = holder.prepareStatement("UPDATE " + table
                + " SET count = count + 1000 WHERE record_type = ? AND record_id = ?")) {
            update.setInt(1, recordType);
            update.setLong(2, recordId);
            assertThat(update.executeUpdate()).isPositive();
        }
        return holder;
    }

    /** A counter's total as its rows in the test's table hold it, read past the counters. */
    protected long sumOfRows(int recordType, long recordId) {
        try (Connection connection = db.dataSource().getConnection();
                PreparedStatement select = connection.prepareStatement("SELECT COALESCE(SUM(count), 0) FROM "
                        + table + " WHERE record_type = ? AND record_id = ?")) {
            select.setInt(1, recordType);
            select.setLong(2, recordId);
            try (ResultSet row = select.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Runs {@code task} on {@code threads} threads started together; rethrows the first failure. */
    protected static void runConcurrently(int threads, ThreadTask task) throws Exception {
        runConcurrently(Executors.newFixedThreadPool(threads), threads, task);
    }

    /** As {@link #runConcurrently(int, ThreadTask)}, with one virtual thread per task. */
    protected static void runOnVirtualThreads(int threads, ThreadTask task) throws Exception {
        runConcurrently(VirtualThreads.perTask(), threads, task);
    }

    private static void runConcurrently(ExecutorService pool, int threads, ThreadTask task) throws Exception {
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int index = t;
                done.add(pool.submit(() -> {
                    start.await();
                    task.run(index);
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> f : done) {
                f.get(5, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** One thread's share of a concurrent test. */
    @FunctionalInterface
    protected interface ThreadTask {
        void run(int threadIndex) throws Exception;
    }
}
