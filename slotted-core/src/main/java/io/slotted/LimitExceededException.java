package io.slotted;

/**
 * An increment was refused because it would have taken its counter's total outside the type's
 * {@link Limits}: nothing of it was applied, anywhere. Retrying the same increment is refused the
 * same way until the total moves (stock comes back, a quota's window passes).
 */
public class LimitExceededException extends SlottedException {
    private final transient Limits limits;
    private final long total;
    private final long delta;

    /**
     * Creates the exception.
     *
     * @param counter the counter, as messages name it
     * @param delta the refused amount
     * @param total the counter's total when the increment was refused
     * @param limits the type's limits
     */
    public LimitExceededException(String counter, long delta, long total, Limits limits) {
        super("limit exceeded: adding " + delta + " to counter " + counter + " would take its total " + total
                + " outside " + limits + "; nothing was applied");
        this.limits = limits;
        this.total = total;
        this.delta = delta;
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
