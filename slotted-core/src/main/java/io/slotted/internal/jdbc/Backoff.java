package io.slotted.internal.jdbc;

import io.slotted.SlottedException;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Waits between attempts: exponential from a base up to one second, jittered over the upper half
 * of each step so that writers that collided once do not collide again in lockstep.
 */
final class Backoff {
    private static final long MAX_NANOS = Duration.ofSeconds(1).toNanos();

    private final long baseNanos;

    Backoff(Duration base) {
        this.baseNanos = base.toNanos();
    }

    /**
     * Waits before attempt {@code attempt + 1}.
     *
     * @throws SlottedException if interrupted; the interrupt flag is restored first
     */
    void pause(int attempt, String operation) {
        long ceiling = Math.min(MAX_NANOS, baseNanos << Math.min(attempt - 1, 30));
        long wait = ceiling / 2 + ThreadLocalRandom.current().nextLong(ceiling / 2 + 1);
        try {
            Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SlottedException("interrupted while waiting to retry: " + operation, e);
        }
    }
}
