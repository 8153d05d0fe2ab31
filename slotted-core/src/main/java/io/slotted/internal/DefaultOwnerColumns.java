package io.slotted.internal;

import io.slotted.AdoptionReport;
import io.slotted.CounterArguments;
import io.slotted.OwnerColumn;
import io.slotted.OwnerColumns;
import io.slotted.OwnerMode;
import io.slotted.Progress;
import io.slotted.RollUpReport;
import io.slotted.internal.owner.Adoption;
import io.slotted.internal.progress.Steps;
import io.slotted.internal.rollup.Roller;
import java.util.Objects;
import java.util.function.IntPredicate;

/** Checks the arguments of the owner-column calls, then hands them to adoption and the roller. */
final class DefaultOwnerColumns implements OwnerColumns {
    private final Adoption adoption;
    private final Roller roller;
    private final Runnable checkOpen;
    private final IntPredicate expiring;

    DefaultOwnerColumns(Adoption adoption, Roller roller, Runnable checkOpen, IntPredicate expiring) {
        this.expiring = expiring;
        this.adoption = adoption;
        this.roller = roller;
        this.checkOpen = checkOpen;
    }

    @Override
    public AdoptionReport adopt(int recordType, OwnerColumn owner, OwnerMode mode, Progress progress) {
        Objects.requireNonNull(owner, "owner must not be null");
        Objects.requireNonNull(mode, "mode must not be null");
        Objects.requireNonNull(progress, "progress must not be null");
        CounterArguments.checkRecordType(recordType);
        checkOpen.run();
        if (expiring.test(recordType)) {
            throw new IllegalArgumentException("record_type " + recordType + " expires, and an expiring type folds into"
                    + " no owner column: an expired counter counts from 0, which the column would not; nothing was"
                    + " changed");
        }
        return adoption.adopt(recordType, owner, mode, new Steps(progress));
    }

    @Override
    public RollUpReport release(int recordType, Progress progress) {
        Objects.requireNonNull(progress, "progress must not be null");
        CounterArguments.checkRecordType(recordType);
        checkOpen.run();
        return roller.release(recordType, new Steps(progress));
    }

    @Override
    public RollUpReport rollUpNow() {
        checkOpen.run();
        return roller.rollUpNow();
    }
}
