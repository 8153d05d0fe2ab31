package io.slotted;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A clock the test moves by hand, so that retention and grace periods can be tested without
 * waiting: stopped at a fixed instant, or following the system clock, so that time still passes
 * for the roller and the flushers while the test skips a wait that checks nothing.
 */
final class MutableClock extends Clock {
    private final Clock base;
    private final AtomicLong aheadMillis = new AtomicLong();

    /** Stopped at 2026-11-22T00:00:00Z until the test moves it. */
    MutableClock() {
        this(Clock.fixed(Instant.parse("2026-11-22T00:00:00Z"), ZoneOffset.UTC));
    }

    private MutableClock(Clock base) {
        this.base = base;
    }

    /** The system clock, ahead by however far the test moves it. */
    static MutableClock followingTheSystemClock() {
        return new MutableClock(Clock.systemUTC());
    }

    void set(Instant instant) {
        aheadMillis.set(instant.toEpochMilli() - base.millis());
    }

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
        return base.instant().plusMillis(aheadMillis.get());
    }
}
