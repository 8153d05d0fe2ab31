package io.slotted.internal.group;

import io.slotted.QueueFullException;
import io.slotted.SlottedConfig;
import io.slotted.SlottedException;
import io.slotted.internal.sql.CounterKey;
import io.slotted.internal.write.StatsRecorder;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * The bounded hand-off between callers and flushers, shared by both queued write modes.
 *
 * <p>Callers push onto a lock-free stack with one compare-and-set, and a flusher takes the whole
 * stack with one swap, so many callers never queue on a lock to hand over an increment (a locked
 * queue makes them park and wake on the lock itself, a second wake-up per increment). A caller
 * that finds the stack empty wakes one idle flusher; otherwise a flusher is already due to look.
 *
 * <p>When the queue is full a caller waits for room up to the configured time and then fails with
 * {@link QueueFullException}; nothing is dropped and memory stays bounded. That rare path takes a
 * lock.
 */
final class FlushQueue {
    /** Increments per flush at most, which bounds one transaction's size and lock time. */
    static final int MAX_FLUSH = 20_000;

    private final SlottedConfig config;
    private final AtomicReference<Pending> newest = new AtomicReference<>();
    private final AtomicInteger size = new AtomicInteger();
    private final Queue<Thread> idleFlushers = new ConcurrentLinkedQueue<>();
    private final ReentrantLock roomLock = new ReentrantLock();
    private final Condition roomFreed = roomLock.newCondition();
    private final AtomicInteger waitingForRoom = new AtomicInteger();

    FlushQueue(SlottedConfig config, StatsRecorder stats) {
        this.config = config;
        stats.watchQueue(size::get);
    }

    /**
     * Queues an increment, waiting for room up to the configured time.
     *
     * @throws QueueFullException if there was no room in time; nothing was applied
     * @throws SlottedException if interrupted while waiting; the interrupt flag is restored
     */
    void offer(Pending increment) {
        if (push(increment)) {
            wakeFlusher();
        }
    }

    /**
     * Queues an increment whose caller will try to write it itself ({@code GROUPED} mode's
     * leaders), waiting for room as {@link #offer} does; no flusher is woken for it.
     */
    void offerToLead(Pending increment) {
        push(increment);
    }

    /** Pushes onto the stack; true if it was empty, so that nobody may be due to look. */
    private boolean push(Pending increment) {
        if (!reserve()) {
            awaitRoom(increment);
        }
        Pending older;
        do {
            older = newest.get();
            increment.next = older;
        } while (!newest.compareAndSet(older, increment));
        return older == null;
    }

    /** Wakes one idle flusher, if one is idle. */
    void wakeFlusher() {
        Thread idle = idleFlushers.poll();
        if (idle != null) {
            LockSupport.unpark(idle);
        }
    }

    /** The increment queued last, or null if none is queued. */
    Pending newest() {
        return newest.get();
    }

    boolean isEmpty() {
        return newest.get() == null;
    }

    private boolean reserve() {
        for (int taken = size.get(); taken < config.queueCapacity(); taken = size.get()) {
            if (size.compareAndSet(taken, taken + 1)) {
                return true;
            }
        }
        return false;
    }

