package io.slotted.internal.sql;

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

    /**
     * The row as a SQL tuple of numbers: {@code (type, id, slot, value)}.
     *
     * @return the tuple
     */
    public String tuple() {
        return "(" + RECORD_TYPE + ", " + recordId + ", " + slot + ", " + value + ")";
    }

    /**
     * What a one-statement flush sets its mark to: the flush's number, if the mark holds a lower
     * one; otherwise the statement fails, whole, on an arithmetic overflow. A flusher's numbers
     * only grow, and the mark with them: each flush sets its own number, and a retry that writes a
     * flush again fences the mark at that flush's number ({@code FlushLedger}). So a mark at or
     * past the statement's number means that a retry of this flush, or a later flush of the same
     * flusher, has already been written, and a statement that reaches the server after that — held
     * up on the way, or slow to start on a busy server — counts nothing, however many flushes
     * came between. (A fence that refused only its own number let a statement held past the
     * flusher's next flush land, and count twice.) The overflow is made from the columns, never
     * from constants alone, so that no database folds it into an error while planning a statement
     * that would not take this branch.
     *
     * @param current the mark row's count as it stands
     * @param number the flush's number, as the statement carries it
     * @return a SQL expression
     */
    public static String unlessFenced(String current, String number) {
        return "CASE WHEN " + current + " < " + number + " THEN " + number + " ELSE " + current
                + " + 9223372036854775807 + 1 END";
    }
}
