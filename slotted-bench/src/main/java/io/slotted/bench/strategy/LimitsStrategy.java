package io.slotted.bench.strategy;

import com.zaxxer.hikari.HikariDataSource;
import io.slotted.Limits;
import io.slotted.SlottedCounters;
import io.slotted.WriteMode;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Slotted's default {@code GROUPED} mode on a counter type with limits, each increment a
 * {@code tryAdd}; compared with {@code grouped} in the same run, it shows what limits cost.
 *
 * <ul>
 *   <li>{@code grouped-limited}: far from the bound — the type is kept at or below 2^62, which the
 *       benchmark's increments of 1 never come near, so every increment is applied;</li>
 *   <li>{@code grouped-at-limit}: at the bound — the type is kept at or below 0 and every counter
 *       starts at 0, so every increment is refused, as every checkout is once stock is sold out;
 *       its rate is decisions per second.</li>
 * </ul>
 *
 * <p>Exactness covers the decisions: a refused increment is counted by the writer that was told,
 * and the cell's check is that each counter's stored total plus its refusals equals the
 * increments made; at the bound nothing may be stored at all.
 */
public final class LimitsStrategy implements Strategy {
    private final String url;
    private final boolean atTheLimit;

    /**
     * Creates the strategy.
     *
     * @param url the JDBC URL of the database to write
     * @param atTheLimit true for {@code grouped-at-limit}, false for {@code grouped-limited}
     */
    public LimitsStrategy(String url, boolean atTheLimit) {
        this.url = url;
        this.atTheLimit = atTheLimit;
    }

    @Override
    public String name() {
        return atTheLimit ? "grouped-at-limit" : "grouped-limited";
    }

    @Override
    public Run open(String cell, int writers, int keySpace) throws Exception {
        String table = "bench_" + name().replace('-', '_') + "_" + cell;
        HikariDataSource pool = BenchPool.open(url, SlottedStrategy.DEFAULT_FLUSHERS + BenchPool.SPARE,
                "bench-" + cell);
        try {
            SlottedStrategy.dropTables(pool, table);
            SlottedCounters counters = SlottedCounters.builder(pool).table(table).writeMode(WriteMode.GROUPED)
                    .limits(SlottedStrategy.RECORD_TYPE, Limits.atMost(atTheLimit ? 0 : 1L << 62)).build();
            counters.migrate();
            return new DecidedRun(new SlottedRun(pool, table, counters, keySpace, true, ""),
                    new AtomicLongArray(keySpace), atTheLimit);
        } catch (Exception e) {
            pool.close();
            throw e;
        }
    }

    /** A {@link SlottedRun} whose increments are decided, counting the refused ones per counter. */
    private record DecidedRun(SlottedRun run, AtomicLongArray refused, boolean atTheLimit) implements SlottedRunCheck {
        @Override
        public Incrementer incrementer() {
            return recordId -> {
                if (!run.counters().tryAdd(SlottedStrategy.RECORD_TYPE, recordId, 1)) {
                    refused.incrementAndGet((int) (recordId - 1));
                }
            };
        }

        @Override
        public long[] totals() throws SQLException {
            long[] totals = run.totals();
            for (int i = 0; i < totals.length; i++) {
                if (atTheLimit && totals[i] != 0) {
                    throw new IllegalStateException("counter " + (i + 1) + " holds " + totals[i]
                            + " past its limit of 0");
                }
                totals[i] += refused.get(i);
            }
            return totals;
        }

    }
}