    private void awaitRoom(Pending increment) {
        long waitNanos = config.queueFullWait().toNanos();
        roomLock.lock();
        waitingForRoom.incrementAndGet();
        try {
            while (!reserve()) {
                if (waitNanos <= 0) {
                    throw new QueueFullException("write queue full: " + size.get() + " of "
                            + config.queueCapacity() + " places taken after waiting "
                            + config.queueFullWait().toMillis() + "ms; the database is writing slower"
                            + " than increments arrive, or is down. Nothing was applied for counter "
                            + increment.key() + "; retry later or raise queueCapacity");
                }
                waitNanos = roomFreed.awaitNanos(waitNanos);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SlottedException("interrupted while waiting for room in the write queue;"
                    + " nothing was applied", e);
        } finally {
            waitingForRoom.decrementAndGet();
            roomLock.unlock();
        }
    }

    /**
     * Queues an increment and waits for its flush, in every mode: only the flush learns the
     * counter's total after it.
     *
     * @return the total right after the commit
     */
    long addAndGet(CounterKey key, long delta, long bucketStart) {
        Pending increment = Pending.awaitedWithTotal(key, delta, bucketStart);
        offer(increment);
        return increment.awaitTotal();
    }

    /** Queues an increment whose future completes with the counter's total after its commit. */
    CompletableFuture<Long> addAndGetAsync(CounterKey key, long delta, long bucketStart) {
        Pending increment = Pending.asyncWithTotal(key, delta, bucketStart);
        offer(increment);
        return increment.future();
    }

    /**
     * Queues an increment with an idempotency key and waits for its flush, in every mode: only the
     * flush can tell a new key from a replay.
     *
     * @return true if applied now, false if the key showed a replay
     */
    boolean addKeyed(CounterKey key, long delta, long bucketStart, String idempotencyKey) {
        Pending keyed = Pending.keyed(key, delta, bucketStart, idempotencyKey);
        offer(keyed);
        keyed.awaitDurable();
        return !keyed.replayed();
    }

    /**
     * Queues an increment with an idempotency key; its future completes after its flush, in every
     * mode.
     *
     * @return completed with true if applied now, false if the key showed a replay (marked by the
     *     flush before it completes the future)
     */
    CompletableFuture<Boolean> addKeyedAsync(CounterKey key, long delta, long bucketStart, String idempotencyKey) {
        Pending keyed = Pending.asyncKeyed(key, delta, bucketStart, idempotencyKey);
        offer(keyed);
        return keyed.future().thenApply(done -> !keyed.replayed());
    }

    /** Everything queued, oldest first, in batches of at most {@value #MAX_FLUSH}; none if empty. */
    List<List<Pending>> takeAll() {
        Pending taken = newest.getAndSet(null);
        if (taken == null) {
            return List.of();
        }
        List<Pending> oldestFirst = new ArrayList<>();
        for (Pending p = taken; p != null; p = p.next) {
            oldestFirst.add(p);
        }
        Collections.reverse(oldestFirst);
        size.addAndGet(-oldestFirst.size());
        if (waitingForRoom.get() > 0) {
            roomLock.lock();
            try {
                roomFreed.signalAll();
            } finally {
                roomLock.unlock();
            }
        }
        List<List<Pending>> batches = new ArrayList<>();
        for (int from = 0; from < oldestFirst.size(); from += MAX_FLUSH) {
            batches.add(oldestFirst.subList(from, Math.min(oldestFirst.size(), from + MAX_FLUSH)));
        }
        return batches;
    }

    /**
     * Idles the calling flusher until it is woken or {@code millis} pass. It counts as idle, so
     * that new work wakes it, from before {@code beforeParking} runs: what that finds nothing to
     * do about either wakes it or is seen by it. It parks only if {@code beforeParking} returns
     * false.
     */
    void idle(long millis, BooleanSupplier beforeParking) {
        Thread flusher = Thread.currentThread();
        idleFlushers.add(flusher);
        try {
            if (!beforeParking.getAsBoolean() && !flusher.isInterrupted()) {
                LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(millis));
            }
        } finally {
            idleFlushers.remove(flusher);
        }
    }

    /**
     * Refuses what was queued after the flushers stopped (a race with close): waiting callers are
     * told nothing was applied.
     *
     * @return how many increments were refused
     */
    int refuseLeftovers() {
        IllegalStateException closed = new IllegalStateException(
                "these counters were closed before the increment could be written; nothing was applied");
        int refused = 0;
        for (List<Pending> batch : takeAll()) {
            batch.forEach(p -> p.fail(closed));
            refused += batch.size();
        }
        return refused;
    }
}
