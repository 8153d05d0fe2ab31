package io.slotted;

/**
 * The bounds a counter type's totals are kept within: stock that never goes below 0, a quota
 * never above its allowance. An increment that would take a counter's total outside is refused
 * and counts nowhere ({@link LimitExceededException}, or false from {@link SlottedCounters#tryAdd});
 * every other increment is applied. The bounds are recorded in the database, so every process
 * writing the type enforces the same ones.
 *
 * @param min the smallest total allowed, {@link Long#MIN_VALUE} for no lower bound
 * @param max the largest total allowed, {@link Long#MAX_VALUE} for no upper bound
 */
public record Limits(long min, long max) {
    /** No bounds at all: what a type without limits has. */
    public static final Limits NONE = new Limits(Long.MIN_VALUE, Long.MAX_VALUE);

    /**
     * Checks the bounds.
     *
     * @throws IllegalArgumentException if {@code min > max}
     */
    public Limits {
        if (min > max) {
            throw new IllegalArgumentException("the lower bound " + min + " is above the upper bound " + max);
        }
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
     * Reads limits written as {@code MIN..MAX}, either end left out for no bound: {@code 0..},
     * {@code ..1000}, {@code 0..1000}; as {@link #toString()} writes them.
     *
     * @param text the limits
     * @return the limits
     * @throws IllegalArgumentException if the text is not of that form, or {@code MIN > MAX}
     */
    public static Limits parse(String text) {
        int dots = text.indexOf("..");
        if (dots < 0 || (dots == 0 && text.length() == 2)) {
            throw new IllegalArgumentException("limits must be MIN..MAX with at least one end, such as 0.. or"
                    + " ..1000 or 0..1000, but were '" + text + "'");
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

    /** As {@link #parse} reads them: {@code 0..}, {@code ..1000}, {@code 0..1000}. */
    @Override
    public String toString() {
        return (min == Long.MIN_VALUE ? "" : Long.toString(min)) + ".." + (max == Long.MAX_VALUE ? "" : Long.toString(max));
    }
}
