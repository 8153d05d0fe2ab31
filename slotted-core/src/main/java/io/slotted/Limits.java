package io.slotted;

import java.util.Objects;

/**
 * The bounds a counter type's totals are kept within: stock that never goes below 0, a quota
 * never above its allowance. An increment that would take a counter's total outside is refused
 * and counts nowhere ({@link LimitExceededException}, or false from {@link SlottedCounters#tryAdd});
 * every other increment is applied. The bounds are recorded in the database, so every process
 * writing the type enforces the same ones.
 *
 * <p>Limits {@link #per(Window) per window} bound what each counter adds within each window
 * instead of its total: at most 10,000 API calls per customer per month,
 * {@code Limits.atMost(10_000).per(Window.MONTH)}. A window's count starts at 0 and never goes
 * below it, so a windowed lower bound is 0 unless a higher one is given.
 *
 * @param min the smallest total allowed, {@link Long#MIN_VALUE} for no lower bound
 * @param max the largest total allowed, {@link Long#MAX_VALUE} for no upper bound
 * @param window the window the bounds apply in, or null for the whole total
 */
public record Limits(long min, long max, Window window) {
    /** No bounds at all: what a type without limits has. */
    public static final Limits NONE = new Limits(Long.MIN_VALUE, Long.MAX_VALUE);

    /**
     * Checks the bounds.
     *
     * @throws IllegalArgumentException if {@code min > max}, or a windowed lower bound is below 0
     */
    public Limits {
        if (min > max) {
            throw new IllegalArgumentException("the lower bound " + min + " is above the upper bound " + max);
        }
        if (window != null && min < 0) {
            throw new IllegalArgumentException("a window counts from 0 and never below it: its lower bound must be 0"
                    + " or more, but was " + min);
        }
    }

    /**
     * Bounds on the whole total.
     *
     * @param min the smallest total allowed, {@link Long#MIN_VALUE} for no lower bound
     * @param max the largest total allowed, {@link Long#MAX_VALUE} for no upper bound
     * @throws IllegalArgumentException if {@code min > max}
     */
    public Limits(long min, long max) {
        this(min, max, null);
    }

    /**
     * The same bounds applied to what each counter adds within each window, from 0 at each
     * window's start: a quota or a rate limit. No lower bound given means 0.
     *
     * @param window the windows, such as {@link Window#HOUR}
     * @return the windowed limits
     * @throws IllegalArgumentException if a bound is below 0, or these limits are already
     *     windowed
     */
    public Limits per(Window window) {
        Objects.requireNonNull(window, "window must not be null");
        if (this.window != null) {
            throw new IllegalArgumentException("the limits " + this + " are already per window");
        }
        return new Limits(min == Long.MIN_VALUE ? 0 : min, max, window);
    }

    /**
     * Whether the limits apply per window.
     *
     * @return true if they bound each window's count rather than the total
     */
    public boolean windowed() {
        return window != null;
    }

    /**
     * A lower bound only, such as stock: {@code atLeast(0)}.
     *
     * @param min the smallest total allowed
     * @return the limits
     */
    public static Limits atLeast(long min) {
        return new Limits(min, Long.MAX_VALUE);
    }

    /**
     * An upper bound only, such as a quota: {@code atMost(1000)}.
     *
     * @param max the largest total allowed
     * @return the limits
     */
    public static Limits atMost(long max) {
        return new Limits(Long.MIN_VALUE, max);
    }

    /**
     * Both bounds.
     *
     * @param min the smallest total allowed
     * @param max the largest total allowed
     * @return the limits
     * @throws IllegalArgumentException if {@code min > max}
     */
    public static Limits between(long min, long max) {
        return new Limits(min, max);
    }

    /**
     * Reads limits written as {@code MIN..MAX}, either end left out for no bound, and
     * {@code /WINDOW} after them for limits per window ({@link Window#parse}): {@code 0..},
     * {@code ..1000}, {@code 0..1000}, {@code ..10000/month}, {@code ..5/hour@Europe/Paris}; as
     * {@link #toString()} writes them.
     *
     * @param text the limits
     * @return the limits
     * @throws IllegalArgumentException if the text is not of that form, or {@code MIN > MAX}
     */
    public static Limits parse(String text) {
        int slash = text.indexOf('/');
        if (slash >= 0) {
            return parse(text.substring(0, slash)).per(Window.parse(text.substring(slash + 1)));
        }
        int dots = text.indexOf("..");
        if (dots < 0 || (dots == 0 && text.length() == 2)) {
            throw new IllegalArgumentException("limits must be MIN..MAX with at least one end, such as 0.. or"
                    + " ..1000 or 0..1000, and /WINDOW for a quota per window, such as ..1000/hour, but were '"
                    + text + "'");
        }
        try {
            String min = text.substring(0, dots);
            String max = text.substring(dots + 2);
            return new Limits(min.isEmpty() ? Long.MIN_VALUE : Long.parseLong(min),
                    max.isEmpty() ? Long.MAX_VALUE : Long.parseLong(max));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("limits must be MIN..MAX of whole numbers, such as 0..1000,"
                    + " but were '" + text + "'");
        }
    }

    /**
     * Whether a total is within the bounds.
     *
     * @param total the total
     * @return true if {@code min <= total <= max}
     */
    public boolean allow(long total) {
        return total >= min && total <= max;
    }

    /**
     * Whether adding {@code delta} to {@code total} keeps it within the bounds, without overflow.
     *
     * @param total the total now
     * @param delta the amount to add
     * @return true if the sum is a {@code long} within the bounds
     */
    public boolean allowAdding(long total, long delta) {
        long sum = total + delta;
        boolean overflowed = ((total ^ sum) & (delta ^ sum)) < 0;
        return !overflowed && allow(sum);
    }

    /**
     * Whether there is a bound at all.
     *
     * @return false only for {@link #NONE}
     */
    public boolean bounded() {
        return min != Long.MIN_VALUE || max != Long.MAX_VALUE;
    }

    /** As {@link #parse} reads them: {@code 0..}, {@code ..1000}, {@code 0..1000}, {@code 0..1000/hour}. */
    @Override
    public String toString() {
        return (min == Long.MIN_VALUE ? "" : Long.toString(min)) + ".." + (max == Long.MAX_VALUE ? "" : Long.toString(max))
                + (window == null ? "" : "/" + window);
    }
}
