package io.slotted;

import java.util.List;

/**
 * What {@link OwnerColumns#adopt} found when it bound a counter type to an owner column.
 *
 * @param recordType the counter type now bound
 * @param owner the owner column
 * @param mode how the column is kept
 * @param columnType the count column's SQL type, as the database names it
 * @param largest the largest value the column holds now (0 for an empty table)
 * @param limit the largest value the column's type can hold
 * @param headroom how much any one counter may still grow before a roll-up into the column is
 *     refused: {@code limit - largest}
 * @param warnings what works but deserves a look, as sentences (an {@code INT} column, a nullable
 *     column)
 */
public record AdoptionReport(int recordType, OwnerColumn owner, OwnerMode mode, String columnType,
        long largest, long limit, long headroom, List<String> warnings) {

    /** Copies the warnings. */
    public AdoptionReport {
        warnings = List.copyOf(warnings);
    }
}
