package io.slotted.bench.strategy.plain;

import com.zaxxer.hikari.HikariDataSource;
import io.slotted.bench.strategy.BenchPool;
import io.slotted.bench.strategy.EngineCounts;
import io.slotted.bench.strategy.Strategy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Collections;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code limit-N}: the database's own limit, with no Slotted in the write path. Each writer loops on
 * one auto-commit statement that upserts N distinct rows of a plain counter table, each row
 * {@code +1}: one round trip and one durable commit for N increments, so that every other
 * strategy's increments per second can be read as a fraction of the rows per second the database
 * itself commits in statements of that size, on this machine, with these writers.
 *
 * <p>The harness hands each call N increments drawn from the cell's workload, and counts each as
 * one increment, with one latency for the statement. Every writer writes rows of its own, so that
 * no statement waits for another's row locks and the rate is the database's own, not its lock
 * queue's: writer {@code w}'s k-th draw of a counter in a statement is its row
 * {@code (record_id, w × N + k)}, and a statement never names a row twice. Under the hot workload
 * each writer upserts its own N rows of the one counter; under the Zipf workload a writer's rows
 * are its draws' counters. A counter's total is the sum of its rows, which is what the exactness
 * check reads back.
 *
 * <p>Rows are sent sorted by {@code (record_id, part)}, so that writers whose statements share rows
 * lock them in the same order and wait for each other rather than deadlock. The upsert is
 * {@code INSERT … ON DUPLICATE KEY UPDATE} on MariaDB and MySQL and
 * {@code INSERT … ON CONFLICT DO UPDATE} on PostgreSQL, chosen from the database's product name.
 * Each writer holds its own connection and the statement prepared once, as long as the writers fit
 * under the connection cap; beyond it, each call borrows a connection from the capped pool, as
 * {@link SingleRowUpdate} does.
 */
public final class MultiRowUpsert implements Strategy {
    /** The most rows per statement: twice as many parameters stay under every driver's limit. */
    public static final int MAX_ROWS = 9_999;

    private final String url;
    private final int rows;
    private final int maxConnections;

    /**
     * Creates the strategy.
     *
     * @param url the JDBC URL of a MariaDB, MySQL or PostgreSQL database
     * @param rows the distinct rows each statement upserts
     * @param maxConnections the most connections the writers get; more writers share them
     * @throws IllegalArgumentException if {@code rows} is not between 1 and {@value #MAX_ROWS}, or
     *     {@code maxConnections} is less than 1
     */
    public MultiRowUpsert(String url, int rows, int maxConnections) {
        if (rows < 1 || rows > MAX_ROWS) {
            throw new IllegalArgumentException(
                    "rows per statement must be between 1 and " + MAX_ROWS + ", but was " + rows);
        }
        this.url = url;
        this.rows = rows;
        this.maxConnections = BenchPool.checkMaxConnections(maxConnections);
    }

    @Override
    public String name() {
        return "limit-" + rows;
    }

    @Override
    public Run open(String cell, int writers, int keySpace) throws SQLException {
        String table = "bench_limit_" + rows + "_" + cell;
        HikariDataSource pool = BenchPool.open(url,
                BenchPool.writerConnections(writers, maxConnections) + BenchPool.SPARE, "bench-" + cell);
        try {
            Syntax syntax = Syntax.of(pool);
            BenchPool.execute(pool, "DROP TABLE IF EXISTS " + table,
                    "CREATE TABLE " + table + " (record_id BIGINT NOT NULL, part INT NOT NULL,"
                            + " count BIGINT NOT NULL, PRIMARY KEY (record_id, part))");
            return new UpsertRun(pool, table, syntax, rows, keySpace,
                    BenchPool.sharingNote(writers, maxConnections), new AtomicInteger());
        } catch (SQLException | RuntimeException e) {
            pool.close();
            throw e;
        }
    }

    /** The upsert in each database's words. */
    private enum Syntax {
        /** MariaDB and MySQL. */
        ON_DUPLICATE_KEY {
            @Override
            String upsert(String table, String values) {
                return "INSERT INTO " + table + " (record_id, part, count) VALUES " + values
                        + " ON DUPLICATE KEY UPDATE count = count + 1";
            }
        },
        /** PostgreSQL. */
        ON_CONFLICT {
            @Override
            String upsert(String table, String values) {
                return "INSERT INTO " + table + " AS t (record_id, part, count) VALUES " + values
                        + " ON CONFLICT (record_id, part) DO UPDATE SET count = t.count + 1";
            }
        };

        abstract String upsert(String table, String values);

        /** A statement adding 1 to each of {@code rows} rows, each a (record_id, part) pair. */
        String sql(String table, int rows) {
            return upsert(table, String.join(", ", Collections.nCopies(rows, "(?, ?, 1)")));
        }

