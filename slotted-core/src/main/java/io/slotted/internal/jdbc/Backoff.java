package io.slotted.internal.jdbc;

import io.slotted.SlottedException;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;

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
        long wait = waitBefore(attempt);
        try {
            Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SlottedException("interrupted while waiting to retry: " + operation, e);
        }
    }

    /**
     * Waits before attempt {@code attempt + 1} for the whole time even if interrupted, and keeps
     * the interrupt for the caller: for work done on behalf of others, whom one thread's
     * interrupt must not fail.
     */
    void pauseThroughInterrupts(int attempt) {
        long deadline = System.nanoTime() + waitBefore(attempt);
        boolean interrupted = false;
        for (long left = deadline - System.nanoTime(); left > 0; left = deadline - System.nanoTime()) {
            LockSupport.parkNanos(this, left);
            interrupted |= Thread.interrupted();
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private long waitBefore(int attempt) {
        long ceiling = Math.min(MAX_NANOS, baseNanos << Math.min(attempt - 1, 30));
        return ceiling / 2 + ThreadLocalRandom.current().nextLong(ceiling / 2 + 1);
    }
}
