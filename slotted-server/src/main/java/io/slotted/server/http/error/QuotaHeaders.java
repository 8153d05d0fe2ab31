package io.slotted.server.http.error;

import io.javalin.http.Context;
import io.slotted.QuotaExceededException;
import java.time.Duration;
import java.time.Instant;

/**
 * The header fields of an answer about a type with limits per window, as the IETF draft "RateLimit
 * header fields for HTTP" (httpapi working group) writes them: {@code RateLimit-Policy} names the
 * quota ({@code q}, what one window allows) and its window ({@code w}, in seconds), {@code RateLimit}
 * what remains of it ({@code r}) and the seconds until the window resets ({@code t}). A refusal adds
 * {@code Retry-After}, the same seconds, which every HTTP client knows.
 */
public final class QuotaHeaders {
    /** The policy's name in both fields. */
    private static final String POLICY = "\"quota\"";

    private QuotaHeaders() {
    }

    /**
     * Sets the fields of a refusal: nothing remains of the window.
     *
     * @param ctx the answer
     * @param refused what the library refused
     * @param now the time of the answer
     */
    public static void refused(Context ctx, QuotaExceededException refused, Instant now) {
        long reset = secondsUntil(now, refused.resetsAt());
        long window = Duration.between(refused.windowStart(), refused.resetsAt()).toSeconds();
        ctx.header("RateLimit-Policy", POLICY + ";q=" + refused.limits().max() + ";w=" + window);
        ctx.header("RateLimit", POLICY + ";r=0;t=" + reset);
        ctx.header("Retry-After", Long.toString(reset));
    }

    /** Whole seconds until an instant, rounded up, at least 1: a client that waits them finds it passed. */
    private static long secondsUntil(Instant now, Instant then) {
        long millis = Duration.between(now, then).toMillis();
        return Math.max(1, (millis + 999) / 1000);
    }
}
