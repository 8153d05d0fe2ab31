package io.slotted;

import java.time.Instant;

/**
 * An increment was refused because it would have taken its counter's count within one window
 * outside the type's {@link Limits#per(Window) limits per window}: the quota of that window is
 * used up. Nothing of it was applied, anywhere. The same increment is refused until the window
 * ends ({@link #resetsAt()}) or a refund makes room in it.
 */
public final class QuotaExceededException extends LimitExceededException {
    private final Instant windowStart;
    private final Instant resetsAt;

    /**
     * Creates the exception.
     *
     * @param counter the counter, as messages name it
     * @param delta the refused amount
     * @param count the counter's count in the window when the increment was refused
     * @param limits the type's limits
     * @param windowStart when the window began
     * @param resetsAt when the window ends and the next counts from 0
     */
    public QuotaExceededException(String counter, long delta, long count, Limits limits, Instant windowStart,
            Instant resetsAt) {
        super("quota exceeded: adding " + delta + " to counter " + counter + " would take its count " + count
                + " in the window from " + windowStart + " to " + resetsAt + " outside " + limits
                + "; nothing was applied; the window resets at " + resetsAt, delta, count, limits, false);
        this.windowStart = windowStart;
        this.resetsAt = resetsAt;
    }

    /**
     * When the window the increment was refused in began.
     *
     * @return the window's start
     */
    public Instant windowStart() {
        return windowStart;
    }

    /**
     * When the window ends: from then on the counter counts from 0 in the next one.
     *
     * @return the window's end
     */
    public Instant resetsAt() {
        return resetsAt;
    }
}
