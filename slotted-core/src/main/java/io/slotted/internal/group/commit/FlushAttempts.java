package io.slotted.internal.group.commit;

import io.slotted.OutcomeUnknownException;
import io.slotted.SlottedConfig;
import io.slotted.SlottedException;
import io.slotted.Ticker;
import io.slotted.internal.dialect.Failure;
import io.slotted.internal.jdbc.FailureReport;
import io.slotted.internal.jdbc.RetryPolicy;
import io.slotted.internal.sql.TableName;
import io.slotted.internal.write.StatsRecorder;
import java.sql.SQLException;
import java.time.Duration;

/**
 * Tries one flush until it commits, and tells each attempt whether an earlier one may already
 * have committed it.
 *
 * <p>An attempt that failed before it sent what commits it — the one-statement flush's statement,
 * or the ledger transaction's COMMIT — left nothing behind: the server rolls back a transaction
 * whose connection is gone, and a refused statement applied nothing. It is tried again within the
 * retry policy's attempts, and the next attempt may write the flush as the first did.
 *
 * <p>A connection lost once that was sent leaves the outcome unknown: the flush may be in the
 * database. From then on every attempt is told so, and must learn from the flusher's mark and the
 * ledger whether the flush landed before it writes it again ({@code LedgerFlush.resolve}). The
 * flag never goes back: a later attempt that fails before its own COMMIT leaves the lost one as
 * unknown as it was. Such a flush is tried until an attempt learns the outcome or the resolution
 * time runs out, however many attempts that takes: giving up earlier would leave callers not
 * knowing what could still be learned. The flush keeps its sequence number through all of this,
 * since the mark and the ledger know it by that number.
 *
 * <p>The waits between attempts last their whole time even if the writing thread is interrupted:
 * that thread writes for other callers too (a caller leading a flush), and its interrupt must not
 * fail them, least of all once the outcome is unknown.
 */
public final class FlushAttempts {
    /** One attempt at a flush, told whether an earlier attempt may have committed it. */
    @FunctionalInterface
    public interface Try<T> {
        Attempt<T> run(boolean outcomeUnknown);
    }

    private final TableName table;
    private final RetryPolicy retryPolicy;
    private final Duration resolutionTimeout;
    private final Ticker ticker;
    private final StatsRecorder stats;

    public FlushAttempts(TableName table, SlottedConfig config, StatsRecorder stats) {
        this.table = table;
        this.retryPolicy = RetryPolicy.forFlushes(config, stats::retried);
        this.resolutionTimeout = config.outcomeResolutionTimeout();
        this.ticker = config.ticker();
        this.stats = stats;
    }

    /**
     * Runs attempts until one commits or no other may run.
     *
     * @param operation what the flush does, for messages
     * @param attempt one attempt
     * @return what the committed attempt wrote
     * @throws OutcomeUnknownException if a COMMIT was cut off and the outcome could not be learned
     *     in time
     * @throws Overflow if a slot row would leave its range: the flush must be split
     * @throws SlottedException for any other failure that is not retried, or no longer
     */
    public <T> T untilCommitted(String operation, Try<T> attempt) {
        long resolveBy = 0;
        boolean outcomeUnknown = false;
        for (int number = 1; ; number++) {
            Attempt<T> result = attempt.run(outcomeUnknown);
            if (result.failure() == null) {
                return result.written();
            }
            Failure kind = result.kind();
            if (result.commitSent() && kind == Failure.CONNECTION && !outcomeUnknown) {
                outcomeUnknown = true;
                resolveBy = ticker.read() + resolutionTimeout.toNanos();
                stats.outcomeUnknown();
            }
            boolean again = outcomeUnknown
                    ? retryPolicy.retries(kind) && ticker.read() - resolveBy < 0
                    : retryPolicy.allowsAnother(number, kind);
            if (!again) {
                throw reportFor(operation, kind, result.failure(), number, outcomeUnknown);
            }
            retryPolicy.pauseThroughInterruptsAfter(number);
        }
    }

    private SlottedException reportFor(String operation, Failure kind, SQLException failure,
            int attempts, boolean outcomeUnknown) {
        if (outcomeUnknown && kind == Failure.CONNECTION) {
            return new OutcomeUnknownException(operation + " in table " + table
                    + ": the connection was lost during COMMIT and the outcome could not be learned"
                    + " within " + resolutionTimeout.toMillis() + "ms (" + attempts
                    + " attempts); the increments may or may not have been applied", failure);
        }
        if (outcomeUnknown && kind != Failure.OVERFLOW) {
            // Whatever ended the resolution, the lost COMMIT may have landed: a plain failure
            // would tell the caller nothing was applied, and a retry without a key would count twice.
            return new OutcomeUnknownException(operation + " in table " + table
                    + ": the connection was lost during COMMIT, and learning the outcome then failed after "
                    + attempts + " attempts " + FailureReport.describe(failure)
                    + "; the increments may or may not have been applied", failure);
        }
        SlottedException reported = FailureReport.of(operation, table, kind, failure, attempts, false);
        if (kind == Failure.OVERFLOW) {
            throw new Overflow(reported, outcomeUnknown);
        }
        return reported;
    }

    /**
     * What one attempt did: committed and wrote {@code written}, or failed with {@code failure},
     * which the dialect classified as {@code kind}, before or after it sent what commits it.
     */
    public record Attempt<T>(T written, SQLException failure, Failure kind, boolean commitSent) {
        public static <T> Attempt<T> committed(T written) {
            return new Attempt<>(written, null, null, false);
        }

        public static <T> Attempt<T> failed(SQLException failure, Failure kind, boolean commitSent) {
            return new Attempt<>(null, failure, kind, commitSent);
        }
    }

    /**
     * Whether an attempt has sent what commits it. Until then a failure leaves nothing behind; after,
     * a lost connection leaves the outcome unknown. Each commit protocol says where that point is.
     */
    public static final class CommitPoint {
        private boolean passed;

        /** Called right before the statement or COMMIT that commits the attempt is sent. */
        public void pass() {
            passed = true;
        }

        public boolean passed() {
            return passed;
        }
    }

    /** A slot would overflow: the flush must be split so that other counters still land. */
    public static final class Overflow extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final transient SlottedException reported;
        private final boolean afterLostCommit;

        Overflow(SlottedException reported, boolean afterLostCommit) {
            super(null, null, false, false);
            this.reported = reported;
            this.afterLostCommit = afterLostCommit;
        }

        /**
         * Whether the attempt that overflowed was resolving a lost COMMIT, whose statement may
         * still be on its way to the server.
         */
        public boolean afterLostCommit() {
            return afterLostCommit;
        }

        /** What a caller whose increment alone overflows is told. */
        public SlottedException reported() {
            return reported;
        }
    }
}
