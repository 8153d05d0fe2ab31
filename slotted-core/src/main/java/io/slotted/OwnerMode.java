package io.slotted;

/**
 * How a counter type bound to an owner column keeps that column, the original pattern's "column stored with
 * the rest of the data" that applications read and sort by.
 */
public enum OwnerMode {
    /**
     * The column is the counter's base: a counter's total is the column plus its slots. A roll-up
     * moves each changed counter's slot sum into the column and deletes those slot rows in one
     * transaction, so the slot table holds only recent increments. Reads are exact at every
     * moment; the column alone trails by at most the roll-up lag. Adopting an existing hot column
     * copies nothing: its current value is the base.
     */
    FOLD,

    /**
     * The original pattern's way: the slots keep the whole count and a roll-up writes {@code column := SUM(slots)}
     * for counters whose column differs. Anything that sums the slots directly keeps working;
     * the column trails by at most the roll-up lag, and it is Slotted's to write.
     */
    COPY
}
