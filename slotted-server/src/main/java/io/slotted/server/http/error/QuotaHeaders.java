package io.slotted.server.http.error;

import io.javalin.http.Context;
import io.slotted.Limits;
import io.slotted.QuotaExceededException;
import io.slotted.Window;
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

    /**
     * Sets the fields of an answer about one counter of a type with limits per window: the
     * quota, what remains of the window of {@code now}, and when it resets.
     *
     * @param ctx the answer
     * @param limits the type's limits, {@linkplain Limits#windowed() windowed}
     * @param count the counter's count in the window
     * @param now the time of the answer
     */
    public static void counted(Context ctx, Limits limits, long count, Instant now) {
        policy(ctx, limits, now);
        long remaining = Math.max(0, limits.max() - count);
        ctx.header("RateLimit", POLICY + ";r=" + remaining + ";t=" + secondsUntil(now, limits.window().endOf(now)));
    }

    /**
     * Sets the policy alone, for an answer about several counters of a type with limits per
     * window, whose remainders differ.
     *
     * @param ctx the answer
     * @param limits the type's limits, {@linkplain Limits#windowed() windowed}
     * @param now the time of the answer
     */
    public static void policy(Context ctx, Limits limits, Instant now) {
        Window window = limits.window();
        long seconds = Duration.between(window.startOf(now), window.endOf(now)).toSeconds();
        ctx.header("RateLimit-Policy", POLICY + ";q=" + limits.max() + ";w=" + seconds);
    }

    /** Whole seconds until an instant, rounded up, at least 1: a client that waits them finds it passed. */
    private static long secondsUntil(Instant now, Instant then) {
        long millis = Duration.between(now, then).toMillis();
        return Math.max(1, (millis + 999) / 1000);
    }
}
