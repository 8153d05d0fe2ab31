package io.slotted.internal.dialect.statements;

import io.slotted.internal.mutation.Mutation;
import io.slotted.internal.sql.CounterKey;

/**
 * What a flush spends from one allowance row of a bounded counter: {@code amount} added to the
 * row in {@code slot}, only if the row holds a count from {@code low} to {@code high}, the counts
 * that cover every prefix of the increments summed in the amount.
 *
 * @param key the counter
 * @param slot the allowance row's slot, below 0
 * @param amount the sum of the counter's increments
 * @param low the least count the row must hold
 * @param high the most count the row may hold
 */
public record AllowanceSpend(CounterKey key, int slot, long amount, long low, long high) {
    /** The row, if it covers the spend, as a SQL condition of numbers. */
    String condition() {
        return "(" + row() + " AND " + covered() + ")";
    }

    /** The row, whatever it holds, as a SQL condition of numbers. */
    String row() {
        return "record_type = " + key.recordType() + " AND record_id = " + key.recordId() + " AND slot = " + slot;
    }

    /** Whether the row's count covers the spend, as a SQL condition. */
    String covered() {
        if (Mutation.SPEND_UNCHECKED.planted()) {
            return "count = count";
        }
        return "count BETWEEN " + low + " AND " + high;
    }
}
