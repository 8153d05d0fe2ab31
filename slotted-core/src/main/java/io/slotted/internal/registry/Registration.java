package io.slotted.internal.registry;

import io.slotted.Limits;
import io.slotted.OwnerColumn;
import io.slotted.OwnerMode;
import java.util.Objects;
import java.util.Optional;

/**
 * One counter type's row in the type registry: its owner column binding, its slot count and its
 * limits, as every process using the database must agree on them.
 *
 * @param recordType the counter type
 * @param owner the owner column, or null when the type is not bound
 * @param mode how the owner column is kept, or null when the type is not bound
 * @param slots the type's slot count, or 0 when the processes' own setting applies
 * @param boundMs when the binding was made (wall clock, milliseconds)
 * @param rolledUpMs when the type's last completed roll-up started: everything committed before it
 *     is in the owner column
 * @param limits the bounds every process keeps the type's totals within, {@link Limits#NONE} for none
 * @param expiring whether the type's counters may expire: every process's writes of it take the
 *     counter's expiry lock
 */
public record Registration(int recordType, OwnerColumn owner, OwnerMode mode, int slots,
        long boundMs, long rolledUpMs, Limits limits, boolean expiring) {

    /**
     * A row of a type whose counters do not expire.
     *
     * @param recordType the counter type
     * @param owner the owner column, or null
     * @param mode how the owner column is kept, or null
     * @param slots the type's slot count, or 0
     * @param boundMs when the binding was made
     * @param rolledUpMs when the last completed roll-up started
     * @param limits the bounds, {@link Limits#NONE} for none
     */
    public Registration(int recordType, OwnerColumn owner, OwnerMode mode, int slots, long boundMs,
            long rolledUpMs, Limits limits) {
        this(recordType, owner, mode, slots, boundMs, rolledUpMs, limits, false);
    }

    /**
     * A row with no limits.
     *
     * @param recordType the counter type
     * @param owner the owner column, or null
     * @param mode how the owner column is kept, or null
     * @param slots the type's slot count, or 0
     * @param boundMs when the binding was made
     * @param rolledUpMs when the last completed roll-up started
     */
    public Registration(int recordType, OwnerColumn owner, OwnerMode mode, int slots, long boundMs,
            long rolledUpMs) {
        this(recordType, owner, mode, slots, boundMs, rolledUpMs, Limits.NONE);
    }

    /**
     * Checks the limits.
     *
     * @throws NullPointerException if {@code limits} is null
     */
    public Registration {
        Objects.requireNonNull(limits, "limits");
    }

    /**
     * The same row with other limits.
     *
     * @param changed the limits
     * @return the row
     */
    public Registration withLimits(Limits changed) {
        return new Registration(recordType, owner, mode, slots, boundMs, rolledUpMs, changed, expiring);
    }

    /**
     * The same row, its type's counters expiring.
     *
     * @return the row
     */
    public Registration withExpiring() {
        return new Registration(recordType, owner, mode, slots, boundMs, rolledUpMs, limits, true);
    }

    /**
     * Whether the row holds anything but limits: a binding or a slot count.
     *
     * @return true if deleting it would lose more than its limits
     */
    public boolean holdsMoreThanLimits() {
        return owner != null || slots > 0 || expiring;
    }

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
