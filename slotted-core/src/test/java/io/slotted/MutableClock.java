package io.slotted;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/** A clock the test moves by hand, so that retention can be tested without waiting. */
final class MutableClock extends Clock {
    private final AtomicLong millis = new AtomicLong(Instant.parse("2026-11-22T00:00:00Z").toEpochMilli());

    void set(Instant instant) {
        millis.set(instant.toEpochMilli());
    }

    void advance(Duration by) {
        millis.addAndGet(by.toMillis());
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
        return Instant.ofEpochMilli(millis.get());
    }
}
