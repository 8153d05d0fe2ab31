package io.slotted.bench.strategy.plain;

import com.zaxxer.hikari.HikariDataSource;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.distributed.proxy.ProxyManager;
import io.github.bucket4j.mysql.Bucket4jMySQL;
import io.github.bucket4j.postgresql.Bucket4jPostgreSQL;
import io.slotted.bench.strategy.BenchPool;
import io.slotted.bench.strategy.EngineCounts;
import io.slotted.bench.strategy.QuotaStrategy;
import io.slotted.bench.strategy.Strategy;
import java.sql.SQLException;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Supplier;

/**
 * {@code bucket4j}: the same quota as {@link QuotaStrategy} — at most {@value QuotaStrategy#LIMIT}
 * per counter per second, fixed windows aligned on the second — kept by bucket4j's JDBC backend on
 * the same database: per decision, a transaction that locks the key's row
 * ({@code SELECT … FOR UPDATE}), computes the bucket in Java and writes it back. PostgreSQL uses
 * its select-for-update backend, MariaDB the MySQL one through MySQL Connector/J (with the MariaDB
 * driver bucket4j does not recognise a deadlock, and fails the decision instead of retrying it);
 * each writer takes a connection per decision from a pool of as many as the single-row writers get.
 *
 * <p>The bucket holds {@value QuotaStrategy#LIMIT} tokens and is refilled to them at each second,
 * so no second admits more. bucket4j keeps its state as bytes, which SQL cannot sum, so the check
 * is in the writers: each counter's admissions and refusals add up to the decisions made (the
 * cell's check), and no counter admitted more than {@value QuotaStrategy#LIMIT} per second it was
 * used in, counted from the first second it was used to the last (an over-admission fails the
 * cell).
 */
public final class Bucket4jStrategy implements Strategy {
    private final String url;
    private final int maxConnections;

    /**
     * Creates the strategy.
     *
     * @param url the JDBC URL of a MariaDB, MySQL or PostgreSQL database
     * @param maxConnections the most connections the writers get; more writers share them
     */
    public Bucket4jStrategy(String url, int maxConnections) {
        this.url = url;
        this.maxConnections = BenchPool.checkMaxConnections(maxConnections);
    }

    @Override
    public String name() {
        return "bucket4j";
    }

    @Override
    public Run open(String cell, int writers, int keySpace) throws Exception {
        String table = "bench_bucket4j_" + cell;
        boolean postgres = url.startsWith("jdbc:postgresql:");
        if (!postgres && !url.startsWith("jdbc:mariadb:") && !url.startsWith("jdbc:mysql:")) {
            throw new IllegalArgumentException("bucket4j runs on MariaDB, MySQL or PostgreSQL, not " + url);
        }
        // On MariaDB, bucket4j's MySQL backend through MySQL's own driver, as it is built for: it
        // retries a deadlock only when that driver's exception says so.
        String bucket4jUrl = url.startsWith("jdbc:mariadb:") ? "jdbc:mysql:" + url.substring("jdbc:mariadb:".length())
                : url;
        HikariDataSource pool = BenchPool.open(bucket4jUrl, BenchPool.writerConnections(writers, maxConnections)
                + BenchPool.SPARE, "bench-" + cell);
        try {
            BenchPool.execute(pool, "DROP TABLE IF EXISTS " + table, "CREATE TABLE " + table
                    + " (id BIGINT PRIMARY KEY, state " + (postgres ? "BYTEA" : "BLOB") + ")");
            ProxyManager<Long> buckets = postgres
                    ? Bucket4jPostgreSQL.selectForUpdateBasedBuilder(pool).table(table).build()
                    : Bucket4jMySQL.selectForUpdateBasedBuilder(pool).table(table).build();
            long windowMillis = QuotaStrategy.WINDOW.toMillis();
            Instant nextWindow = Instant.ofEpochMilli((System.currentTimeMillis() / windowMillis + 1) * windowMillis);
            BucketConfiguration quota = BucketConfiguration.builder()
                    .addLimit(limit -> limit.capacity(QuotaStrategy.LIMIT)
                            .refillIntervallyAligned(QuotaStrategy.LIMIT, QuotaStrategy.WINDOW, nextWindow))
                    .build();
            return new Bucket4jRun(pool, table, buckets, () -> quota, keySpace,
                    BenchPool.sharingNote(writers, maxConnections), new AtomicLongArray(keySpace),
                    new AtomicLongArray(keySpace), new AtomicLongArray(keySpace), new AtomicLongArray(keySpace));
        } catch (Exception e) {
            pool.close();
            throw e;
        }
    }

    /**
     * One cell's buckets.
     *
     * @param firstUsed per counter, the second its first decision began, or 0
     * @param lastUsed per counter, the second its last decision ended
     */
    private record Bucket4jRun(HikariDataSource pool, String table, ProxyManager<Long> buckets,
            Supplier<BucketConfiguration> quota, int keySpace, String note, AtomicLongArray admitted,
            AtomicLongArray refused, AtomicLongArray firstUsed, AtomicLongArray lastUsed) implements Run {

        @Override
        public Incrementer incrementer() {
            return recordId -> {
                int index = (int) (recordId - 1);
                firstUsed.compareAndSet(index, 0, second());
                boolean taken = buckets.builder().build(recordId, quota).tryConsume(1);
                (taken ? admitted : refused).incrementAndGet(index);
                lastUsed.accumulateAndGet(index, second(), Math::max);
            };
        }

        private static long second() {
            return System.currentTimeMillis() / QuotaStrategy.WINDOW.toMillis();
        }

        /** Each counter's admissions plus refusals; fails if one admitted more than its seconds allow. */
        @Override
        public long[] totals() {
            long[] totals = new long[keySpace];
            for (int i = 0; i < keySpace; i++) {
                long seconds = lastUsed.get(i) == 0 ? 0 : lastUsed.get(i) - firstUsed.get(i) + 1;
                if (admitted.get(i) > seconds * QuotaStrategy.LIMIT) {
                    throw new IllegalStateException("counter " + (i + 1) + " admitted " + admitted.get(i)
                            + " in the " + seconds + " seconds it was used, over its limit of "
                            + QuotaStrategy.LIMIT + " per second");
                }
                totals[i] = admitted.get(i) + refused.get(i);
            }
            return totals;
        }

        @Override
        public EngineCounts engineCounts() {
            return new EngineCounts(-1, -1, note);
        }

        @Override
        public void close() throws SQLException {
            BenchPool.dropTableAndClose(pool, table);
        }
    }
}
