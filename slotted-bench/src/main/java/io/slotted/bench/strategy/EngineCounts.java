package io.slotted.bench.strategy;

/**
 * Slotted's own account of a cell, from {@code SlottedCounters.stats()}: how many transactions the
 * flushers committed and how many attempts were repeated. Increments per flush is what group commit
 * buys; retries show lock conflicts the engine absorbed.
 *
 * @param flushes transactions committed by flushers; -1 when the strategy has none
 * @param retries attempts repeated after a conflict; -1 when the strategy does not report them
 */
public record EngineCounts(long flushes, long retries) {
    /** For strategies that report nothing. */
    public static final EngineCounts NONE = new EngineCounts(-1, -1);

    /**
     * Sums two cells' counts, for rounds of one cell.
     *
     * @param other the other counts
     * @return the sum; {@link #NONE} stays none
     */
    public EngineCounts plus(EngineCounts other) {
        return new EngineCounts(add(flushes, other.flushes), add(retries, other.retries));
    }

    private static long add(long a, long b) {
        return a < 0 || b < 0 ? Math.max(a, b) : a + b;
    }
}
