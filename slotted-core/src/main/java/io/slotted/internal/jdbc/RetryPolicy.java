package io.slotted.internal.jdbc;

import io.slotted.SlottedConfig;
import io.slotted.SlottedException;
import io.slotted.internal.dialect.Failure;

/**
 * When failed database work is tried again, and how long to wait first: the one rule behind every
 * retry loop of the engine.
 *
 * <p>Only failures that applied nothing are retried: deadlocks, lock-wait timeouts, serialization
 * failures and H2's duplicate-key race, after each of which the database has rolled the work back.
 * The policy for group-commit flushes also retries a lost connection, which only the flush ledger
 * makes safe: a flush retried after its connection died cannot count twice, because the retry
 * first learns from the ledger whether the lost attempt committed. Every retry is counted and waits
 * a jittered {@link Backoff} first, so writers that collided once do not collide again in lockstep.
 */
public final class RetryPolicy {
    private final int maxAttempts;
    private final Backoff backoff;
    private final boolean retriesLostConnections;
    private final Runnable onRetry;

    private RetryPolicy(SlottedConfig config, boolean retriesLostConnections, Runnable onRetry) {
        this.maxAttempts = config.maxAttempts();
        this.backoff = new Backoff(config.retryBackoff());
        this.retriesLostConnections = retriesLostConnections;
        this.onRetry = onRetry;
    }

    /**
     * The policy for single statements and transactions: a lost connection is not retried, since
     * the work may have been applied.
     *
     * @param config the attempts allowed and the first backoff
     * @param onRetry told of every retry, for statistics
     * @return the policy
     */
    public static RetryPolicy forStatements(SlottedConfig config, Runnable onRetry) {
        return new RetryPolicy(config, false, onRetry);
    }

    /**
     * The policy for group-commit flushes, which also retries a lost connection.
     *
     * @param config the attempts allowed and the first backoff
     * @param onRetry told of every retry, for statistics
     * @return the policy
     */
    public static RetryPolicy forFlushes(SlottedConfig config, Runnable onRetry) {
        return new RetryPolicy(config, true, onRetry);
    }

    /**
     * Whether work that failed this way may be tried again at all.
     *
     * @param failure what the failure means
     * @return true if another attempt cannot count twice
     */
    public boolean retries(Failure failure) {
        return failure.retryable() || (retriesLostConnections && failure == Failure.CONNECTION);
    }

    /**
     * Whether a failed attempt gets another one.
     *
     * @param attempt the failed attempt's number, from 1
     * @param failure what the failure means
     * @return true if the failure is retried and attempts remain
     */
    public boolean allowsAnother(int attempt, Failure failure) {
        return retries(failure) && attempt < maxAttempts;
    }

    /**
     * Counts a retry and waits before the next attempt.
     *
     * @param attempt the failed attempt's number, from 1
     * @param operation what is being retried, for the message if the wait is interrupted
     * @throws SlottedException if interrupted; the interrupt flag is restored first
     */
    public void pauseAfter(int attempt, String operation) {
        onRetry.run();
        backoff.pause(attempt, operation);
    }

    /**
     * Counts a retry and waits before the next attempt for the whole time, even if interrupted;
     * the interrupt is kept for the caller. For flushes, which a thread writes for other callers.
     *
     * @param attempt the failed attempt's number, from 1
     */
    public void pauseThroughInterruptsAfter(int attempt) {
        onRetry.run();
        backoff.pauseThroughInterrupts(attempt);
    }
}
