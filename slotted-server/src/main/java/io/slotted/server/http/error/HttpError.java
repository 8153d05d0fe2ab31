package io.slotted.server.http.error;

import io.slotted.ContentionException;
import io.slotted.CounterOverflowException;
import io.slotted.DatabaseUnavailableException;
import io.slotted.IdempotencyConflictException;
import io.slotted.LimitExceededException;
import io.slotted.QuotaExceededException;
import io.slotted.NameLimitException;
import io.slotted.OutcomeUnknownException;
import io.slotted.QueueFullException;
import io.slotted.SlottedCounters;
import io.slotted.SlottedException;
import io.slotted.server.config.UnknownTypeException;
import io.slotted.server.store.FailureMessage;
import java.util.concurrent.CompletionException;

/**
 * A request that ends in an error response: an {@link ErrorCode} (which carries the status) and a
 * message that tells a person what to fix. Handlers throw it; {@link ErrorMapping} answers it as
 * {@code {"error": {"code": …, "message": …}}}.
 */
public final class HttpError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final ErrorCode code;

    /**
     * Creates an error response.
     *
     * @param code what went wrong, for clients to switch on
     * @param message what went wrong and what to do about it
     */
    public HttpError(ErrorCode code, String message) {
        super(message);
        this.code = code;
    }

    /**
     * Creates an error response for a failure that has a cause worth logging.
     *
     * @param code what went wrong, for clients to switch on
     * @param message what went wrong and what to do about it
     * @param cause the failure behind it
     */
    public HttpError(ErrorCode code, String message, Throwable cause) {
        super(message, cause);
        this.code = code;
    }

    /**
     * The answer to a type the configured names refused: {@link ErrorCode#UNKNOWN_TYPE} for a
     * well-formed name that is not configured, {@link ErrorCode#BAD_TYPE} for anything else.
     *
     * @param e what {@link io.slotted.server.config.TypeNames#resolve} threw
     * @param where how to name the type in the message, such as {@code increments[2].type: }, or
     *     empty
     * @return the error
     */
    public static HttpError ofType(IllegalArgumentException e, String where) {
        boolean unknown = e instanceof UnknownTypeException;
        return new HttpError(unknown ? ErrorCode.UNKNOWN_TYPE : ErrorCode.BAD_TYPE,
                where + e.getMessage(), e);
    }

    /**
     * The response for a failure the library reported. Every one of them but
     * {@link OutcomeUnknownException} guarantees that nothing was applied, and the message says so,
     * because that is what a client needs to know before it retries.
     *
     * @param e what the library threw
     * @return the error to answer with
     */
    public static HttpError of(SlottedException e) {
        if (e instanceof CounterOverflowException) {
            return new HttpError(ErrorCode.OVERFLOW, e.getMessage()
                    + "; nothing was applied: each slot row of a counter holds at most "
                    + SlottedCounters.MAX_DELTA + " either way, which keeps every total within the"
                    + " signed 64-bit range; a subtraction always brings a counter back", e);
        }
        if (e instanceof QuotaExceededException refused) {
            return new HttpError(ErrorCode.QUOTA_EXCEEDED, FailureMessage.ofRefusal(refused), e);
        }
        if (e instanceof LimitExceededException refused) {
            return new HttpError(ErrorCode.LIMIT_EXCEEDED, FailureMessage.ofRefusal(refused), e);
        }
        if (e instanceof NameLimitException) {
            return new HttpError(ErrorCode.NAME_LIMIT, e.getMessage(), e);
        }
        if (e instanceof IdempotencyConflictException) {
            return new HttpError(ErrorCode.IDEMPOTENCY_CONFLICT, "this Idempotency-Key was already"
                    + " used for a different request; nothing was applied: send a new key for a new"
                    + " request, or the original body to retry the original one", e);
        }
        if (e instanceof OutcomeUnknownException) {
            return new HttpError(ErrorCode.OUTCOME_UNKNOWN, "the database connection was lost while"
                    + " committing and the outcome is unknown: retry with the same Idempotency-Key,"
                    + " which applies the increment at most once", e);
        }
        if (e instanceof QueueFullException) {
            return new HttpError(ErrorCode.QUEUE_FULL, "the write queue is full, so the increment"
                    + " was not applied: the database is slower than the load or down; retry"
                    + " later", e);
        }
        if (e instanceof ContentionException) {
            return new HttpError(ErrorCode.CONTENTION, "lock conflicts outlasted every retry, so"
                    + " the increment was not applied; retry later", e);
        }
        if (e instanceof DatabaseUnavailableException) {
            return new HttpError(ErrorCode.DATABASE_UNAVAILABLE, "no database connection could be"
                    + " had in time — the database is down, or every connection stayed busy (for"
                    + " example waiting on a lock) — so nothing was applied; retry later", e);
        }
        return new HttpError(ErrorCode.DATABASE_ERROR, "the database refused the work, so nothing"
                + " was applied; the server log says why", e);
    }

    /**
     * What a future failed with: the failure itself, not the {@link CompletionException} that
     * a dependent stage wraps it in.
     *
     * @param failure what a future completed with
     * @return its cause if it is a wrapper, else itself
     */
    public static Throwable unwrap(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
    }

    /**
     * What went wrong, with its status.
     *
     * @return the code
     */
    public ErrorCode code() {
        return code;
    }

    /**
     * The body to answer with.
     *
     * @return {@code {"error": {"code": …, "message": …}}}
     */
    public ErrorResponse body() {
        return ErrorResponse.of(code.code(), getMessage());
    }
}
