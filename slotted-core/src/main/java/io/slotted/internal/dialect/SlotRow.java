package io.slotted.internal.dialect;

import io.slotted.internal.sql.CounterKey;

/**
 * One slot row's share of a write: the counter, the slot row it goes to, and the amount to add.
 *
 * @param key the counter
 * @param slot the slot row
 * @param delta the amount to add to it
 */
public record SlotRow(CounterKey key, int slot, long delta) {
    /** The row as a SQL tuple of numbers: {@code (type, id, slot, delta)}. */
    String tuple() {
        return "(" + key.recordType() + ", " + key.recordId() + ", " + slot + ", " + delta + ")";
    }
}
