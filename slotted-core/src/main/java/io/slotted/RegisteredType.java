package io.slotted;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A counter type as the database's type registry holds it for every process counting into the
 * same table: the slot count it is written over, its limits, and its owner column binding with
 * how far the column has been rolled up. Read with {@link CounterAdmin#types()}.
 *
 * @param recordType the counter type
 * @param slots the slots its counters are spread over now: the count {@link CounterAdmin#shrink}
 *     recorded, or this process's own setting when none was recorded
 * @param limits the bounds its totals are kept within, {@link Limits#NONE} for none
 * @param owner the owner column it is bound to, or empty when it is not bound
 * @param mode how the owner column is kept, or empty when it is not bound
 * @param rolledUpThrough for a bound type, the start of its last completed roll-up: everything
 *     committed before it is in the owner column; empty when it is not bound
 */
public record RegisteredType(int recordType, int slots, Limits limits, Optional<OwnerColumn> owner,
        Optional<OwnerMode> mode, Optional<Instant> rolledUpThrough) {

    /**
     * Checks that nothing is null.
     *
     * @throws NullPointerException if a component is null
     */
    public RegisteredType {
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(rolledUpThrough, "rolledUpThrough");
    }
}
