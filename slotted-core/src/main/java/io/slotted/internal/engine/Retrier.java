package io.slotted.internal.engine;

import io.slotted.SlottedException;
import io.slotted.internal.dialect.Dialect;
import io.slotted.internal.dialect.Failure;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Runs database work, repeating it when it failed in a way that applied nothing.
 *
 * <p>Only deadlocks, lock-wait timeouts, serialization failures and H2's duplicate-key race are
 * retried: in each case the database has rolled the statement back, so a second attempt cannot
 * count twice. Everything else, including a lost connection, is reported at once. Each attempt
 * borrows a fresh connection, so a connection the server has aborted is never reused. Waits grow
 * exponentially from the configured base up to one second and are jittered over their upper half,
 * so that writers that collided once do not collide again in lockstep.
 */
public final class Retrier {
    private static final long MAX_BACKOFF_NANOS = Duration.ofSeconds(1).toNanos();

    private final Database database;
    private final int maxAttempts;
    private final long baseBackoffNanos;
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
        this.baseBackoffNanos = baseBackoff.toNanos();
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
            pause(attempt, operation);
        }
    }

    private Connection borrow(String operation) {
        try {
            return database.connect();
        } catch (SQLException e) {
            throw FailureReport.unavailable(operation, e);
        }
    }

    private void pause(int attempt, String operation) {
        long ceiling = Math.min(MAX_BACKOFF_NANOS, baseBackoffNanos << Math.min(attempt - 1, 30));
        long wait = ceiling / 2 + ThreadLocalRandom.current().nextLong(ceiling / 2 + 1);
        try {
            Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SlottedException("interrupted while waiting to retry: " + operation
                    + "; nothing was applied", e);
        }
    }
}
