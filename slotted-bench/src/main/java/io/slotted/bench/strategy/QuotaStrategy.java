package io.slotted.bench.strategy;

import com.zaxxer.hikari.HikariDataSource;
import io.slotted.Limits;
import io.slotted.SlottedCounters;
import io.slotted.Window;
import io.slotted.WriteMode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * {@code grouped-quota}: Slotted's default {@code GROUPED} mode on a type with a quota per window
 * — at most {@value #LIMIT} per counter per {@link #WINDOW} — each increment a {@code tryAdd}, a
 * decision; compared with {@code bucket4j} in the same run, the same limit kept by bucket4j's JDBC
 * backend on the same database.
 *
 * <p>The check covers every decision, by SQL: each counter's total in its slot rows plus the
 * writers' refusals equal the increments made, and no window of any counter ever holds more than
 * {@value #LIMIT}. Windows are checked as they end: the keeper deletes a window's rows once the
 * next one has ended, so a checker reads every window still kept every {@value #CHECK_EVERY_MILLIS}
 * ms, catching each at least once after its end; an over-admission fails the cell.
 */
public final class QuotaStrategy implements Strategy {
    /** The most each counter may take per window. */
    public static final long LIMIT = 1_000;
    /** The window: a second, so that a cell of a few seconds crosses many. */
    public static final Duration WINDOW = Duration.ofSeconds(1);
    /** How often the windows kept are checked; under half a window, so none ends unchecked. */
    static final long CHECK_EVERY_MILLIS = 400;

    private final String url;

    /**
     * Creates the strategy.
     *
     * @param url the JDBC URL of the database to write
     */
    public QuotaStrategy(String url) {
        this.url = url;
    }

    @Override
    public String name() {
        return "grouped-quota";
    }

    @Override
    public Run open(String cell, int writers, int keySpace) throws Exception {
        String table = "bench_quota_" + cell;
        HikariDataSource pool = BenchPool.open(url, SlottedStrategy.DEFAULT_FLUSHERS + BenchPool.SPARE,
                "bench-" + cell);
        try {
            SlottedStrategy.dropTables(pool, table);
            SlottedCounters counters = SlottedCounters.builder(pool).table(table).writeMode(WriteMode.GROUPED)
                    .limits(SlottedStrategy.RECORD_TYPE, Limits.atMost(LIMIT).per(Window.every(WINDOW))).build();
            counters.migrate();
            QuotaRun run = new QuotaRun(new SlottedRun(pool, table, counters, keySpace, true,
                    "at most " + LIMIT + " per counter per " + WINDOW.toSeconds() + " s"),
                    new AtomicLongArray(keySpace), new ConcurrentLinkedQueue<>(),
                    Executors.newSingleThreadScheduledExecutor());
            run.checker().scheduleWithFixedDelay(run::checkWindows, CHECK_EVERY_MILLIS, CHECK_EVERY_MILLIS,
                    TimeUnit.MILLISECONDS);
            return run;
        } catch (Exception e) {
            pool.close();
            throw e;
        }
    }

    /** A run whose increments are decisions, checked window by window in SQL. */
    private record QuotaRun(SlottedRun run, AtomicLongArray refused, Queue<String> overAdmitted,
            ScheduledExecutorService checker) implements SlottedRunCheck {
        @Override
        public Incrementer incrementer() {
            return recordId -> {
                if (!run.counters().tryAdd(SlottedStrategy.RECORD_TYPE, recordId, 1)) {
                    refused.incrementAndGet((int) (recordId - 1));
                }
            };
        }

        /** Notes every window kept that holds more than the limit. */
        void checkWindows() {
            try (Connection connection = run.pool().getConnection();
                    PreparedStatement select = connection.prepareStatement("SELECT record_id, bucket_start,"
                            + " SUM(count) FROM " + run.table() + "_buckets WHERE record_type = ?"
                            + " GROUP BY record_id, bucket_start HAVING SUM(count) > ?")) {
                select.setInt(1, SlottedStrategy.RECORD_TYPE);
                select.setLong(2, LIMIT);
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        overAdmitted.add("counter " + rows.getLong(1) + " took " + rows.getLong(3)
                                + " in the window starting at " + rows.getLong(2) + " s");
                    }
                }
            } catch (SQLException e) {
                overAdmitted.add("the windows could not be checked: " + e.getMessage());
            }
        }

        @Override
        public void drain() {
            checker.shutdown();
            run.drain();
            checkWindows();
        }

        /** Each counter's total in its slot rows, plus its refusals; fails on an over-admission. */
        @Override
        public long[] totals() throws SQLException {
            if (!overAdmitted.isEmpty()) {
                throw new IllegalStateException(overAdmitted.size() + " windows over the limit of " + LIMIT
                        + ", such as: " + overAdmitted.peek());
            }
            long[] totals = new long[run.keySpace()];
            try (Connection connection = run.pool().getConnection();
                    PreparedStatement select = connection.prepareStatement("SELECT record_id, SUM(count) FROM "
                            + run.table() + " WHERE record_type = ? GROUP BY record_id")) {
                select.setInt(1, SlottedStrategy.RECORD_TYPE);
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        totals[(int) (rows.getLong(1) - 1)] = rows.getLong(2);
                    }
                }
            }
            for (int i = 0; i < totals.length; i++) {
                totals[i] += refused.get(i);
            }
            return totals;
        }

        @Override
        public void close() throws SQLException {
            checker.shutdownNow();
            run.close();
        }
    }
}
