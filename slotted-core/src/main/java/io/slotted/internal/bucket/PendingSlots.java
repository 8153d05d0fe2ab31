package io.slotted.internal.bucket;

import io.slotted.BucketUnit;
import io.slotted.internal.sql.SlotRange;

/**
 * The slots of the counter table that hold a bucketed counter's increments not yet copied into
 * the bucket table: one row per counter, bucket and flusher share, written by a flush instead of
 * a slot row and a bucket row.
 *
 * <p>A bucketed flush used to write two rows per counter, the counter's slot row and its bucket
 * row, in a transaction of two statements on MariaDB and H2. A pending row is one row of the
 * counter table, so the flush stays the one multi-row upsert a plain flush is, and every total —
 * a sum of the counter's rows — counts it with no change to any reader. Its slot says which
 * bucket it belongs to: slot {@code TOP - (n × 16 + share)}, where {@code n} is the bucket's
 * number (its start divided by the bucket length) and {@code share} the flusher's slot modulo 16,
 * so the pending rows of a range of buckets are one range of slots, far below the slots of
 * bounded counters' allowances (-1 to -{@value SlotRange#MAX_SLOTS}). A minute bucket's number
 * reaches 2<sup>31</sup> ÷ 16 in the 23rd century.
 *
 * <p>Reads of buckets add the pending rows of their buckets; the bucket keeper, once a bucket has
 * closed, moves each pending row into the counter's slot row and its bucket row and deletes it,
 * in one transaction, so that every total and every bucket stays what it was. A flush that lands
 * after that, held up on its way, writes its pending row again, which is counted like any other
 * and moved by the keeper's next pass: a bucket never needs to be told apart as closed.
 */
public final class PendingSlots {
    /** The highest pending slot. */
    public static final int TOP = -(1 << 20);
    /** Pending rows per counter and bucket, at most: a flusher's share of the slots, modulo this. */
    static final int SHARES = 16;
    /** The last bucket number whose pending slots fit an {@code INT}. */
    private static final long LAST_BUCKET = (Integer.MAX_VALUE + (long) TOP) / SHARES - 1;

    private PendingSlots() {
    }

    /**
     * The pending slot of a bucket and a flusher's share.
     *
     * @param bucketStart the bucket's start, in epoch seconds
     * @param unit the type's bucket length
     * @param share the flusher's slot, from 0
     * @return the slot, or {@code 0} (no pending slot) for a bucket before 1970 or too late to number
     */
    public static int slot(long bucketStart, BucketUnit unit, int share) {
        long number = number(bucketStart, unit);
        if (number < 0 || number > LAST_BUCKET || bucketStart % seconds(unit) != 0) {
            return 0;
        }
        return Math.toIntExact(TOP - (number * SHARES + Math.floorMod(share, SHARES)));
    }

    /**
     * Whether a slot is a pending one.
     *
     * @param slot a slot of the counter table
     * @return true if it holds increments not yet copied into the bucket table
     */
    public static boolean pending(int slot) {
        return slot <= TOP;
    }

    /**
     * The start of the bucket a pending slot belongs to.
     *
     * @param slot a pending slot
     * @param unit the type's bucket length
     * @return the bucket's start, in epoch seconds
     */
    public static long bucketStart(int slot, BucketUnit unit) {
        return ((TOP - (long) slot) / SHARES) * seconds(unit);
    }

    /**
     * The share of the flusher that wrote a pending slot, the slot its count moves to.
     *
     * @param slot a pending slot
     * @return the share, from 0 to 15
     */
    public static int share(int slot) {
        return (int) ((TOP - (long) slot) % SHARES);
    }

    /**
     * The pending slots of a run of buckets.
     *
     * @param firstStart the first bucket's start, in epoch seconds
     * @param end the end of the last bucket, in epoch seconds
     * @param unit the type's bucket length
     * @return the slots {@code [low, high]} of every pending row of those buckets, an empty range
     *     (low above high) when there can be none
     */
    public static Range range(long firstStart, long end, BucketUnit unit) {
        long first = Math.max(0, Math.floorDiv(firstStart + seconds(unit) - 1, seconds(unit)));
        long last = Math.min(LAST_BUCKET, Math.floorDiv(end, seconds(unit)) - 1);
        if (first > last) {
            return new Range(TOP, TOP - 1);
        }
        return new Range(Math.toIntExact(TOP - (last * SHARES + SHARES - 1)), Math.toIntExact(TOP - first * SHARES));
    }

    /**
     * The pending slots of every bucket that starts before a time: those the keeper moves once
     * their buckets have closed.
     *
     * @param end the first bucket left out, in epoch seconds
     * @param unit the type's bucket length
     * @return the slots
     */
    public static Range before(long end, BucketUnit unit) {
        return range(0, end, unit);
    }

    /**
     * A range of pending slots, both ends included.
     *
     * @param low the lowest slot
     * @param high the highest slot
     */
    public record Range(int low, int high) {
    }

    private static long number(long bucketStart, BucketUnit unit) {
        return Math.floorDiv(bucketStart, seconds(unit));
    }

    private static long seconds(BucketUnit unit) {
        return unit.length().getSeconds();
    }
}
