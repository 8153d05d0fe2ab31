package io.slotted;

/**
 * How {@link SlottedCounters#add} turns an increment into a database write.
 *
 * <p>Every mode spreads a counter over several rows (slots) so that concurrent writers do not queue
 * on one row lock. They differ in when the write happens and when the caller is released.
 */
public enum WriteMode {
    /**
     * One autocommit upsert per increment into a slot chosen uniformly at random: the Slotted
     * Counter Pattern as first described. {@code add} returns once that statement has committed.
     * The baseline that the other modes are measured against. Default slots per counter: 100.
     */
    DIRECT(100),

    /**
     * Group commit: increments from many callers are summed per counter and written together in
     * one transaction; each caller is released after that transaction commits. Default slots per
     * counter: 16.
     */
    GROUPED(16),

    /**
     * Write-behind: {@code add} returns at once and increments are written on an interval and on
     * close. A crash loses at most one interval's increments. Default slots per counter: 16.
     */
    BUFFERED(16);

    private final int defaultSlots;

    WriteMode(int defaultSlots) {
        this.defaultSlots = defaultSlots;
    }

    /**
     * The number of slots a counter gets in this mode when the builder is not told otherwise.
     *
     * @return the default slot count, at least 1
     */
    public int defaultSlots() {
        return defaultSlots;
    }
}
