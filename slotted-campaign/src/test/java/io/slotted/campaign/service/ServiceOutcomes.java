package io.slotted.campaign.service;

import io.slotted.campaign.history.Invocation;
import io.slotted.campaign.history.Outcome;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.util.Set;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * What each answer of the service tells the caller of an operation, as docs/api.md says it; the
 * campaign holds the service to it, so an answer that says "nothing applied" of a write that was
 * counted all the same is an anomaly.
 *
 * <ul>
 *   <li><b>HTTP.</b> 2xx: applied. "A bad request never changes a count": every 4xx says nothing
 *       was applied ({@code limit_exceeded}: "nothing applied"). 503 "the increment was not
 *       applied, or … {@code outcome_unknown}": every 503 code but {@code outcome_unknown} says
 *       nothing was applied. {@code outcome_unknown}, and {@code internal_error} (500, whose
 *       message asks for a retry with the same key), leave it open; so does any other status.</li>
 *   <li><b>Redis protocol.</b> "Every answer whose write may or may not have been applied begins
 *       {@code -ERR outcome unknown:}": every other error says nothing was applied (limits,
 *       {@code -ERR timeout: …}, overflow, the database down, the server stopping,
 *       {@code EXECABORT}, a read's "the server failed unexpectedly … nothing was written"), but
 *       one: "the increment was applied, but the total could not be read" says it was applied.</li>
 *   <li><b>The connection.</b> A request that could not connect was never sent: nothing applied.
 *       A connection lost after the request was written leaves a write open. A client that gave
 *       up waiting, long past the service's own deadline, leaves the operation unanswered, which
 *       the checker reports as a stall: the service promises an answer within
 *       {@code --request-timeout}.</li>
 * </ul>
 *
 * A read changes nothing, so its failure is plain.
 */
final class ServiceOutcomes {
    /** How every Redis answer begins whose write may or may not have been applied. */
    static final String RESP_OUTCOME_UNKNOWN = "ERR outcome unknown";
    /** How the Redis answer begins of an increment applied whose total could not be read after it. */
    static final String RESP_APPLIED_UNREAD = "ERR the increment was applied";
    /** The HTTP codes whose write may or may not have been applied. */
    private static final Set<String> HTTP_MAYBE_APPLIED = Set.of("outcome_unknown", "internal_error");
    private static final int SERVICE_UNAVAILABLE = 503;

    private ServiceOutcomes() {
    }

    /** Ends a write's invocation with what {@code error} says of it; one the client gave up on stays open. */
    static void endWrite(Invocation invocation, Throwable error) {
        if (gaveUpWaiting(error)) {
            return;
        }
        switch (ofWriteFailure(error)) {
            case OK -> invocation.ok();
            case FAILED -> invocation.failed(error);
            case UNKNOWN -> invocation.unknown(error);
        }
    }

    /** Ends a read's invocation that failed: a read changes nothing; one the client gave up on stays open. */
    static void endRead(Invocation invocation, Throwable error) {
        if (!gaveUpWaiting(error)) {
            invocation.failed(error);
        }
    }

    /** What a write that ended with {@code error} did. */
    static Outcome ofWriteFailure(Throwable error) {
        if (error instanceof HttpErrorAnswer answer) {
            return ofHttpError(answer.status(), answer.code());
        }
        if (error instanceof JedisDataException answer) {
            return ofRespError(String.valueOf(answer.getMessage()));
        }
        return neverSent(error) ? Outcome.FAILED : Outcome.UNKNOWN;
    }

    /** What an HTTP error answer says of its write. */
    static Outcome ofHttpError(int status, String code) {
        if (code == null || HTTP_MAYBE_APPLIED.contains(code)) {
            return Outcome.UNKNOWN;
        }
        return status >= 400 && status < 500 || status == SERVICE_UNAVAILABLE ? Outcome.FAILED : Outcome.UNKNOWN;
    }

    /** What a Redis error answer says of its write. */
    static Outcome ofRespError(String message) {
        if (message.startsWith(RESP_APPLIED_UNREAD)) {
            return Outcome.OK;
        }
        if (message.startsWith(RESP_OUTCOME_UNKNOWN)) {
            return Outcome.UNKNOWN;
        }
        return Outcome.FAILED;
    }

    /** Whether the request never left the client: no connection could be opened. */
    static boolean neverSent(Throwable error) {
        return error instanceof NeverSentException || error instanceof ConnectException
                || error instanceof HttpConnectTimeoutException;
    }

    /** Whether the client stopped waiting for an answer, rather than hearing of a failure. */
    static boolean gaveUpWaiting(Throwable error) {
        if (error instanceof HttpConnectTimeoutException) {
            return false;
        }
        return error instanceof HttpTimeoutException || error instanceof InterruptedException
                || error instanceof JedisConnectionException && error.getCause() instanceof SocketTimeoutException;
    }
}
