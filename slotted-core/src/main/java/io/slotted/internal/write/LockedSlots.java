package io.slotted.internal.write;

import java.util.ArrayList;
import java.util.List;

/** The slot rows of one counter that a transaction has locked, and their sum. */
public final class LockedSlots {
    private final long recordId;
    private final List<Integer> slots = new ArrayList<>();
    private long total;
    private boolean overflowed;

    LockedSlots(long recordId) {
        this.recordId = recordId;
    }

    void add(int slot, long count) {
        slots.add(slot);
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
