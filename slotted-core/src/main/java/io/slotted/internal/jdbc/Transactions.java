package io.slotted.internal.jdbc;

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
}
