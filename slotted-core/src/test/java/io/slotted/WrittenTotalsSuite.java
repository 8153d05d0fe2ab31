package io.slotted;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.slotted.db.TestDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The total a write answers ({@code addAndGet}, {@code addAllAndGet}) is the counter's total in
 * the database right after the write: every row as committed then, never some rows as they were
 * when the write's transaction first read anything and others as they are now. A write that
 * decides increments of two bounded counters reads the type registry after the first one's locks
 * when its view is more than a second old (as after a long lock wait); on InnoDB at its default
 * isolation that read fixed the transaction's snapshot, and the total learned before COMMIT then
 * missed what another process did to the second counter meanwhile, a total no moment had (the
 * service's fault campaign answered a stock of -4 with limits 0..). Here the other process spends
 * from its allowance of the second counter at exactly that point.
 */
@ParameterizedClass(name = "[{arguments}]")
@MethodSource("io.slotted.db.TestDatabases#all")
class WrittenTotalsSuite extends CounterTableTest {
    private static final int STOCK = 7;
    private static final long FIRST = 1;
    private static final long SECOND = 2;
    /** Another process's flusher 6's allowance slot, which this test's writers never write. */
    private static final int OTHERS_ALLOWANCE = -7;
    /** Longer than a process keeps its view of the registry. */
    private static final Duration LOCK_WAIT = Duration.ofMillis(1200);

    private HikariDataSource pool;

    WrittenTotalsSuite(TestDatabase db) {
        super(db);
    }

    @AfterEach
    void closePool() {
        if (pool != null) {
            pool.close();
        }
    }

    @Test
    void aBatchOfTwoBoundedCounters_answersTheSecondsTotalWithWhatAnotherProcessSpentMeanwhile() throws Exception {
        HookedDataSource hooked = hookedPool();
        SlottedCounters counters = stock(SlottedCounters.builder(hooked).writeMode(WriteMode.DIRECT));

        List<Long> totals = counters.addAllAndGet(List.of(new Increment(STOCK, FIRST, -1),
                new Increment(STOCK, SECOND, -3)));

        assertThat(hooked.ran()).as("the lock wait, and the other process's spend after the registry read")
                .isEqualTo(2);
        assertThat(totals).as("the totals in the database, the other process's spend of 40 included")
                .containsExactly(sum(FIRST), sum(SECOND));
        assertThat(totals).containsExactly(99L, 150L - 40 - 3);
    }

    @Test
    void aFlushOfTwoBoundedCounters_answersTheSecondsTotalWithWhatAnotherProcessSpentMeanwhile() throws Exception {
        HookedDataSource hooked = hookedPool();
        SlottedCounters counters = stock(SlottedCounters.builder(hooked).writeMode(WriteMode.GROUPED).flushers(1)
                .flushInterval(Duration.ofMillis(500)));

        CompletableFuture<Long> first = counters.addAndGetAsync(STOCK, FIRST, -1);
        CompletableFuture<Long> second = counters.addAndGetAsync(STOCK, SECOND, -3);

        assertThat(first.get(30, TimeUnit.SECONDS)).isEqualTo(sum(FIRST)).isEqualTo(99);
        assertThat(second.get(30, TimeUnit.SECONDS)).as("the total in the database, the other process's spend of"
                + " 40 included").isEqualTo(sum(SECOND)).isEqualTo(150 - 40 - 3);
        assertThat(hooked.ran()).as("both increments in one flush, which waited and then read the registry")
                .isEqualTo(2);
    }

    /**
     * The counters' pool, hooked: the first lock of a counter waits past the registry view's age,
     * as behind a slow transaction; and right after the registry is read in the write's
     * transaction, another process spends 40 from its allowance of the second counter.
     */
    private HookedDataSource hookedPool() {
        pool = db.applicationPool(table, 4);
        String lockCounter = "SELECT slot, count FROM " + table + " WHERE";
        String readRegistry = "SELECT ";
        return new HookedDataSource(pool, sql -> sql.startsWith(lockCounter) && sql.endsWith("FOR UPDATE"),
                () -> Thread.sleep(LOCK_WAIT.toMillis()),
                sql -> sql.startsWith(readRegistry) && sql.contains(" FROM " + table + "_types ")
                        && !sql.contains("FOR UPDATE"),
                () -> execute("UPDATE " + table + " SET count = count - 40 WHERE record_type = " + STOCK
                        + " AND record_id = " + SECOND + " AND slot = " + OTHERS_ALLOWANCE));
    }

    /**
     * Counters of a stock that may not go below 0: the first at 100, the second at 150, of which
     * 50 is held by another process's flusher as its allowance, as a decision there left it.
     */
    private SlottedCounters stock(SlottedCountersBuilder builder) throws SQLException {
        SlottedCounters counters = migrated(builder.table(table).limits(STOCK, Limits.atLeast(0)));
        execute("INSERT INTO " + table + " (record_type, record_id, slot, count) VALUES (" + STOCK + ", " + FIRST
                + ", 0, 100), (" + STOCK + ", " + SECOND + ", 0, 100), (" + STOCK + ", " + SECOND + ", "
                + OTHERS_ALLOWANCE + ", 50)");
        return counters;
    }

    private void execute(String sql) throws SQLException {
        try (Connection connection = db.dataSource().getConnection();
                Statement statement = connection.createStatement()) {
            statement.executeUpdate(sql);
        }
    }

    private long sum(long recordId) {
        return sumOfRows(STOCK, recordId);
    }
}
