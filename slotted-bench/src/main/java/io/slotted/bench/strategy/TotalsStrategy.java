package io.slotted.bench.strategy;

import com.zaxxer.hikari.HikariDataSource;
import io.slotted.SlottedCounters;
import io.slotted.SlottedCountersBuilder;
import io.slotted.WriteMode;
import java.sql.SQLException;

/**
 * {@code grouped-totals}: Slotted's default {@code GROUPED} mode where every increment is
 * {@code addAndGet}, as a Redis {@code INCR} through the service is: each flush also learns the
 * totals of the counters it writes. Compared with {@code grouped} in the same run, it shows what
 * answering totals costs the writers. {@code grouped-expiring}: the same on a type whose counters
 * may expire ({@code expiring}), each flush a transaction that takes its counters' expiry locks;
 * compared with {@code grouped-totals}, it shows what an expiring type costs.
 *
 * <p>Exactness covers the answers too: every answer must be at least 1 (it includes the caller's
 * own increment) and at most the counter's final total, or the cell fails.
 */
public final class TotalsStrategy implements Strategy {
    private final String url;
    private final boolean expiring;

    /**
     * Creates the strategy.
     *
     * @param url the JDBC URL of the database to write
     * @param expiring whether the type's counters may expire
     */
    public TotalsStrategy(String url, boolean expiring) {
        this.url = url;
        this.expiring = expiring;
    }

    @Override
    public String name() {
        return expiring ? "grouped-expiring" : "grouped-totals";
    }

    @Override
    public Run open(String cell, int writers, int keySpace) throws Exception {
        String table = "bench_totals_" + cell;
        HikariDataSource pool = BenchPool.open(url, SlottedStrategy.DEFAULT_FLUSHERS + BenchPool.SPARE,
                "bench-" + cell);
        try {
            SlottedStrategy.dropTables(pool, table);
            SlottedCountersBuilder builder = SlottedCounters.builder(pool).table(table).writeMode(WriteMode.GROUPED);
            if (expiring) {
                builder.expiring(SlottedStrategy.RECORD_TYPE);
            }
            SlottedCounters counters = builder.build();
            counters.migrate();
            return new AnsweringRun(new SlottedRun(pool, table, counters, keySpace, true, ""), new long[keySpace]);
        } catch (Exception e) {
            pool.close();
            throw e;
        }
    }

    /**
     * A {@link SlottedRun} whose increments answer totals. The largest answer per counter is kept
     * without a lock: a lost race only keeps a smaller one, which the check still bounds.
     */
    private record AnsweringRun(SlottedRun run, long[] largestAnswers) implements SlottedRunCheck {
        @Override
        public Incrementer incrementer() {
            return recordId -> {
                long total = run.counters().addAndGet(SlottedStrategy.RECORD_TYPE, recordId, 1);
                if (total < 1) {
                    throw new IllegalStateException("addAndGet of counter " + recordId + " answered "
                            + total + ", without its own increment");
                }
                int at = (int) (recordId - 1);
                if (total > largestAnswers[at]) {
                    largestAnswers[at] = total;
                }
            };
        }

        @Override
        public long[] totals() throws SQLException {
            long[] totals = run.totals();
            for (int i = 0; i < totals.length; i++) {
                if (largestAnswers[i] > totals[i]) {
                    throw new IllegalStateException("counter " + (i + 1) + " answered " + largestAnswers[i]
                            + ", past its final total " + totals[i]);
                }
            }
            return totals;
        }

    }
}
