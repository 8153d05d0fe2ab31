package io.slotted.internal.group;

import io.slotted.QueueFullException;
import io.slotted.SlottedConfig;
import io.slotted.SlottedException;
import io.slotted.internal.sql.CounterKey;
import io.slotted.internal.write.StatsRecorder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The bounded hand-off between callers and flushers, shared by both queued write modes.
 *
 * <p>When the queue is full a caller waits for room up to the configured time and then fails with
 * {@link QueueFullException}; nothing is dropped and memory stays bounded. A flusher takes what is
 * there in batches of at most {@value #MAX_FLUSH}, which bounds one transaction's size and the
 * time it holds its row locks.
 */
final class FlushQueue {
    /** Increments taken per batch at most. */
    static final int MAX_FLUSH = 20_000;

    private final SlottedConfig config;
    private final BlockingQueue<Pending> queue;

    FlushQueue(SlottedConfig config, StatsRecorder stats) {
        this.config = config;
        this.queue = new ArrayBlockingQueue<>(config.queueCapacity());
        stats.watchQueue(queue::size);
    }

    /**
     * Queues an increment, waiting for room up to the configured time.
     *
     * @throws QueueFullException if there was no room in time; nothing was applied
     * @throws SlottedException if interrupted while waiting; the interrupt flag is restored
     */
    void offer(Pending increment) {
        boolean queued;
        try {
            queued = queue.offer(increment, config.queueFullWait().toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SlottedException("interrupted while waiting for room in the write queue;"
                    + " nothing was applied", e);
        }
        if (!queued) {
            throw new QueueFullException("write queue full: " + queue.size() + " of "
                    + config.queueCapacity() + " places taken after waiting "
                    + config.queueFullWait().toMillis() + "ms; the database is writing slower than"
                    + " increments arrive, or is down. Nothing was applied for counter "
                    + increment.key() + "; retry later or raise queueCapacity");
        }
    }

    /**
     * Queues an increment with an idempotency key and waits for its flush, in every mode: only the
     * flush can tell a new key from a replay.
     *
     * @return true if applied now, false if the key showed a replay
     */
    boolean addKeyed(CounterKey key, long delta, String idempotencyKey) {
        Pending keyed = Pending.keyed(key, delta, idempotencyKey);
        offer(keyed);
        keyed.awaitDurable();
        return !keyed.replayed();
    }

    /** The next increment, or null if there is none now. */
    Pending poll() {
        return queue.poll();
    }

    /** The next increment, waiting up to {@code millis} for one; null if none came or interrupted. */
    Pending poll(long millis) {
        try {
            return queue.poll(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** {@code first} and whatever else is queued, up to {@value #MAX_FLUSH} increments. */
    List<Pending> batchStartingWith(Pending first) {
        List<Pending> batch = new ArrayList<>();
        batch.add(first);
        queue.drainTo(batch, MAX_FLUSH - 1);
        return batch;
    }

    /**
     * Refuses what was queued after the flushers stopped (a race with close): waiting callers are
     * told nothing was applied.
     *
     * @return how many increments were refused
     */
    int refuseLeftovers() {
        List<Pending> leftovers = new ArrayList<>();
        queue.drainTo(leftovers);
        IllegalStateException closed = new IllegalStateException(
                "these counters were closed before the increment could be written; nothing was applied");
        leftovers.stream().filter(p -> p.done() != null).forEach(p -> p.done().completeExceptionally(closed));
        return leftovers.size();
    }
}