        static Syntax of(HikariDataSource pool) throws SQLException {
            String product;
            try (Connection connection = pool.getConnection()) {
                product = connection.getMetaData().getDatabaseProductName();
            }
            String name = product.toLowerCase(Locale.ROOT);
            if (name.contains("mariadb") || name.contains("mysql")) {
                return ON_DUPLICATE_KEY;
            }
            if (name.contains("postgres")) {
                return ON_CONFLICT;
            }
            throw new IllegalArgumentException("limit-N upserts in the SQL of MariaDB, MySQL or"
                    + " PostgreSQL, but the database is " + product);
        }
    }

    /**
     * Binds a call's counters to an upsert: sorted, each counter's repeats on its next rows.
     * Sorting a copy leaves the harness's array as it was.
     */
    private static void bind(PreparedStatement upsert, long[] recordIds, int firstPart) throws SQLException {
        long[] sorted = recordIds.clone();
        Arrays.sort(sorted);
        int part = firstPart;
        for (int i = 0; i < sorted.length; i++) {
            part = i > 0 && sorted[i] == sorted[i - 1] ? part + 1 : firstPart;
            upsert.setLong(2 * i + 1, sorted[i]);
            upsert.setInt(2 * i + 2, part);
        }
    }

    /**
     * One cell's table.
     *
     * @param rows the rows of each call's statement
     * @param sharing how writers share connections, said on the cell's line; empty when each
     *     writer has its own
     */
    private record UpsertRun(HikariDataSource pool, String table, Syntax syntax, int rows,
            int keySpace, String sharing, AtomicInteger writers) implements Run {

        @Override
        public Incrementer incrementer() throws SQLException {
            return sharing.isEmpty() ? new RowsUpserter(pool.getConnection(), this)
                    : new BorrowingRowsUpserter(this);
        }

        /** Upserts a call's counters with a statement of their own size, prepared for the call. */
        void upsertOnce(Connection connection, long[] recordIds, int firstPart) throws SQLException {
            try (PreparedStatement upsert = connection.prepareStatement(
                    syntax.sql(table, recordIds.length))) {
                bind(upsert, recordIds, firstPart);
                upsert.executeUpdate();
            }
        }

        @Override
        public EngineCounts engineCounts() {
            return EngineCounts.noted(sharing);
        }

        /** Each counter's rows summed. */
        @Override
        public long[] totals() throws SQLException {
            return BenchPool.totals(pool, keySpace,
                    "SELECT record_id, SUM(count) FROM " + table + " GROUP BY record_id");
        }

        @Override
        public void close() throws SQLException {
            BenchPool.dropTableAndClose(pool, table);
        }
    }

    /**
     * A writer's increments, N to a call: each call one statement in auto-commit, whose rows are
     * all acknowledged or none. A single {@link #increment} is a call of one row.
     */
    private abstract static class Upserter implements Incrementer {
        final UpsertRun run;
        /** The first of the writer's own rows of each counter. */
        final int firstPart;

        Upserter(UpsertRun run) {
            this.run = run;
            this.firstPart = run.writers().getAndIncrement() * run.rows();
        }

        @Override
        public int incrementsPerCall() {
            return run.rows();
        }

        @Override
        public void increment(long recordId) throws SQLException {
            incrementEach(new long[] {recordId});
        }

        @Override
        public abstract void incrementEach(long[] recordIds) throws SQLException;
    }

    /** A writer's own connection, with the upsert of a whole call prepared once. */
    private static final class RowsUpserter extends Upserter {
        private final Connection connection;
        private final PreparedStatement upsert;

        RowsUpserter(Connection connection, UpsertRun run) throws SQLException {
            super(run);
            this.connection = connection;
            try {
                connection.setAutoCommit(true);
                this.upsert = connection.prepareStatement(run.syntax().sql(run.table(), run.rows()));
            } catch (SQLException e) {
                connection.close();
                throw e;
            }
        }

        @Override
        public void incrementEach(long[] recordIds) throws SQLException {
            if (recordIds.length != run.rows()) {
                run.upsertOnce(connection, recordIds, firstPart);
                return;
            }
            bind(upsert, recordIds, firstPart);
            upsert.executeUpdate();
        }

        @Override
        public void close() throws SQLException {
            connection.close();
        }
    }

    /**
     * A writer among more than the pool has connections: each call borrows one, prepares the
     * upsert and gives the connection back, in auto-commit, as Hikari's connections are by default.
     */
    private static final class BorrowingRowsUpserter extends Upserter {

        BorrowingRowsUpserter(UpsertRun run) {
            super(run);
        }

        @Override
        public void incrementEach(long[] recordIds) throws SQLException {
            try (Connection connection = run.pool().getConnection()) {
                run.upsertOnce(connection, recordIds, firstPart);
            }
        }
    }
}
