package io.slotted.bench.strategy;

/**
 * Slotted's own account of a cell, from {@code SlottedCounters.stats()}: how many transactions the
 * flushers committed and how many attempts were repeated. Increments per flush is what group commit
 * buys; retries show lock conflicts the engine absorbed.
 *
 * @param flushes transactions committed by flushers; -1 when the strategy has none
 * @param retries attempts repeated after a conflict; -1 when the strategy does not report them
 * @param note what else the strategy measured in the cell, such as its roll-up lag; empty if nothing
 */
public record EngineCounts(long flushes, long retries, String note) {
    /** For strategies that report nothing. */
    public static final EngineCounts NONE = new EngineCounts(-1, -1);

    /**
     * Counts without a note.
     *
     * @param flushes transactions committed by flushers; -1 when the strategy has none
     * @param retries attempts repeated after a conflict; -1 when none are reported
     */
    public EngineCounts(long flushes, long retries) {
        this(flushes, retries, "");
    }

    /**
     * Nothing counted, only a note, such as how writers share connections.
     *
     * @param note the note; empty for none
     * @return the note's counts, or {@link #NONE} when it is empty
     */
    public static EngineCounts noted(String note) {
        return note.isEmpty() ? NONE : new EngineCounts(-1, -1, note);
    }

    /**
     * Sums two cells' counts, for rounds of one cell.
     *
     * @param other the other counts
     * @return the sum; {@link #NONE} stays none
     */
    public EngineCounts plus(EngineCounts other) {
        return new EngineCounts(add(flushes, other.flushes), add(retries, other.retries),
                note.isEmpty() ? other.note : note);
    }

    private static long add(long a, long b) {
        return a < 0 || b < 0 ? Math.max(a, b) : a + b;
    }
}
