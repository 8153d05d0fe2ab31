package io.slotted.campaign.workload;

import io.slotted.campaign.history.Invocation;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * Work in the caller's own transaction on a process's pool, as an application adds increments
 * with {@code add(connection, …)} beside its own statements, and what its outcome is: a failure
 * before the COMMIT rolled everything back (or nothing was sent: the connection closes without a
 * COMMIT); one during the COMMIT leaves the outcome unknown.
 */
final class CallersTransaction {
    /** The statements of the transaction, before its COMMIT. */
    @FunctionalInterface
    interface Work {
        void run(Connection connection) throws SQLException;
    }

    private CallersTransaction() {
    }

    /** Runs {@code work} in one transaction and commits it, ending {@code invocation} with what it learned. */
    static void commit(LibraryProcess process, Invocation invocation, Work work) {
        boolean committing = false;
        try (Connection connection = process.dataSource().getConnection()) {
            connection.setAutoCommit(false);
            work.run(connection);
            committing = true;
            connection.commit();
            invocation.ok();
        } catch (SQLException | RuntimeException e) {
            if (committing) {
                invocation.unknown(e);
            } else {
                invocation.failed(e);
            }
        }
    }
}
