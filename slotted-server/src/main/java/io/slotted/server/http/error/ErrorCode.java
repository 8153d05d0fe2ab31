package io.slotted.server.http.error;

import io.javalin.http.HttpStatus;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * Every error code the HTTP service sends, each with its HTTP status: the one place where either
 * appears. A client switches on the code, which is the constant's name in lowercase
 * ({@code bad_delta}); the status only sorts the codes into the classes HTTP knows. The list is
 * part of the contract and is repeated in the module's README, which a test keeps in step.
 */
public enum ErrorCode {
    /** The body is not valid JSON. */
    MALFORMED_JSON(HttpStatus.BAD_REQUEST),
    /** The body is JSON of the wrong shape: not an object, an unknown field, a missing array. */
    BAD_BODY(HttpStatus.BAD_REQUEST),
    /** A delta that is not a non-zero JSON integer in the signed 64-bit range. */
    BAD_DELTA(HttpStatus.BAD_REQUEST),
    /** A count to set that is missing or not a JSON integer in the signed 64-bit range. */
    BAD_COUNT(HttpStatus.BAD_REQUEST),
    /**
     * An id that cannot be used: empty, over 512 bytes of UTF-8, holding NUL, or a number in the
     * range kept for string ids.
     */
    BAD_ID(HttpStatus.BAD_REQUEST),
    /** A read of several counters without ids. */
    BAD_IDS(HttpStatus.BAD_REQUEST),
    /**
     * A time window that cannot be read: {@code from} or {@code to} missing or unparseable,
     * {@code to} not after {@code from}, more buckets than one read may cover, or a start before
     * the oldest bucket kept.
     */
    BAD_RANGE(HttpStatus.BAD_REQUEST),
    /** A top-N size that is not an integer from 1 to 1000. */
    BAD_N(HttpStatus.BAD_REQUEST),
    /** A type that is neither a well-formed name nor a {@code record_type} number in range. */
    BAD_TYPE(HttpStatus.BAD_REQUEST),
    /** An expiry without a time or a time to live, with both, or with one that does not parse. */
    BAD_EXPIRY(HttpStatus.BAD_REQUEST),
    /** A read of more ids than one request may ask for. */
    TOO_MANY_IDS(HttpStatus.BAD_REQUEST),
    /** A batch of more increments than one request may hold. */
    TOO_MANY_INCREMENTS(HttpStatus.BAD_REQUEST),
    /** An {@code Idempotency-Key} header that breaks the library's rule for keys. */
    BAD_IDEMPOTENCY_KEY(HttpStatus.BAD_REQUEST),
    /** A body whose reading failed, such as one cut off by the client. */
    UNREADABLE_BODY(HttpStatus.BAD_REQUEST),
    /**
     * A request whose framing could be read two ways: a transfer coding other than plain
     * {@code chunked}, or {@code chunked} on HTTP/1.0.
     */
    BAD_TRANSFER_ENCODING(HttpStatus.BAD_REQUEST),
    /**
     * A request Jetty refused before the service saw it (bad URI syntax, a malformed request line),
     * and the fallback for any status Jetty or Javalin raise themselves that no other code has.
     */
    BAD_REQUEST(HttpStatus.BAD_REQUEST),
    /** No token, or one the server does not know. */
    UNAUTHORIZED(HttpStatus.UNAUTHORIZED),
    /** A known token without the scope the endpoint needs. */
    FORBIDDEN(HttpStatus.FORBIDDEN),
    /** No endpoint at that path. */
    NOT_FOUND(HttpStatus.NOT_FOUND),
    /**
     * A well-formed type name that a time bucket read cannot use: buckets are kept for types given
     * a number with {@code --types}, not for names created on first use.
     */
    UNKNOWN_TYPE(HttpStatus.NOT_FOUND),
    /** A time bucket read of a type that keeps no buckets. */
    NO_BUCKETS(HttpStatus.NOT_FOUND),
    /** An expiry given to a counter that reads 0: there is nothing to expire. */
    COUNTER_ABSENT(HttpStatus.NOT_FOUND),
    /** An endpoint that does not take that method. */
    METHOD_NOT_ALLOWED(HttpStatus.METHOD_NOT_ALLOWED),
    /** An {@code Idempotency-Key} used before for a different request. */
    IDEMPOTENCY_CONFLICT(HttpStatus.CONFLICT),
    /**
     * An increment the type's limits refuse: it would take the counter's total outside them.
     * Nothing was applied.
     */
    LIMIT_EXCEEDED(HttpStatus.CONFLICT),
    /** An expiry given to, or taken from, a counter of a type not served with {@code --expiring}. */
    NOT_EXPIRING(HttpStatus.CONFLICT),
    /** A body that did not arrive in full within the body deadline. */
    BODY_TIMEOUT(HttpStatus.REQUEST_TIMEOUT),
    /** A body over the size limit. */
    BODY_TOO_LARGE(HttpStatus.CONTENT_TOO_LARGE),
    /** A URI too long for Jetty to take. */
    URI_TOO_LONG(HttpStatus.URI_TOO_LONG),
    /** A body not declared as {@code application/json}, or declared in a charset other than UTF-8. */
    UNSUPPORTED_MEDIA_TYPE(HttpStatus.UNSUPPORTED_MEDIA_TYPE),
    /**
     * An increment that would take a counter out of the signed 64-bit range, or a count to set that
     * the owner column of its type cannot hold.
     */
    OVERFLOW(HttpStatus.UNPROCESSABLE_CONTENT),
    /**
     * A new type name or string id refused by the bounds on new names (new ids per second, type
     * names in all); nothing was recorded or counted, and names already recorded are still served.
     */
    NAME_LIMIT(HttpStatus.TOO_MANY_REQUESTS),
    /**
     * A token not checked, because too many wrong ones came from the caller's address lately; the
     * {@code Retry-After} header says when to try again.
     */
    AUTH_HELD_BACK(HttpStatus.TOO_MANY_REQUESTS),
    /**
     * An increment of a type with limits per window that its window has no room for; nothing was
     * applied. The {@code Retry-After} header says when the window resets.
     */
    QUOTA_EXCEEDED(HttpStatus.TOO_MANY_REQUESTS),
    /** Headers too large for Jetty to take. */
    HEADERS_TOO_LARGE(HttpStatus.REQUEST_HEADER_FIELDS_TOO_LARGE),
    /** A failure of the server's own, logged with its stack trace. */
    INTERNAL_ERROR(HttpStatus.INTERNAL_SERVER_ERROR),
    /** The database cannot be reached; nothing was applied. */
    DATABASE_UNAVAILABLE(HttpStatus.SERVICE_UNAVAILABLE),
    /** The connection was lost during a commit; retrying with the same key is safe. */
    OUTCOME_UNKNOWN(HttpStatus.SERVICE_UNAVAILABLE),
    /** The write queue is full; nothing was applied. */
    QUEUE_FULL(HttpStatus.SERVICE_UNAVAILABLE),
    /** Lock conflicts outlasted every retry; nothing was applied. */
    CONTENTION(HttpStatus.SERVICE_UNAVAILABLE),
    /** The database refused the work; nothing was applied. */
    DATABASE_ERROR(HttpStatus.SERVICE_UNAVAILABLE),
    /** The work did not finish within the request deadline and was given up; nothing was applied. */
    TIMEOUT(HttpStatus.SERVICE_UNAVAILABLE),
    /** Every worker is busy and the queue for them is full, or bodies fill their memory; nothing was applied. */
    OVERLOADED(HttpStatus.SERVICE_UNAVAILABLE),
    /** Jetty refused the request because the server is stopping. */
    SERVICE_UNAVAILABLE(HttpStatus.SERVICE_UNAVAILABLE);

