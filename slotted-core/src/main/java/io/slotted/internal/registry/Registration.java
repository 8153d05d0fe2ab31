package io.slotted.internal.registry;

import io.slotted.OwnerColumn;
import io.slotted.OwnerMode;
import java.util.Optional;

/**
 * One counter type's row in the type registry: its owner column binding and its slot count, as
 * every process using the database must agree on them.
 *
 * @param recordType the counter type
 * @param owner the owner column, or null when the type is not bound
 * @param mode how the owner column is kept, or null when the type is not bound
 * @param slots the type's slot count, or 0 when the processes' own setting applies
 * @param boundMs when the binding was made (wall clock, milliseconds)
 * @param rolledUpMs when the type's last completed roll-up started: everything committed before it
 *     is in the owner column
 */
public record Registration(int recordType, OwnerColumn owner, OwnerMode mode, int slots,
        long boundMs, long rolledUpMs) {

    /**
     * Whether the type is bound to an owner column.
     *
     * @return true if bound
     */
    public boolean bound() {
        return owner != null;
    }

    /**
     * Whether reads must add the owner column to the slots.
     *
     * @return true for a type bound in {@link OwnerMode#FOLD} mode
     */
    public boolean folds() {
        return mode == OwnerMode.FOLD;
    }

    /**
     * The slot count the registry sets for the type.
     *
     * @return the count, or empty when the processes' own setting applies
     */
    public Optional<Integer> slotCount() {
        return slots > 0 ? Optional.of(slots) : Optional.empty();
    }
}
