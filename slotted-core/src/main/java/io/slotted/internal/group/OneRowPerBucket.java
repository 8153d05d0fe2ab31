package io.slotted.internal.group;

import io.slotted.TimeBuckets;
import io.slotted.internal.bucket.PendingSlots;
import io.slotted.internal.dialect.BucketRow;
import io.slotted.internal.dialect.SlotRow;
import io.slotted.internal.expiry.ExpiringCounters;
import io.slotted.internal.registry.TypeRegistry;
import io.slotted.internal.sql.CounterKey;
import io.slotted.internal.write.BoundedCounters;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns a flush's bucketed counters into one pending row per counter and bucket
 * ({@link PendingSlots}), instead of a slot row and a bucket row each: a one-statement flush
 * stays the one multi-row upsert of the counter table a plain flush is, the ledger's transaction
 * writes one table instead of two, and every total counts the rows as it counts any slot row.
 *
 * <p>Left as two rows: the counters of a type with limits, whose decisions read and move their
 * rows under the counter's lock; of a type that folds into an owner column, whose roll-up would
 * otherwise wait for the bucket keeper to move them; of an expiring type, whose expiry deletes its
 * rows; and a counter whose bucket has no pending slot (before 1970).
 */
final class OneRowPerBucket {
    private static final Comparator<SlotRow> LOCK_ORDER =
            Comparator.comparing(SlotRow::key).thenComparingInt(SlotRow::slot);

    private final Map<Integer, TimeBuckets> buckets;
    private final TypeRegistry registry;
    private final BoundedCounters bounded;
    private final ExpiringCounters expiring;

    OneRowPerBucket(Map<Integer, TimeBuckets> buckets, TypeRegistry registry, BoundedCounters bounded,
            ExpiringCounters expiring) {
        this.buckets = buckets;
        this.registry = registry;
        this.bounded = bounded;
        this.expiring = expiring;
    }

    /**
     * The rows a flush writes, with the bucketed counters' slot rows and bucket rows replaced by
     * their pending rows.
     *
     * @param rows the slot rows, in lock order
     * @param bucketRows the bucket rows, in lock order
     * @param mostRows the most rows the statement may carry; nothing is replaced past it
     * @return the rows to write
     */
    Rows split(List<SlotRow> rows, List<BucketRow> bucketRows, int mostRows) {
        if (bucketRows.isEmpty()) {
            return new Rows(rows, bucketRows);
        }
        List<SlotRow> pending = new ArrayList<>();
        Set<CounterKey> refused = new HashSet<>();
        for (BucketRow row : bucketRows) {
            CounterKey key = row.key().counter();
            int slot = eligible(key.recordType())
                    ? PendingSlots.slot(row.key().bucketStart(), buckets.get(key.recordType()).unit(), row.slot())
                    : 0;
            if (slot == 0) {
                refused.add(key);
            } else {
                pending.add(new SlotRow(key, slot, row.delta()));
            }
        }
        pending.removeIf(row -> refused.contains(row.key()));
        if (pending.isEmpty()) {
            return new Rows(rows, bucketRows);
        }
        Set<CounterKey> moved = new HashSet<>();
        pending.forEach(row -> moved.add(row.key()));
        List<SlotRow> written = new ArrayList<>(pending);
        rows.stream().filter(row -> !moved.contains(row.key())).forEach(written::add);
        if (written.size() > mostRows) {
            return new Rows(rows, bucketRows);
        }
        written.sort(LOCK_ORDER);
        List<BucketRow> left = bucketRows.stream().filter(row -> !moved.contains(row.key().counter())).toList();
        return new Rows(written, left);
    }

    private boolean eligible(int recordType) {
        return buckets.containsKey(recordType) && !bounded.bounded(recordType) && !registry.folds(recordType)
                && !expiring.expiring(recordType);
    }

    /**
     * What a flush writes.
     *
     * @param rows the slot rows, pending ones included, in lock order
     * @param bucketRows the bucket rows still written as such
     */
    record Rows(List<SlotRow> rows, List<BucketRow> bucketRows) {
    }
}
