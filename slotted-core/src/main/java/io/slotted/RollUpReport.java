package io.slotted;

import java.util.List;

/**
 * What a roll-up ({@link OwnerColumns#rollUpNow()}) or a release
 * ({@link OwnerColumns#release(int)}) did.
 *
 * @param types how many bound counter types were rolled up
 * @param countersRolledUp counters whose owner column was written
 * @param countersWithoutOwnerRow counters that have slot rows but no owner row with their key; their
 *     counts stay in the slots, where reads still find them
 * @param refused counters left as they were, each with the reason (a roll-up that would overflow
 *     the owner column)
 */
public record RollUpReport(int types, long countersRolledUp, long countersWithoutOwnerRow,
        List<String> refused) {

    /** A roll-up that had nothing to do. */
    public static final RollUpReport NONE = new RollUpReport(0, 0, 0, List.of());

    /** Copies the refusals. */
    public RollUpReport {
        refused = List.copyOf(refused);
    }

    /**
     * This report and another added together.
     *
     * @param other another report
     * @return the sum of both
     */
    public RollUpReport plus(RollUpReport other) {
        List<String> both = new java.util.ArrayList<>(refused);
        both.addAll(other.refused);
        return new RollUpReport(types + other.types, countersRolledUp + other.countersRolledUp,
                countersWithoutOwnerRow + other.countersWithoutOwnerRow, both);
    }
}
