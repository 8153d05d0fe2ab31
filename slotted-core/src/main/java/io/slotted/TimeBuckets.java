package io.slotted;

import java.time.Duration;
import java.util.Objects;

/**
 * How a counter type also counts per time bucket: the bucket length and how long buckets are
 * kept. Every increment of the type also counts into the bucket of the moment it was accepted,
 * in the same transaction as the total; buckets older than the retention are pruned in the
 * background.
 *
 * @param unit the bucket length
 * @param retention how far back from the current bucket buckets are kept: at least one bucket,
 *     at most {@link #MAX_RETENTION}, a whole number of buckets
 */
public record TimeBuckets(BucketUnit unit, Duration retention) {
    /** The longest retention, about ten years. */
    public static final Duration MAX_RETENTION = Duration.ofDays(3660);

    /**
     * Checks the settings.
     *
     * @throws NullPointerException if either is null
     * @throws IllegalArgumentException if the retention is shorter than one bucket, longer than
     *     {@link #MAX_RETENTION}, or not a whole number of buckets
     */
    public TimeBuckets {
        Objects.requireNonNull(unit, "unit must not be null");
        Objects.requireNonNull(retention, "retention must not be null");
        Duration length = unit.length();
        if (retention.compareTo(length) < 0 || retention.compareTo(MAX_RETENTION) > 0) {
            throw new IllegalArgumentException("retention must be between one " + name(unit)
                    + " and " + MAX_RETENTION.toDays() + " days, but was " + retention);
        }
        if (!retention.equals(length.multipliedBy(retention.dividedBy(length)))) {
            throw new IllegalArgumentException("retention must be a whole number of " + name(unit)
                    + "s, but was " + retention);
        }
    }

    /**
     * How many buckets are kept before the current one.
     *
     * @return the retention divided by the bucket length
     */
    public long retainedBuckets() {
        return retention.dividedBy(unit.length());
    }

    private static String name(BucketUnit unit) {
        return unit.name().toLowerCase(java.util.Locale.ROOT);
    }
}
