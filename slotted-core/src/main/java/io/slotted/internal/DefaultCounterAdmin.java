package io.slotted.internal;

import io.slotted.CounterAdmin;
import io.slotted.CounterArguments;
import io.slotted.Progress;
import io.slotted.RecountReport;
import io.slotted.RegisteredType;
import io.slotted.internal.admin.CounterSetter;
import io.slotted.internal.admin.Recount;
import io.slotted.internal.admin.SlotShrinker;
import io.slotted.internal.progress.Steps;
import io.slotted.internal.registry.RegisteredTypes;
import io.slotted.internal.sql.CounterKey;
import io.slotted.internal.sql.SlotRange;
import java.util.List;
import java.util.Objects;

/** Checks the arguments of the administrative calls, then hands each to its own class. */
final class DefaultCounterAdmin implements CounterAdmin {
    private final CounterSetter setter;
    private final Recount recount;
    private final SlotShrinker shrinker;
    private final RegisteredTypes types;
    private final Runnable checkOpen;

    DefaultCounterAdmin(CounterSetter setter, Recount recount, SlotShrinker shrinker, RegisteredTypes types,
            Runnable checkOpen) {
        this.setter = setter;
        this.recount = recount;
        this.shrinker = shrinker;
        this.types = types;
        this.checkOpen = checkOpen;
    }

    @Override
    public void set(int recordType, long recordId, long count) {
        checkOpen.run();
        setter.set(new CounterKey(CounterArguments.checkRecordType(recordType), recordId), count);
    }

    @Override
    public RecountReport recount(int recordType, String sourceQuery, boolean fix, Progress progress) {
        Objects.requireNonNull(sourceQuery, "sourceQuery must not be null");
        Objects.requireNonNull(progress, "progress must not be null");
        CounterArguments.checkRecordType(recordType);
        if (sourceQuery.isBlank()) {
            throw new IllegalArgumentException("sourceQuery must be a query returning (record_id,"
                    + " count) rows, but was blank");
        }
        checkOpen.run();
        return recount.recount(recordType, sourceQuery, fix, new Steps(progress));
    }

    @Override
    public long shrink(int recordType, int slots, Progress progress) {
        Objects.requireNonNull(progress, "progress must not be null");
        CounterArguments.checkRecordType(recordType);
        if (slots < 1 || slots > SlotRange.MAX_SLOTS) {
            throw new IllegalArgumentException("slots must be between 1 and "
                    + SlotRange.MAX_SLOTS + ", but was " + slots);
        }
        checkOpen.run();
        return shrinker.shrink(recordType, slots, new Steps(progress));
    }

    @Override
    public List<RegisteredType> types() {
        checkOpen.run();
        return types.read();
    }
}
