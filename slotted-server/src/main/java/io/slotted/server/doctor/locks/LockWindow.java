package io.slotted.server.doctor.locks;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * Where one kind of database shows its row-lock waits: what waits now, and the deadlocks and
 * lock-wait timeouts counted over a window.
 */
public interface LockWindow {
    /**
     * Reads the counters the window is measured against.
     *
     * @param connection a connection of the doctor's own
     * @throws SQLException if they cannot be read, such as for a missing privilege
     */
    void begin(Connection connection) throws SQLException;

    /**
     * The sessions waiting for a row lock now.
     *
     * @param connection a connection of the doctor's own
     * @return one entry per waiting session
     * @throws SQLException if the lock tables cannot be read, such as for a missing privilege
     */
    List<Wait> sample(Connection connection) throws SQLException;

    /**
     * What the window's counters say at its end.
     *
     * @param connection a connection of the doctor's own
     * @return the deadlocks, timeouts and lock time in the window
     * @throws SQLException if they cannot be read
     */
    WindowTotals end(Connection connection) throws SQLException;

    /**
     * The keys' column names of a table's index, for labelling a hot row's key.
     *
     * @param connection a connection of the doctor's own
     * @param table the table
     * @param index the index, or null for the primary key
     * @return the column names in key order, empty when unknown
     * @throws SQLException if the catalog cannot be read
     */
    List<String> keyColumns(Connection connection, TableRef table, String index) throws SQLException;

    /**
     * Deadlocks, lock-wait timeouts and row-lock time over the window.
     *
     * @param deadlocks deadlocks detected in the window
     * @param lockWaitTimeouts statements that gave up waiting for a lock, or -1 where the database
     *     does not count them
     * @param rowLockWaitMillis time all sessions spent waiting for row locks, or -1 where the
     *     database does not count it
     * @param latestDeadlock the latest deadlock's description, when the database keeps one
     */
    public record WindowTotals(long deadlocks, long lockWaitTimeouts, long rowLockWaitMillis,
            Optional<DeadlockReport> latestDeadlock) {
    }
}
