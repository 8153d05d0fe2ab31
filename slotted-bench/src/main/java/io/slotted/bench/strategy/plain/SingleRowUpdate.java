package io.slotted.bench.strategy.plain;

import com.zaxxer.hikari.HikariDataSource;
import io.slotted.bench.strategy.BenchPool;
import io.slotted.bench.strategy.EngineCounts;
import io.slotted.bench.strategy.SlottedStrategy;
import io.slotted.bench.strategy.Strategy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The naive counter: one row per counter, each increment an autocommit
 * {@code UPDATE … SET count = count + 1}. Every writer of a hot counter queues on that one row lock
 * and pays a durable commit, which is the problem Slotted exists to solve.
 *
 * <p>Rows are seeded before the writers start, so every increment is a plain update of an existing
 * row. Each writer holds its own connection and prepared statement for the whole cell, as long as
 * the writers fit under the connection cap; when they are more, every increment borrows a
 * connection from the capped pool instead, and writers wait their turn for one.
 */
public final class SingleRowUpdate implements Strategy {
    /** Rows per seeding statement: small enough for every driver's parameter limit. */
    private static final int SEED_CHUNK = 1_000;

    private final String url;
    private final int maxConnections;

    /**
     * Creates the strategy.
     *
     * @param url the JDBC URL of the database to write
     * @param maxConnections the most connections the writers get; more writers share them
     * @throws IllegalArgumentException if {@code maxConnections} is less than 1
     */
    public SingleRowUpdate(String url, int maxConnections) {
        this.url = url;
        this.maxConnections = BenchPool.checkMaxConnections(maxConnections);
    }

    @Override
    public String name() {
        return "single-row";
    }

    @Override
    public Run open(String cell, int writers, int keySpace) throws SQLException {
        String table = "bench_single_row_" + cell;
        HikariDataSource pool = BenchPool.open(url,
                BenchPool.writerConnections(writers, maxConnections) + BenchPool.SPARE, "bench-" + cell);
        try {
            BenchPool.execute(pool, "DROP TABLE IF EXISTS " + table,
                    "CREATE TABLE " + table + " (record_type INT NOT NULL, record_id BIGINT NOT NULL,"
                            + " count BIGINT NOT NULL, PRIMARY KEY (record_type, record_id))");
            seed(pool, table, keySpace);
            return new SingleRowRun(pool, table, keySpace,
                    BenchPool.sharingNote(writers, maxConnections));
        } catch (SQLException | RuntimeException e) {
            pool.close();
            throw e;
        }
    }

    private static void seed(HikariDataSource pool, String table, int keySpace) throws SQLException {
        try (Connection connection = pool.getConnection();
                Statement statement = connection.createStatement()) {
            connection.setAutoCommit(false);
            for (int from = 1; from <= keySpace; from += SEED_CHUNK) {
                statement.executeUpdate(seedSql(table, from, Math.min(keySpace, from + SEED_CHUNK - 1)));
            }
            connection.commit();
        }
    }

    /** Literal ids only, generated here, never user input. */
    private static String seedSql(String table, int from, int to) {
        StringBuilder sql = new StringBuilder("INSERT INTO ").append(table)
                .append(" (record_type, record_id, count) VALUES ");
        for (int id = from; id <= to; id++) {
            sql.append(id == from ? "" : ", ").append('(').append(SlottedStrategy.RECORD_TYPE)
                    .append(", ").append(id).append(", 0)");
        }
        return sql.toString();
    }

    /**
     * One cell's seeded table.
     *
     * @param sharing how writers share connections, said on the cell's line; empty when each
     *     writer has its own
     */
    private record SingleRowRun(HikariDataSource pool, String table, int keySpace, String sharing)
            implements Run {

        @Override
        public Incrementer incrementer() throws SQLException {
            String sql = "UPDATE " + table
                    + " SET count = count + 1 WHERE record_type = ? AND record_id = ?";
            return sharing.isEmpty() ? new RowUpdater(pool.getConnection(), sql)
                    : new BorrowingRowUpdater(pool, sql);
        }

        @Override
        public EngineCounts engineCounts() {
            return EngineCounts.noted(sharing);
        }

        @Override
        public long[] totals() throws SQLException {
            return BenchPool.totals(pool, keySpace, "SELECT record_id, count FROM " + table);
        }

        @Override
        public void close() throws SQLException {
            BenchPool.dropTableAndClose(pool, table);
        }
    }

    /** A writer's own connection and statement, in autocommit: one durable commit per call. */
    private static final class RowUpdater implements Incrementer {
        private final Connection connection;
        private final PreparedStatement update;

        RowUpdater(Connection connection, String sql) throws SQLException {
            this.connection = connection;
            try {
                connection.setAutoCommit(true);
                this.update = connection.prepareStatement(sql);
                update.setInt(1, SlottedStrategy.RECORD_TYPE);
            } catch (SQLException e) {
                connection.close();
                throw e;
            }
        }

        @Override
        public void increment(long recordId) throws SQLException {
            update.setLong(2, recordId);
            checkOneRow(update.executeUpdate(), recordId);
        }

        @Override
        public void close() throws SQLException {
            connection.close();
        }
    }

    /**
     * A writer among more than the pool has connections: each increment borrows one, prepares the
     * statement (no extra round trip with either driver's defaults) and gives the
     * connection back, in autocommit, as Hikari's connections are by default.
     */
    private record BorrowingRowUpdater(HikariDataSource pool, String sql) implements Incrementer {

        @Override
        public void increment(long recordId) throws SQLException {
            try (Connection connection = pool.getConnection();
                    PreparedStatement update = connection.prepareStatement(sql)) {
                update.setInt(1, SlottedStrategy.RECORD_TYPE);
                update.setLong(2, recordId);
                checkOneRow(update.executeUpdate(), recordId);
            }
        }
    }

    private static void checkOneRow(int updated, long recordId) throws SQLException {
        if (updated != 1) {
            throw new SQLException("UPDATE of record_id " + recordId + " changed " + updated
                    + " rows; the seeded row is missing");
        }
    }
}
