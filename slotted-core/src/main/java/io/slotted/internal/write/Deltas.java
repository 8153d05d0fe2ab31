package io.slotted.internal.write;

import io.slotted.internal.bucket.BucketClock;
import io.slotted.internal.dialect.BucketRow;
import io.slotted.internal.dialect.SlotRow;
import io.slotted.internal.sql.BucketKey;
import io.slotted.internal.sql.CounterKey;
import io.slotted.internal.sql.SlotRange;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import java.util.function.ToIntFunction;

/**
 * What one transaction adds: the increments summed per counter and, for counter types that keep
 * time buckets, per counter and bucket, each in the order its table's locks are taken.
 *
 * <p>A transaction writes the counter rows first and the bucket rows after them, each in key
 * order, so every writer takes its locks in one global order and no two can deadlock.
 */
public final class Deltas {
    private final TreeMap<CounterKey, Long> counters = new TreeMap<>();
    private final TreeMap<BucketKey, Long> buckets = new TreeMap<>();

    /**
     * Adds an increment unless a sum would pass what one slot row may be given at once
     * ({@link SlotRange#MAX_DELTA} either way): a sum is written as one row's delta, and a new
     * row is inserted with it as it is, unchecked by the database.
     *
     * @param key the counter
     * @param bucketStart its bucket's start in epoch seconds, or {@link BucketClock#NONE}
     * @param delta the amount, itself within {@link SlotRange#MAX_DELTA}
     * @return false, changing nothing, if the counter's or the bucket's sum would pass the limit
     */
    public boolean tryAdd(CounterKey key, long bucketStart, long delta) {
        Long sum = counters.get(key);
        if (sum != null && overflows(sum, delta)) {
            return false;
        }
        BucketKey bucket = bucketStart == BucketClock.NONE ? null
                : new BucketKey(key.recordType(), bucketStart, key.recordId());
        Long bucketSum = bucket == null ? null : buckets.get(bucket);
        if (bucketSum != null && overflows(bucketSum, delta)) {
            return false;
        }
        counters.put(key, sum == null ? delta : sum + delta);
        if (bucket != null) {
            buckets.put(bucket, bucketSum == null ? delta : bucketSum + delta);
        }
        return true;
    }

    /**
     * Takes an increment back out, for one whose idempotency key showed it was applied before.
     *
     * @param key the counter
     * @param bucketStart its bucket's start, or {@link BucketClock#NONE}
     * @param delta the amount that was added
     */
    public void remove(CounterKey key, long bucketStart, long delta) {
        counters.merge(key, -delta, Long::sum);
        if (bucketStart != BucketClock.NONE) {
            buckets.merge(new BucketKey(key.recordType(), bucketStart, key.recordId()), -delta, Long::sum);
        }
    }

    /**
     * A copy that can be changed without changing this.
     *
     * @return the copy
     */
    public Deltas copy() {
        Deltas copy = new Deltas();
        copy.counters.putAll(counters);
        copy.buckets.putAll(buckets);
        return copy;
    }

    /**
     * The sums per counter, in counter order; a sum may be 0 when increments cancelled out.
     *
     * @return a live view
     */
    public NavigableMap<CounterKey, Long> counters() {
        return counters;
    }

    /**
     * The counter rows to write, in lock order, leaving out sums of 0.
     *
     * @param slotFor the slot each counter's row goes to
     * @return the rows
     */
    public List<SlotRow> counterRows(ToIntFunction<CounterKey> slotFor) {
        return SlotRows.of(counters, slotFor);
    }

    /**
     * The bucket rows to write, in lock order, leaving out sums of 0.
     *
     * @param slotFor the slot each counter's bucket row goes to
     * @return the rows, none when no counter keeps buckets
     */
    public List<BucketRow> bucketRows(ToIntFunction<CounterKey> slotFor) {
        List<BucketRow> rows = new ArrayList<>(buckets.size());
        for (Map.Entry<BucketKey, Long> sum : buckets.entrySet()) {
            if (sum.getValue() != 0) {
                rows.add(new BucketRow(sum.getKey(), slotFor.applyAsInt(sum.getKey().counter()), sum.getValue()));
            }
        }
        return rows;
    }

    /** Both are within the limit, so their sum cannot overflow a {@code long}. */
    private static boolean overflows(long sum, long delta) {
        return !SlotRange.fits(sum + delta);
    }
}
