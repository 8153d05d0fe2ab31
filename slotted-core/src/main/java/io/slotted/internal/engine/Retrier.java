package io.slotted.internal.engine;

import io.slotted.SlottedException;
import io.slotted.internal.dialect.Dialect;
import io.slotted.internal.dialect.Failure;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;

/**
 * Runs database work, repeating it when it failed in a way that applied nothing.
 *
 * <p>Only deadlocks, lock-wait timeouts, serialization failures and H2's duplicate-key race are
 * retried: in each case the database has rolled the statement back, so a second attempt cannot
 * count twice. Everything else, including a lost connection, is reported at once. Each attempt
 * borrows a fresh connection, so a connection the server has aborted is never reused, and waits
 * a jittered {@link Backoff} first.
 */
public final class Retrier {
    private final Database database;
    private final int maxAttempts;
    private final Backoff backoff;
    private final StatsRecorder stats;

    /**
     * Creates a retrier.
     *
     * @param database where the work runs
     * @param maxAttempts attempts allowed for each piece of work, at least 1
     * @param baseBackoff the nominal wait before the first retry
     * @param stats where retries are counted
     */
    public Retrier(Database database, int maxAttempts, Duration baseBackoff, StatsRecorder stats) {
        this.database = database;
        this.maxAttempts = maxAttempts;
        this.backoff = new Backoff(baseBackoff);
        this.stats = stats;
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
                if (!failure.retryable() || attempt >= maxAttempts) {
                    throw FailureReport.of(operation, database.table(), failure, e, attempt, writes);
                }
            }
            stats.retried();
            backoff.pause(attempt, operation);
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
