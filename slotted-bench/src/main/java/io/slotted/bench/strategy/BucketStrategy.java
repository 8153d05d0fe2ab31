package io.slotted.bench.strategy;

import com.zaxxer.hikari.HikariDataSource;
import io.slotted.BucketUnit;
import io.slotted.SlottedCounters;
import io.slotted.WriteMode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;

/**
 * {@code grouped-hourly}: Slotted's default {@code GROUPED} mode with the counter type also counting
 * per hour (kept 30 days), so every flush writes a counter's increments as its pending row of the
 * hour (docs/time-buckets.md), which the keeper moves into the bucket table once the hour has
 * closed. Compared with {@code grouped} in the same run, it shows what time buckets cost the
 * writers.
 *
 * <p>Exactness covers the buckets too: after the cell, every counter's buckets must add up to its
 * total, or the cell fails.
 */
public final class BucketStrategy implements Strategy {
    /**
     * The highest slot of the counter table's pending rows: a bucket's increments a flush wrote
     * there, which count in the bucket until the keeper moves them into the bucket table
     * (docs/time-buckets.md, "Storage").
     */
    private static final int PENDING_SLOTS = -(1 << 20);
    /** The background keeper's pruning and folding hold a connection. */
    private static final int KEEPER_CONNECTIONS = 1;

    private final String url;

    /**
     * Creates the strategy.
     *
     * @param url the JDBC URL of the database to write
     */
    public BucketStrategy(String url) {
        this.url = url;
    }

    @Override
    public String name() {
        return "grouped-hourly";
    }

    @Override
    public Run open(String cell, int writers, int keySpace) throws Exception {
        String table = "bench_hourly_" + cell;
        HikariDataSource pool = BenchPool.open(url, SlottedStrategy.DEFAULT_FLUSHERS + KEEPER_CONNECTIONS
                + BenchPool.SPARE, "bench-" + cell);
        try {
            SlottedStrategy.dropTables(pool, table);
            SlottedCounters counters = SlottedCounters.builder(pool).table(table).writeMode(WriteMode.GROUPED)
                    .buckets(SlottedStrategy.RECORD_TYPE, BucketUnit.HOUR, Duration.ofDays(30)).build();
            counters.migrate();
            return new BucketedRun(new SlottedRun(pool, table, counters, keySpace, true, ""));
        } catch (Exception e) {
            pool.close();
            throw e;
        }
    }

    /** A {@link SlottedRun} whose totals are checked against its buckets. */
    private record BucketedRun(SlottedRun run) implements SlottedRunCheck {
        @Override
        public long[] totals() throws SQLException {
            long[] totals = run.totals();
            long[] buckets = bucketSums();
            int differing = 0;
            for (int i = 0; i < totals.length; i++) {
                differing += totals[i] == buckets[i] ? 0 : 1;
            }
            if (differing > 0) {
                throw new IllegalStateException(differing + " counters' hourly buckets do not add up to"
                        + " their totals in " + run.table());
            }
            return totals;
        }

        private long[] bucketSums() throws SQLException {
            long[] sums = new long[run.keySpace()];
            try (Connection connection = run.pool().getConnection();
                    PreparedStatement select = connection.prepareStatement("SELECT record_id, SUM(n) FROM"
                            + " (SELECT record_id, count AS n FROM " + run.table() + "_buckets WHERE record_type = ?"
                            + " UNION ALL SELECT record_id, count AS n FROM " + run.table() + " WHERE record_type = ?"
                            + " AND slot <= " + PENDING_SLOTS + ") b GROUP BY record_id")) {
                select.setInt(1, SlottedStrategy.RECORD_TYPE);
                select.setInt(2, SlottedStrategy.RECORD_TYPE);
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        sums[(int) rows.getLong(1) - 1] = rows.getLong(2);
                    }
                }
            }
            return sums;
        }

    }
}
