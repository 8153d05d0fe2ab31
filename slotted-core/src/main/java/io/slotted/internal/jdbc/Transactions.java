package io.slotted.internal.jdbc;

import io.slotted.internal.dialect.Dialect;
import java.sql.Connection;
import java.sql.SQLException;

/** What the write paths do with a transaction that failed. */
public final class Transactions {
    private Transactions() {
    }

    /**
     * Rolls back after a failure, keeping the failure as the one reported: if the rollback fails
     * too (the connection is usually gone by then), its exception is attached as suppressed.
     *
     * @param connection the connection whose transaction failed
     * @param failure the failure that ended the transaction
     */
    public static void rollbackQuietly(Connection connection, SQLException failure) {
        try {
            connection.rollback();
        } catch (SQLException rollbackFailure) {
            failure.addSuppressed(rollbackFailure);
        }
    }

    /**
     * Runs reads in one transaction that sees one snapshot of the whole database, then gives the
     * connection back as it was.
     *
     * @param connection a connection in auto-commit mode
     * @param dialect the database's dialect, which names the isolation level
     * @param work the reads
     * @param <T> what they return
     * @return what the reads returned
     * @throws SQLException if the reads failed
     */
    public static <T> T inSnapshot(Connection connection, Dialect dialect, TransactionWork<T> work)
            throws SQLException {
        int isolation = connection.getTransactionIsolation();
        connection.setTransactionIsolation(dialect.snapshotIsolation());
        connection.setAutoCommit(false);
        try {
            return work.run();
        } finally {
            try {
                connection.rollback();
            } finally {
                connection.setAutoCommit(true);
                connection.setTransactionIsolation(isolation);
            }
        }
    }

    /**
     * Sets a connection that write transactions run on to {@code READ COMMITTED} where its
     * database's default isolation would keep one snapshot per transaction
     * ({@link Dialect#snapshotPerTransactionByDefault}); elsewhere sends nothing.
     *
     * @param connection a connection with no transaction open
     * @param dialect its database's dialect
     * @return what to give the connection back after the transaction
     * @throws SQLException if the level cannot be read or set
     */
    public static Isolation readCommitted(Connection connection, Dialect dialect) throws SQLException {
        if (!dialect.snapshotPerTransactionByDefault()) {
            return Isolation.UNCHANGED;
        }
        int was = connection.getTransactionIsolation(); // MariaDB's driver knows it without asking
        if (was == Connection.TRANSACTION_READ_COMMITTED) {
            return Isolation.UNCHANGED;
        }
        connection.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
        return new Isolation(was);
    }

    /**
     * The isolation level a connection had before {@link #readCommitted}, to give it back.
     *
     * @param level a {@link Connection} isolation constant; {@link Connection#TRANSACTION_NONE} if
     *     the level was not changed
     */
    public record Isolation(int level) {
        /** Nothing to give back. */
        public static final Isolation UNCHANGED = new Isolation(Connection.TRANSACTION_NONE);

        /**
         * Gives the connection its level back, if it was changed, after a transaction that may
         * have failed: a failure here never takes the place of the transaction's.
         *
         * @param connection the connection
         * @param failure the transaction's failure, or null if it succeeded
         * @throws SQLException if the transaction succeeded and the level could not be set
         */
        public void restore(Connection connection, SQLException failure) throws SQLException {
            if (level != Connection.TRANSACTION_NONE) {
                restoreAfter(failure, () -> connection.setTransactionIsolation(level));
            }
        }
    }

    /**
     * Runs work in one read-committed transaction on a pooled connection, rolling back on any
     * failure and giving the connection back as it was. The work commits itself. Read committed
     * because the work that uses this locks what it reads ({@code FOR UPDATE}) and must not lock
     * the gaps between rows, which on InnoDB would stall writers creating new slot rows.
     *
     * @param connection a connection in auto-commit mode, or already in the caller's transaction
     * @param work the work
     * @param <T> what it returns
     * @return what the work returned
     * @throws SQLException if the work failed; it was rolled back
     */
    public static <T> T inTransaction(Connection connection, TransactionWork<T> work) throws SQLException {
        boolean autoCommit = connection.getAutoCommit();
        int isolation = connection.getTransactionIsolation();
        if (autoCommit) {
            connection.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
            connection.setAutoCommit(false);
        }
        SQLException failure = null;
        try {
            return work.run();
        } catch (SQLException e) {
            failure = e;
            rollbackQuietly(connection, e);
            throw e;
        } catch (RuntimeException e) {
            failure = new SQLException(e);
            rollbackQuietly(connection, failure);
            throw e;
        } finally {
            if (autoCommit) {
                restoreAfter(failure, () -> {
                    connection.setAutoCommit(true);
                    connection.setTransactionIsolation(isolation);
                });
            }
        }
    }

    /**
     * Gives a connection back its auto-commit mode after work on it. If the work failed, a failure
     * here is kept beside the work's, never in its place: a connection lost during COMMIT fails
     * this too (the pool has closed it), and the caller must still learn that the COMMIT was lost,
     * not that some other statement failed and nothing was applied.
     *
     * @param failure the work's failure, or null if it succeeded
     * @throws SQLException if the work succeeded and the mode could not be set
     */
    public static void restoreAutoCommit(Connection connection, boolean autoCommit, SQLException failure)
            throws SQLException {
        restoreAfter(failure, () -> connection.setAutoCommit(autoCommit));
    }

    /**
     * Gives a connection back its settings after work on it, as {@link #restoreAutoCommit} says:
     * a failure here never takes the place of the work's. (The isolation level was once restored
     * unguarded after a lost COMMIT, and a set that had taken effect was reported as failed with
     * "Connection is closed".)
     */
    private static void restoreAfter(SQLException failure, SettingChange restore) throws SQLException {
        try {
            restore.run();
        } catch (SQLException restoreFailure) {
            if (failure == null) {
                throw restoreFailure;
            }
            failure.addSuppressed(restoreFailure);
        }
    }

    /** A connection setting given back. */
    @FunctionalInterface
    private interface SettingChange {
        void run() throws SQLException;
    }

    /** Work inside {@link #inTransaction}. */
    @FunctionalInterface
    public interface TransactionWork<T> {
        T run() throws SQLException;
    }

}
