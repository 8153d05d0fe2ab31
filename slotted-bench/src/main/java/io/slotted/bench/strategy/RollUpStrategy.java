package io.slotted.bench.strategy;

import com.zaxxer.hikari.HikariDataSource;
import io.slotted.OwnerColumn;
import io.slotted.OwnerMode;
import io.slotted.SlottedCounters;
import io.slotted.SlottedStats;
import io.slotted.WriteMode;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * {@code grouped-rollup}: Slotted's default {@code GROUPED} mode with the counter type bound in
 * fold mode to an owner table that has a row for every counter, rolled up every second by the
 * counters themselves, as {@code slotted serve} does. Compared with {@code grouped} in the same run,
 * it shows what the roll-up costs the writers.
 *
 * <p>While the cell runs, the roll-up lag ({@code stats().rollUpLagMillis()}) is sampled every
 * 100 ms; the cell's line then gives the lag's median, 99th percentile and maximum, and the
 * counters rolled up per second.
 */
public final class RollUpStrategy implements Strategy {
    private static final Duration EVERY = Duration.ofSeconds(1);
    /** The roller's registry-row lock and its pass each hold a connection. */
    private static final int ROLLER_CONNECTIONS = 2;

    private final String url;

    /**
     * Creates the strategy.
     *
     * @param url the JDBC URL of the database to write
     */
    public RollUpStrategy(String url) {
        this.url = url;
    }

    @Override
    public String name() {
        return "grouped-rollup";
    }

    @Override
    public Run open(String cell, int writers, int keySpace) throws Exception {
        String table = "bench_rollup_" + cell;
        // Writers hold no connection in GROUPED mode: only the flushers and the roller write.
        HikariDataSource pool = BenchPool.open(url, SlottedStrategy.DEFAULT_FLUSHERS
                + ROLLER_CONNECTIONS + BenchPool.SPARE, "bench-" + cell);
        try {
            SlottedStrategy.dropTables(pool, table);
            BenchPool.execute(pool, "DROP TABLE IF EXISTS " + table + "_owner",
                    "CREATE TABLE " + table + "_owner (id BIGINT PRIMARY KEY,"
                            + " downloads_count BIGINT DEFAULT 0 NOT NULL)");
            fillOwners(pool, table + "_owner", keySpace);
            SlottedCounters counters = SlottedCounters.builder(pool).table(table)
                    .writeMode(WriteMode.GROUPED).rollUpEvery(EVERY).build();
            counters.migrate();
            counters.owners().adopt(SlottedStrategy.RECORD_TYPE,
                    OwnerColumn.parse(table + "_owner.id.downloads_count"), OwnerMode.FOLD);
            counters.owners().rollUpNow(); // returns once every process may roll the new binding up
            return new RollUpRun(new SlottedRun(pool, table, counters, keySpace, true, ""));
        } catch (Exception e) {
            pool.close();
            throw e;
        }
    }

    private static void fillOwners(HikariDataSource pool, String owner, int keySpace)
            throws SQLException {
        try (Connection connection = pool.getConnection();
                PreparedStatement insert = connection.prepareStatement(
                        "INSERT INTO " + owner + " (id) VALUES (?)")) {
            for (long id = 1; id <= keySpace; id++) {
                insert.setLong(1, id);
                insert.addBatch();
                if (id % 5_000 == 0) {
                    insert.executeBatch();
                }
            }
            insert.executeBatch();
        }
    }

    /** A {@link SlottedRun} whose roll-up lag is sampled while it runs. */
    private static final class RollUpRun implements Run {
        private final SlottedRun run;
        private final List<Long> lagSamples = new ArrayList<>();
        private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
        private final long started = System.nanoTime();
        private final long rolledBefore;
        private long rolledAtDrain = -1;
        private long nanosAtDrain;

        RollUpRun(SlottedRun run) {
            this.run = run;
            this.rolledBefore = run.counters().stats().countersRolledUp();
            sampler.scheduleAtFixedRate(this::sample, 100, 100, TimeUnit.MILLISECONDS);
        }

        private void sample() {
            long lag = run.counters().stats().rollUpLagMillis();
            synchronized (lagSamples) {
                lagSamples.add(lag);
            }
        }

        @Override
        public Incrementer incrementer() {
            return run.incrementer();
        }

        @Override
        public void drain() {
            sampler.shutdownNow();
            SlottedStats stats = run.counters().stats();
            rolledAtDrain = stats.countersRolledUp();
            nanosAtDrain = System.nanoTime() - started;
            run.drain();
        }

        @Override
        public long[] totals() {
            return run.totals();
        }

        /** Read after {@link #drain()}, so the note covers the whole cell. */
        @Override
        public EngineCounts engineCounts() {
            EngineCounts counts = run.engineCounts();
            return new EngineCounts(counts.flushes(), counts.retries(), summary());
        }

        @Override
        public void close() throws SQLException {
            sampler.shutdownNow();
            try {
                BenchPool.execute(run.pool(), "DROP TABLE IF EXISTS " + run.table() + "_owner");
            } finally {
                run.close();
            }
        }

        private String summary() {
            List<Long> sorted;
            synchronized (lagSamples) {
                sorted = lagSamples.stream().filter(l -> l >= 0).sorted().toList();
            }
            if (sorted.isEmpty() || rolledAtDrain < 0) {
                return "no roll-up lag sampled";
            }
            double seconds = nanosAtDrain / 1e9;
            return String.format(Locale.ROOT, "roll-up lag p50 %d ms, p99 %d ms, max %d ms"
                    + " (%d samples), %.0f counters rolled up per second (%d in %.1f s)",
                    percentile(sorted, 0.50), percentile(sorted, 0.99),
                    sorted.get(sorted.size() - 1), sorted.size(),
                    (rolledAtDrain - rolledBefore) / seconds, rolledAtDrain - rolledBefore, seconds);
        }

        private static long percentile(List<Long> sorted, double q) {
            return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(q * sorted.size()) - 1));
        }
    }
}
