package io.slotted.campaign.workload;

import io.slotted.ContentionException;
import io.slotted.CounterOverflowException;
import io.slotted.DatabaseUnavailableException;
import io.slotted.IdempotencyConflictException;
import io.slotted.LimitExceededException;
import io.slotted.OutcomeUnknownException;
import io.slotted.QueueFullException;
import io.slotted.SchemaException;
import io.slotted.SlottedException;
import io.slotted.TotalUnavailableException;
import io.slotted.campaign.history.Invocation;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * What an error tells the caller of a write, as the library's contract says: only
 * {@link OutcomeUnknownException} leaves the write open; every other {@link SlottedException}
 * says that nothing was applied, and the campaign holds the library to that (a write that failed
 * so and was counted all the same is an anomaly). An error the contract does not name is taken
 * as unknown, which can hide a bug but never invents one.
 */
final class Outcomes {
    private Outcomes() {
    }

    /** Ends a write's invocation with what {@code error} says of it. */
    static void endWrite(Invocation invocation, Throwable error) {
        Throwable cause = unwrap(error);
        if (cause instanceof TotalUnavailableException) {
            invocation.ok(); // applied; only the total after it could not be read
        } else if (cause instanceof OutcomeUnknownException) {
            invocation.unknown(cause);
        } else if (saysNothingApplied(cause)) {
            invocation.failed(cause);
        } else {
            invocation.unknown(cause);
        }
    }

    /** Ends a read's invocation that failed: a read changes nothing, so its failure is plain. */
    static void endRead(Invocation invocation, Throwable error) {
        invocation.failed(unwrap(error));
    }

    private static boolean saysNothingApplied(Throwable error) {
        return error instanceof LimitExceededException || error instanceof ContentionException
                || error instanceof DatabaseUnavailableException || error instanceof CounterOverflowException
                || error instanceof IdempotencyConflictException || error instanceof QueueFullException
                || error instanceof SchemaException || error instanceof IllegalStateException
                || error.getClass() == SlottedException.class;
    }

    private static Throwable unwrap(Throwable error) {
        Throwable cause = error;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }
}
