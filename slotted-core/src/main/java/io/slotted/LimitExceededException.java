package io.slotted;

/**
 * An increment was refused because it would have taken its counter's total outside the type's
 * {@link Limits}: nothing of it was applied, anywhere. Retrying the same increment is refused the
 * same way until the total moves (stock comes back, a quota is reset). A set to a count outside
 * the limits is refused the same way ({@link #refusedASet()}).
 */
public class LimitExceededException extends SlottedException {
    private final transient Limits limits;
    private final long total;
    private final long delta;
    private final boolean refusedASet;

    /**
     * Creates the exception.
     *
     * @param counter the counter, as messages name it
     * @param delta the refused amount
     * @param total the counter's total when the increment was refused
     * @param limits the type's limits
     */
    public LimitExceededException(String counter, long delta, long total, Limits limits) {
        this("limit exceeded: adding " + delta + " to counter " + counter + " would take its total " + total
                + " outside " + limits + "; nothing was applied", delta, total, limits, false);
    }

    /**
     * Creates the exception with its own message, for a subclass.
     *
     * @param message the message
     * @param delta the refused amount
     * @param total the count the increment was refused against
     * @param limits the type's limits
     * @param refusedASet whether a set was refused
     */
    protected LimitExceededException(String message, long delta, long total, Limits limits, boolean refusedASet) {
        super(message);
        this.limits = limits;
        this.total = total;
        this.delta = delta;
        this.refusedASet = refusedASet;
    }

    /**
     * The refusal of a set to a count outside the limits, or of any set of a counter whose type
     * has limits per window.
     *
     * @param counter the counter, as messages name it
     * @param count the refused count
     * @param limits the type's limits
     * @return the exception, whose {@link #total()} is the refused count and {@link #delta()} 0
     */
    public static LimitExceededException ofSet(String counter, long count, Limits limits) {
        if (limits.windowed()) {
            return new LimitExceededException("limit exceeded: cannot set counter " + counter + " to " + count
                    + ": its type has limits per window (" + limits + "), so its count is what increments added in"
                    + " the current window, which a set does not change; nothing was changed (a negative increment"
                    + " gives back to the window)", 0, count, limits, true);
        }
        return new LimitExceededException("limit exceeded: cannot set counter " + counter + " to " + count
                + ", outside its type's limits " + limits + "; nothing was changed", 0, count, limits, true);
    }

    /**
     * Whether a set was refused, rather than an increment.
     *
     * @return true for {@link #ofSet}
     */
    public boolean refusedASet() {
        return refusedASet;
    }

    /**
     * The type's limits.
     *
     * @return the limits that refused the increment
     */
    public Limits limits() {
        return limits;
    }

    /**
     * The counter's total when the increment was refused, read under the counter's lock.
     *
     * @return the total
     */
    public long total() {
        return total;
    }

    /**
     * The refused amount.
     *
     * @return the delta
     */
    public long delta() {
        return delta;
    }
}
