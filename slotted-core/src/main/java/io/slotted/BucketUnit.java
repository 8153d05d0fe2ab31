package io.slotted;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * The length of a counter type's time buckets. Buckets are aligned in UTC: an hour bucket starts
 * on the hour, a day bucket at midnight UTC.
 */
public enum BucketUnit {
    /** One bucket per minute. */
    MINUTE(ChronoUnit.MINUTES),
    /** One bucket per hour. */
    HOUR(ChronoUnit.HOURS),
    /** One bucket per day, midnight to midnight UTC. */
    DAY(ChronoUnit.DAYS);

    private final ChronoUnit unit;

    BucketUnit(ChronoUnit unit) {
        this.unit = unit;
    }

    /**
     * How long one bucket lasts.
     *
     * @return one minute, hour or day
     */
    public Duration length() {
        return unit.getDuration();
    }

    /**
     * The start of the bucket an instant falls in.
     *
     * @param instant any instant
     * @return the instant truncated to this unit, in UTC
     */
    public Instant startOf(Instant instant) {
        return instant.truncatedTo(unit);
    }
}
