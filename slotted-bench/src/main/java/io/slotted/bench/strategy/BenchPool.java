package io.slotted.bench.strategy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The HikariCP pool each cell gets: sized to what the cell's writers and the engine need, and
 * filled before writers start so that opening connections is not measured; and, for the plain SQL
 * strategies, the cell's table read back and dropped through it.
 *
 * <p>Writers that use a connection for each increment get one each, up to a cap; beyond it they
 * share the capped pool, since a database accepts only so many connections (MariaDB's default
 * {@code max_connections} is 151) and a thousand writers cannot each have their own.
 */
public final class BenchPool {
    /** Room beyond writers and flushers: migrate, reads, Hikari's housekeeping. */
    public static final int SPARE = 4;

    private BenchPool() {
    }

    /**
     * Checks a connection cap.
     *
     * @param maxConnections the cap
     * @return the cap
     * @throws IllegalArgumentException if it is less than 1
     */
    public static int checkMaxConnections(int maxConnections) {
        if (maxConnections < 1) {
            throw new IllegalArgumentException(
                    "maxConnections must be at least 1, but was " + maxConnections);
        }
        return maxConnections;
    }

    /**
     * Connections for writers that each use one per increment: one per writer, up to the cap.
     *
     * @param writers the cell's writers
     * @param maxConnections the cap
     * @return the smaller of the two
     */
    public static int writerConnections(int writers, int maxConnections) {
        return Math.min(writers, maxConnections);
    }

    /**
     * What a cell's line says when its writers outnumber their connections.
     *
     * @param writers the cell's writers
     * @param maxConnections the cap
     * @return such as {@code 1000 writers share 64 connections}; empty when each writer has its own
     */
    public static String sharingNote(int writers, int maxConnections) {
        return writers > maxConnections
                ? writers + " writers share " + maxConnections + " connections" : "";
    }

    /**
     * Opens a pool and waits until it holds {@code size} connections.
     *
     * @param url the JDBC URL
     * @param size the pool's fixed size
     * @param name shown in Hikari's thread names and messages
     * @return the filled pool
     */
    public static HikariDataSource open(String url, int size, String name) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setPoolName(name);
        config.setMaximumPoolSize(size);
        config.setMinimumIdle(size);
        config.setConnectionTimeout(30_000);
        HikariDataSource pool = new HikariDataSource(config);
        warm(pool, size);
        return pool;
    }

    /** Runs SQL statements on a connection of its own, in autocommit. */
    public static void execute(HikariDataSource pool, String... sql) throws SQLException {
        try (Connection connection = pool.getConnection();
                Statement statement = connection.createStatement()) {
            for (String each : sql) {
                statement.execute(each);
            }
        }
    }

    /**
     * Reads every counter's total back.
     *
     * @param pool the cell's pool
     * @param keySpace record ids run from 1 to this
     * @param sql a query of rows {@code (record_id, total)}, one per counter that has any
     * @return the total of record id {@code i + 1} at index {@code i}
     * @throws SQLException if the query fails
     */
    public static long[] totals(HikariDataSource pool, int keySpace, String sql) throws SQLException {
        long[] totals = new long[keySpace];
        try (Connection connection = pool.getConnection();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            while (rows.next()) {
                totals[(int) rows.getLong(1) - 1] = rows.getLong(2);
            }
        }
        return totals;
    }

    /**
     * Drops a cell's table, then closes its pool whether or not the drop worked.
     *
     * @throws SQLException if the table cannot be dropped
     */
    public static void dropTableAndClose(HikariDataSource pool, String table) throws SQLException {
        try {
            execute(pool, "DROP TABLE IF EXISTS " + table);
        } finally {
            pool.close();
        }
    }

    /** Hikari fills a pool in the background; borrowing all of it at once forces the fill now. */
    private static void warm(HikariDataSource pool, int size) {
        Connection[] held = new Connection[size];
        try {
            for (int i = 0; i < size; i++) {
                held[i] = pool.getConnection();
            }
        } catch (SQLException e) {
            pool.close();
            throw new IllegalStateException("could not open " + size + " connections to "
                    + pool.getJdbcUrl() + ": " + e.getMessage(), e);
        } finally {
            closeAll(held);
        }
    }

    private static void closeAll(Connection[] connections) {
        for (Connection connection : connections) {
            if (connection != null) {
                try {
                    connection.close();
                } catch (SQLException ignored) {
                    // Returning a connection to the pool does not fail in practice; nothing to do.
                }
            }
        }
    }
}
