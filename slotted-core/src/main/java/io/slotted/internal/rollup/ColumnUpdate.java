package io.slotted.internal.rollup;

/** What a roll-up writes into the owner column, given the column and the slots it takes. */
enum ColumnUpdate {
    /** Fold: the slots' sum is added to the column's base. */
    ADD {
        @Override
        long apply(long column, long slots) {
            return Math.addExact(column, slots);
        }
    },
    /** Release of a copy-mode type: the column was a copy of the slots, which become the column. */
    REPLACE {
        @Override
        long apply(long column, long slots) {
            return slots;
        }
    };

    /**
     * The column's new value.
     *
     * @throws ArithmeticException if it leaves the 64-bit range
     */
    abstract long apply(long column, long slots);
}
