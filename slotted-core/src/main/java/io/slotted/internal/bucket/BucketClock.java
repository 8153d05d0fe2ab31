package io.slotted.internal.bucket;

import io.slotted.Limits;
import io.slotted.SlottedConfig;
import io.slotted.TimeBuckets;
import io.slotted.Window;
import java.time.Clock;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * Tells which time bucket an increment accepted now goes to: the bucket of the configured clock's
 * current instant, for the counter types that keep buckets. Writers ask when they accept an
 * increment, not when they write it, so an increment queued across a bucket's end still counts
 * in the bucket it was made in.
 *
 * <p>A type with limits per window keeps its counts per window as its buckets: the bucket of an
 * increment is the start of its window, by this process's clock when it was accepted (the window
 * as this process knows the type's limits then: its own, or the registry's).
 */
public final class BucketClock {
    /** The bucket of an increment whose type keeps none. */
    public static final long NONE = Long.MIN_VALUE;

    private final Map<Integer, TimeBuckets> buckets;
    private final IntFunction<Limits> limits;
    private final Clock clock;

    /**
     * The clock for a configuration's buckets and clock, and the limits a process keeps.
     *
     * @param config the configuration
     * @param limits each type's limits as this process knows them now
     * @return the clock
     */
    public static BucketClock of(SlottedConfig config, IntFunction<Limits> limits) {
        return new BucketClock(config.buckets(), limits, config.clock());
    }

    /**
     * Creates the clock.
     *
     * @param buckets every type that keeps buckets, with its buckets
     * @param limits each type's limits as this process knows them now
     * @param clock where the time comes from
     */
    public BucketClock(Map<Integer, TimeBuckets> buckets, IntFunction<Limits> limits, Clock clock) {
        this.buckets = Map.copyOf(buckets);
        this.limits = limits;
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
        Window window = limits.apply(recordType).window();
        if (window != null) {
            return window.startOf(clock.instant()).getEpochSecond();
        }
        if (buckets.isEmpty()) {
            return NONE;
        }
        TimeBuckets kept = buckets.get(recordType);
        return kept == null ? NONE : kept.unit().startOf(clock.instant()).getEpochSecond();
    }
}
