package io.slotted;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** A ticker the test moves by hand, so that a timeout can be reached without waiting for it. */
final class ManualTicker implements Ticker {
    private final AtomicLong nanos = new AtomicLong();

    void advance(Duration by) {
        nanos.addAndGet(by.toNanos());
    }

    @Override
    public long read() {
        return nanos.get();
    }
}
