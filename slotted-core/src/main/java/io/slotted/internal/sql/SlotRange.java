package io.slotted.internal.sql;


/**
 * The range every slot row keeps, so that no counter's total can leave the signed 64-bit range,
 * in any process, on any write path, with no read before a write and no lock but the row's own.
 *
 * <p>A counter is at most {@link #MAX_SLOTS} (1,024) slot rows and, for a type bound in fold mode, its
 * owner column. Each slot row holds a value in {@code [-2^52, 2^52 - 1]} and a folded owner column
 * one in {@code [-2^62, 2^62 - 1]}, so the slots together stay within {@code ±2^62} and slots plus
 * column within {@code [-2^63, 2^63 - 1]}: every total is a {@code long}, whatever happens
 * concurrently, because each part is checked alone, by the database, when it is written.
 *
 * <p>The database checks a slot row's new value with the row's own lock held: the upsert writes
 * {@code v * 2^11 / 2^11} instead of {@code v}. The product leaves the 64-bit range, and the
 * database refuses the statement with its own out-of-range error, exactly when {@code v} leaves
 * {@code [-2^52, 2^52 - 1]}; otherwise the division gives {@code v} back. That costs two integer
 * operations per row and needs no constraint on the user's table. The values a statement inserts
 * as new rows are the callers' deltas and a flush's sums of them, which the engine keeps within
 * {@link #MAX_DELTA} before writing.
 */
public final class SlotRange {
    /** The largest number of slots a counter may have. */
    public static final int MAX_SLOTS = 1024;
    /** The largest slot value, and so the largest amount one increment may add: 2^52 - 1. */
    public static final long MAX_DELTA = (1L << 52) - 1;
    /** The largest value a folded owner column may hold: 2^62 - 1. */
    public static final long COLUMN_MAX = (1L << 62) - 1;
    /** The smallest value a folded owner column may hold: -2^62. */
    public static final long COLUMN_MIN = -(1L << 62);
    /**
     * What a slot's new value is multiplied and divided by: 2^11, twice the most slots, the
     * factor that makes the product overflow exactly outside {@code [-2^52, 2^52 - 1]}.
     */
    public static final int CHECK_FACTOR = 2 * MAX_SLOTS;

    private SlotRange() {
    }

    /**
     * Whether an amount may be added in one increment, or a flush's sum of them written as one
     * slot row's delta.
     *
     * @param delta the amount
     * @return true if {@code |delta| <= MAX_DELTA}
     */
    public static boolean fits(long delta) {
        return delta >= -MAX_DELTA && delta <= MAX_DELTA;
    }

    /**
     * The most a counter of {@code slots} slot rows can hold outside an owner column.
     *
     * @param slots the counter's slot count
     * @return {@code slots × MAX_DELTA}
     */
    public static long capacity(int slots) {
        return slots * MAX_DELTA;
    }

    /**
     * Whether a slot is one of a bounded counter's allowance rows: -1 for the first flusher's
     * share down to {@code -MAX_SLOTS}. Lower slots hold a bucketed counter's pending increments
     * ({@code PendingSlots}), which are no allowance.
     *
     * @param slot a slot of the counter table
     * @return true if it is an allowance row's
     */
    public static boolean allowance(int slot) {
        return slot < 0 && slot >= -MAX_SLOTS;
    }
}
