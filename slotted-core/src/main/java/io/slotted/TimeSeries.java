package io.slotted;

import java.time.Instant;
import java.util.List;

/**
 * What was added to counters per time bucket, for types configured with
 * {@link SlottedCountersBuilder#buckets(int, BucketUnit, java.time.Duration)}. Reached through
 * {@link SlottedCounters#timeSeries()}.
 */
public interface TimeSeries {
    /**
     * Reads what was added to a counter per time bucket over a window: every bucket of the type's
     * unit that overlaps {@code [from, to)}, oldest first, with 0 for buckets nothing was added in.
     * Only increments count in buckets; {@link CounterAdmin#set} and repairs made by {@link CounterAdmin#recount} change
     * the total but no bucket.
     *
     * @param recordType a counter type configured with
     *     {@link SlottedCountersBuilder#buckets(int, BucketUnit, java.time.Duration)}
     * @param recordId whose count it is
     * @param from the window's start, inclusive: the bucket it falls in is the first
     * @param to the window's end, exclusive
     * @return one entry per bucket
     * @throws IllegalArgumentException if the type keeps no buckets, {@code to} is not after
     *     {@code from}, the window holds more than 10,000 buckets, or it starts before the oldest
     *     bucket kept (the current one minus the retention); the message says which
     * @throws DatabaseUnavailableException if the database cannot be reached
     */
    List<BucketCount> series(int recordType, long recordId, Instant from, Instant to);

    /**
     * Reads the counters of a type with the most added over a window: the sums of every bucket
     * of the type's unit that overlaps {@code [from, to)}.
     *
     * @param recordType a counter type configured with buckets
     * @param from the window's start, inclusive
     * @param to the window's end, exclusive
     * @param n how many counters, from 1 to 1,000
     * @return up to {@code n} counters with a non-zero sum, highest first, ties by ascending id
     * @throws IllegalArgumentException as {@link #series} does, or if {@code n} is out of range
     * @throws DatabaseUnavailableException if the database cannot be reached
     */
    List<RankedCounter> top(int recordType, Instant from, Instant to, int n);
}
