package io.slotted.internal.write;

import io.slotted.internal.bucket.PendingSlots;
import io.slotted.internal.sql.SlotRange;
import java.util.ArrayList;
import java.util.List;

/**
 * The slot rows of one counter as a statement read them, and their sum: rows a transaction holds
 * locked when the statement was a locking read ({@link SlotRows#lock}), rows as last committed
 * when it was not ({@link SlotRows#readChanged}).
 */
public final class CounterRows {
    private final long recordId;
    private final List<Integer> slots = new ArrayList<>();
    private final List<Long> counts = new ArrayList<>();
    private long total;
    private boolean overflowed;

    CounterRows(long recordId) {
        this.recordId = recordId;
    }

    void add(int slot, long count) {
        slots.add(slot);
        counts.add(count);
        try {
            total = Math.addExact(total, count);
        } catch (ArithmeticException e) {
            overflowed = true;
        }
    }

    /**
     * The counter's id.
     *
     * @return the record id
     */
    public long recordId() {
        return recordId;
    }

    /**
     * The slots of the locked rows.
     *
     * @return slot numbers, ascending
     */
    public List<Integer> slots() {
        return List.copyOf(slots);
    }

    /**
     * The counts of the locked rows, in the order of {@link #slots()}.
     *
     * @return each row's count as read
     */
    public List<Long> counts() {
        return List.copyOf(counts);
    }

    /**
     * The locked allowance rows ({@link SlotRange#allowance}), as rows locked by themselves.
     *
     * @return the allowance rows
     */
    CounterRows allowances() {
        CounterRows allowances = new CounterRows(recordId);
        for (int i = 0; i < slots.size(); i++) {
            if (SlotRange.allowance(slots.get(i))) {
                allowances.add(slots.get(i), counts.get(i));
            }
        }
        return allowances;
    }

    /**
     * The sum of the locked rows that hold a bucketed counter's pending increments
     * ({@link PendingSlots}), which a set leaves where they are: their buckets still count them.
     *
     * @return the sum; it fits, since the rows' whole sum was read as a total
     */
    public long pendingTotal() {
        long pending = 0;
        for (int i = 0; i < slots.size(); i++) {
            if (PendingSlots.pending(slots.get(i))) {
                pending += counts.get(i);
            }
        }
        return pending;
    }

    /**
     * Whether every locked row holds 0, which a sum of 0 does not tell.
     *
     * @return true if no row holds anything
     */
    public boolean allZero() {
        return counts.stream().allMatch(count -> count == 0);
    }

    /**
     * The rows' sum; meaningless if {@link #overflowed()}.
     *
     * @return the sum
     */
    public long total() {
        return total;
    }

    /**
     * Whether the rows add up to more than 64 bits hold.
     *
     * @return true if the sum overflowed
     */
    public boolean overflowed() {
        return overflowed;
    }
}
