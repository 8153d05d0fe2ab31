package io.slotted.internal.dialect;

import io.slotted.internal.sql.BucketKey;

/**
 * One bucket slot row's share of a write: the counter's bucket, the slot row it goes to, and the
 * amount to add.
 *
 * @param key the counter's bucket
 * @param slot the slot row
 * @param delta the amount to add to it
 */
public record BucketRow(BucketKey key, int slot, long delta) {
    /** The row as a SQL tuple of numbers: {@code (type, bucket_start, id, slot, delta)}. */
    String tuple() {
        return "(" + key.recordType() + ", " + key.bucketStart() + ", " + key.recordId() + ", "
                + slot + ", " + delta + ")";
    }
}
