package io.slotted.internal.write;

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
     * The locked rows below a slot, as rows locked by themselves.
     *
     * @param slot the first slot left out
     * @return the rows in lower slots
     */
    CounterRows belowSlot(int slot) {
        CounterRows below = new CounterRows(recordId);
        for (int i = 0; i < slots.size() && slots.get(i) < slot; i++) {
            below.add(slots.get(i), counts.get(i));
        }
        return below;
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
