package io.slotted.server;

import io.slotted.ContentionException;
import io.slotted.CounterOverflowException;
import io.slotted.DatabaseUnavailableException;
import io.slotted.IdempotencyConflictException;
import io.slotted.OutcomeUnknownException;
import io.slotted.QueueFullException;
import io.slotted.SlottedException;

/**
 * A request that ends in an error response: an HTTP status, a stable machine-readable code and a
 * message that tells a person what to fix. Handlers throw it; the service turns it into
 * {@code {"error": {"code": …, "message": …}}}.
 */
public final class ApiError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int status;
    private final String code;

    /**
     * Creates an error response.
     *
     * @param status the HTTP status
     * @param code a short lowercase code clients can switch on, such as {@code bad_delta}
     * @param message what went wrong and what to do about it
     */
    public ApiError(int status, String code, String message) {
        super(message);
        this.status = status;
        this.code = code;
    }

    private ApiError(int status, String code, String message, Throwable cause) {
        super(message, cause);
        this.status = status;
        this.code = code;
    }

    /**
     * A 400 Bad Request.
     *
     * @param code what was wrong, such as {@code bad_id}
     * @param message what to fix
     * @return the error
     */
    public static ApiError badRequest(String code, String message) {
        return new ApiError(400, code, message);
    }

    /**
     * The response for a failure the library reported. Every one of them but
     * {@link OutcomeUnknownException} guarantees that nothing was applied, and the message says so,
     * because that is what a client needs to know before it retries.
     *
     * @param e what the library threw
     * @return the error to answer with
     */
    public static ApiError from(SlottedException e) {
        if (e instanceof CounterOverflowException) {
            return new ApiError(422, "overflow", e.getMessage()
                    + "; nothing was applied: a counter's total and each of its slots must stay"
                    + " within the signed 64-bit range", e);
        }
        if (e instanceof IdempotencyConflictException) {
            return new ApiError(409, "idempotency_conflict", "this Idempotency-Key was already used"
                    + " for a different request; nothing was applied: send a new key for a new"
                    + " request, or the original body to retry the original one", e);
        }
        if (e instanceof OutcomeUnknownException) {
            return new ApiError(503, "outcome_unknown", "the database connection was lost while"
                    + " committing and the outcome is unknown: retry with the same Idempotency-Key,"
                    + " which applies the increment at most once", e);
        }
        if (e instanceof QueueFullException) {
            return new ApiError(503, "queue_full", "the write queue is full, so the increment was"
                    + " not applied: the database is slower than the load or down; retry later", e);
        }
        if (e instanceof ContentionException) {
            return new ApiError(503, "contention", "lock conflicts outlasted every retry, so the"
                    + " increment was not applied; retry later", e);
        }
        if (e instanceof DatabaseUnavailableException) {
            return new ApiError(503, "database_unavailable", "the database cannot be reached, so"
                    + " nothing was applied; retry later", e);
        }
        return new ApiError(503, "database_error", "the database refused the work, so nothing was"
                + " applied; the server log says why", e);
    }

    /**
     * The HTTP status.
     *
     * @return the status code
     */
    public int status() {
        return status;
    }

    /**
     * The machine-readable code.
     *
     * @return the code, such as {@code bad_delta}
     */
    public String code() {
        return code;
    }
}
