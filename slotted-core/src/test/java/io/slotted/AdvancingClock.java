package io.slotted;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The system clock, which a test moves forward by hand: time goes on for the roller and the
 * flusher, and a test skips a wait that checks nothing (a new binding's grace) instead of sleeping
 * it out. Unlike {@link MutableClock}, it never stops.
 */
final class AdvancingClock extends Clock {
    private final AtomicLong aheadMillis = new AtomicLong();

    void advance(Duration by) {
        aheadMillis.addAndGet(by.toMillis());
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("tests use UTC");
    }

    @Override
    public Instant instant() {
        return Instant.now().plusMillis(aheadMillis.get());
    }
}
