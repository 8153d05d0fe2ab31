package io.slotted.internal.bucket;

import io.slotted.SlottedConfig;
import io.slotted.TimeBuckets;
import java.time.Clock;
import java.util.Map;

/**
 * Tells which time bucket an increment accepted now goes to: the bucket of the configured clock's
 * current instant, for the counter types that keep buckets. Writers ask when they accept an
 * increment, not when they write it, so an increment queued across a bucket's end still counts
 * in the bucket it was made in.
 */
public final class BucketClock {
    /** The bucket of an increment whose type keeps none. */
    public static final long NONE = Long.MIN_VALUE;

    private final Map<Integer, TimeBuckets> buckets;
    private final Clock clock;

    /**
     * The clock for a configuration's buckets and clock.
     *
     * @param config the configuration
     * @return the clock
     */
    public static BucketClock of(SlottedConfig config) {
        return new BucketClock(config.buckets(), config.clock());
    }

    /**
     * Creates the clock.
     *
     * @param buckets every type that keeps buckets, with its buckets
     * @param clock where the time comes from
     */
    public BucketClock(Map<Integer, TimeBuckets> buckets, Clock clock) {
        this.buckets = Map.copyOf(buckets);
        this.clock = clock;
    }

    /**
     * The bucket an increment of a type accepted now goes to.
     *
     * @param recordType the counter type
     * @return the bucket's start in seconds since the epoch, or {@link #NONE} when the type keeps
     *     no buckets
     */
    public long startOf(int recordType) {
        if (buckets.isEmpty()) {
            return NONE;
        }
        TimeBuckets kept = buckets.get(recordType);
        return kept == null ? NONE : kept.unit().startOf(clock.instant()).getEpochSecond();
    }
}
