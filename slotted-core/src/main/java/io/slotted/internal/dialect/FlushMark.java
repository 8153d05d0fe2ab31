package io.slotted.internal.dialect;

import io.slotted.internal.sql.CounterKey;

/**
 * A flusher's mark: one reserved row of the counter table that a one-statement flush sets to its
 * own number in the same statement as its upserts, so that a flush whose commit was lost can
 * later tell whether it landed, at the price of one more row in that statement rather than a
 * second table in a transaction.
 *
 * <p>The row's {@code record_type} is {@value #RECORD_TYPE}, which no counter may use; its
 * {@code record_id} and {@code slot} both stay within the range of a 32-bit column, so the original pattern's
 * table, with {@code INT} columns, can hold it.
 *
 * @param recordId the mark's record id, from 0 to {@link Integer#MAX_VALUE}
 * @param slot the mark's slot, from 0 to {@link Integer#MAX_VALUE}
 * @param value the flush number it records, from 0 to {@link Integer#MAX_VALUE}
 */
public record FlushMark(int recordId, int slot, int value) {
    /** The record type reserved for marks. */
    public static final int RECORD_TYPE = CounterKey.RESERVED_RECORD_TYPE;

    /** The row as a SQL tuple of numbers: {@code (type, id, slot, value)}. */
    String tuple() {
        return "(" + RECORD_TYPE + ", " + recordId + ", " + slot + ", " + value + ")";
    }
}
