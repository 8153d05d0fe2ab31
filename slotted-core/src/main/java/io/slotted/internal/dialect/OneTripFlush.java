package io.slotted.internal.dialect;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * A flush sent to the server in one round trip: the ledger claim, the upserts and COMMIT together.
 *
 * <p>Sending them together is safe only where the server itself makes the upserts depend on the
 * claim and stops at the first failure, so that COMMIT can never make a claim durable without its
 * upserts: a retry would then find the flush "already committed" and lose it. A pipelined batch of
 * plain statements does not do that (MariaDB runs every statement of it whatever the earlier ones
 * did); an anonymous block on MariaDB and a data-modifying {@code WITH} followed by COMMIT on
 * PostgreSQL do.
 */
@FunctionalInterface
public interface OneTripFlush {
    /**
     * Sends the flush and reads its outcome.
     *
     * @param connection a connection in manual-commit mode with no writes pending
     * @return true if the claim succeeded and the flush committed; false if the ledger row was
     *     not ready to claim (an earlier attempt of this flush committed, or the row is missing),
     *     in which case nothing was written and no transaction is open
     * @throws SQLException if the round trip failed; nothing was committed unless the connection
     *     was lost after the server received it (the ledger then tells)
     */
    boolean run(Connection connection) throws SQLException;
}
