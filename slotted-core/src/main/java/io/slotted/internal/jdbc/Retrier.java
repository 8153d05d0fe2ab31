package io.slotted.internal.jdbc;

import io.slotted.SlottedException;
import io.slotted.internal.dialect.Dialect;
import io.slotted.internal.dialect.Failure;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * Runs database work, repeating it when it failed in a way that applied nothing.
 *
 * <p>What is retried, how often and after what wait is the {@link RetryPolicy}'s to say; with
 * {@link RetryPolicy#forStatements} a lost connection is reported at once, since the work may
 * have been applied. Each attempt borrows a fresh connection, so a connection the server has
 * aborted is never reused.
 */
public final class Retrier {
    private final Database database;
    private final RetryPolicy policy;

    /**
     * Creates a retrier.
     *
     * @param database where the work runs
     * @param policy what is retried, how often, after what wait
     */
    public Retrier(Database database, RetryPolicy policy) {
        this.database = database;
        this.policy = policy;
    }

    /**
     * Runs work that writes, retrying contention.
     *
     * @param operation what the work does, for messages
     * @param work the work
     * @param <T> its result
     * @return the result of the first attempt that succeeded
     * @throws SlottedException if every attempt failed, or one failed in a way not worth retrying
     */
    public <T> T write(String operation, SqlWork<T> work) {
        return run(operation, work, true);
    }

    /**
     * Runs work that only reads, retrying contention.
     *
     * @param operation what the work does, for messages
     * @param work the work
     * @param <T> its result
     * @return the result of the first attempt that succeeded
     * @throws SlottedException if every attempt failed, or one failed in a way not worth retrying
     */
    public <T> T read(String operation, SqlWork<T> work) {
        return run(operation, work, false);
    }

    private <T> T run(String operation, SqlWork<T> work, boolean writes) {
        for (int attempt = 1; ; attempt++) {
            Connection connection = borrow(operation);
            Dialect dialect = database.dialect();
            try (connection) {
                return work.run(connection, dialect);
            } catch (SQLException e) {
                Failure failure = dialect.classify(e);
                if (!policy.allowsAnother(attempt, failure)) {
                    throw FailureReport.of(operation, database.table(), failure, e, attempt, writes);
                }
            }
            policy.pauseAfter(attempt, operation);
        }
    }

    private Connection borrow(String operation) {
        try {
            return database.connect();
        } catch (SQLException e) {
            throw FailureReport.unavailable(operation, e);
        }
    }
}