    /**
     * The codes for the errors Jetty and Javalin raise themselves, which come with a status only;
     * at most one per status.
     */
    private static final Set<ErrorCode> FOR_A_BARE_STATUS = EnumSet.of(BAD_REQUEST, NOT_FOUND,
            METHOD_NOT_ALLOWED, BODY_TOO_LARGE, URI_TOO_LONG, HEADERS_TOO_LARGE, INTERNAL_ERROR,
            SERVICE_UNAVAILABLE);

    private final HttpStatus status;

    ErrorCode(HttpStatus status) {
        this.status = status;
    }

    /**
     * The code for an error that Jetty or Javalin raised with only a status.
     *
     * @param status the status they chose
     * @return the code for that status, or {@link #BAD_REQUEST} when there is none
     */
    public static ErrorCode forBareStatus(int status) {
        return FOR_A_BARE_STATUS.stream().filter(code -> code.status() == status).findFirst()
                .orElse(BAD_REQUEST);
    }

    /**
     * The code as clients see it.
     *
     * @return the constant's name in lowercase, such as {@code bad_delta}
     */
    public String code() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * The HTTP status this code is sent with.
     *
     * @return the status code, such as 400
     */
    public int status() {
        return status.getCode();
    }

    /**
     * Whether the server is at fault rather than the request, which decides how loudly it is
     * logged.
     *
     * @return true for a 5xx status
     */
    public boolean serverFault() {
        return status.getCode() >= HttpStatus.INTERNAL_SERVER_ERROR.getCode();
    }
}
