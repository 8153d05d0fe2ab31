package io.slotted.internal;

import io.slotted.BucketCount;
import io.slotted.CounterArguments;
import io.slotted.RankedCounter;
import io.slotted.SlottedConfig;
import io.slotted.TimeBuckets;
import io.slotted.TimeSeries;
import io.slotted.internal.bucket.BucketWindow;
import io.slotted.internal.read.BucketReader;
import io.slotted.internal.sql.CounterKey;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/** Checks a window against the type's buckets, then reads them. */
final class DefaultTimeSeries implements TimeSeries {
    /** The most counters one top-N may ask for. */
    private static final int MAX_TOP = 1_000;
    private final SlottedConfig config;
    private final BucketReader buckets;
    private final Runnable checkOpen;

    DefaultTimeSeries(SlottedConfig config, BucketReader buckets, Runnable checkOpen) {
        this.config = config;
        this.buckets = buckets;
        this.checkOpen = checkOpen;
    }

    @Override
    public List<BucketCount> series(int recordType, long recordId, Instant from, Instant to) {
        BucketWindow window = window(recordType, from, to);
        return buckets.series(new CounterKey(recordType, recordId), window);
    }

    @Override
    public List<RankedCounter> top(int recordType, Instant from, Instant to, int n) {
        if (n < 1 || n > MAX_TOP) {
            throw new IllegalArgumentException("n must be between 1 and " + MAX_TOP + ", but was " + n);
        }
        return buckets.top(recordType, window(recordType, from, to), n);
    }

    private BucketWindow window(int recordType, Instant from, Instant to) {
        Objects.requireNonNull(from, "from must not be null");
        Objects.requireNonNull(to, "to must not be null");
        CounterArguments.checkRecordType(recordType);
        TimeBuckets kept = config.buckets(recordType).orElseThrow(() -> new IllegalArgumentException(
                "record_type " + recordType + " keeps no time buckets; configure them with"
                        + " the builder's buckets(" + recordType + ", unit, retention)"));
        checkOpen.run();
        return BucketWindow.of(recordType, kept, from, to, config.clock().instant());
    }
}
