package io.slotted.internal.group;

import io.slotted.internal.sql.CounterKey;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * This process's {@code BUFFERED} increments that callers were told about but that are not yet
 * written, per counter, so that a read can add them to what the database holds (GitLab calls this
 * "returns current").
 *
 * <p>The sum must count each increment exactly once, but the database read and this map are two
 * places: a flush that commits between reading one and the other would be counted in both or in
 * neither. So a read is taken only while no flush is committing: it notes how many commits have
 * begun and ended, reads the database and then this map, and keeps the result only if no commit
 * was under way at the start and none began meanwhile. Flushes are one interval apart, so that
 * nearly always holds at once; a read that keeps colliding with commits waits instead for a gate
 * that holds commits back for the length of one read.
 */
public final class UnwrittenIncrements {
    /** Optimistic tries before a read takes the gate. */
    private static final int OPTIMISTIC_TRIES = 16;
    private static final long PAUSE_NANOS = TimeUnit.MICROSECONDS.toNanos(100);

    private final boolean tracking;
    private final Map<CounterKey, Long> sums = new ConcurrentHashMap<>();
    private final AtomicLong commitsBegun = new AtomicLong();
    private final AtomicLong commitsEnded = new AtomicLong();
    /** Commits hold it shared, so flushers never wait on each other; a read that must, alone. */
    private final ReentrantReadWriteLock gate = new ReentrantReadWriteLock();

    private UnwrittenIncrements(boolean tracking) {
        this.tracking = tracking;
    }

    /** Tracks unwritten increments, for reads that include them. */
    public static UnwrittenIncrements tracking() {
        return new UnwrittenIncrements(true);
    }

    /** Tracks nothing: reads show only what is written. */
    public static UnwrittenIncrements off() {
        return new UnwrittenIncrements(false);
    }

    /** Whether reads include unwritten increments. */
    public boolean isTracking() {
        return tracking;
    }

    /** An increment was accepted and its caller released. */
    void accepted(CounterKey key, long delta) {
        if (tracking) {
            sums.merge(key, delta, UnwrittenIncrements::sumOrRemove);
        }
    }

    /** An increment accepted by {@link #accepted} was refused after all (the queue was full). */
    void refused(CounterKey key, long delta) {
        accepted(key, -delta);
    }

    /**
     * Writes flushes as one commit: their increments leave this map together with their commit,
     * and no read sees the moment in between.
     *
     * @param attempted the flushes to write
     * @param write writes them and returns those that are not settled (to be retried), whose
     *     increments stay in the map; the others were written or dropped for good
     */
    void commit(List<Flush> attempted, Supplier<List<Flush>> write) {
        if (!tracking) {
            write.get();
            return;
        }
        gate.readLock().lock();
        commitsBegun.incrementAndGet();
        try {
            List<Flush> unsettled = write.get();
            attempted.forEach(flush -> move(flush, -1));
            unsettled.forEach(flush -> move(flush, 1));
        } finally {
            commitsEnded.incrementAndGet();
            gate.readLock().unlock();
        }
    }

    /** Flushes given up for good: their increments will never be written. */
    void dropped(List<Flush> flushes) {
        commit(flushes, List::of);
    }

    /**
     * Only increments whose callers were released are tracked: those with a key or wanting a
     * total wait for the flush, so none of them is.
     */
    private void move(Flush flush, int sign) {
        Map<CounterKey, Long> released = new HashMap<>();
        flush.pending().stream().filter(Pending::callerReleased)
                .forEach(p -> released.merge(p.key(), p.delta(), Math::addExact));
        released.forEach((key, sum) -> sums.merge(key, sign * sum, UnwrittenIncrements::sumOrRemove));
    }

    /**
     * Reads from the database and adds what is unwritten, as one consistent view.
     *
     * @param fromDatabase reads the written totals
     * @param plusUnwritten adds {@link #of} of each counter read to them
     * @return the totals with this process's unwritten increments
     */
    public <T> T read(Supplier<T> fromDatabase, UnaryOperator<T> plusUnwritten) {
        for (int i = 0; i < OPTIMISTIC_TRIES; i++) {
            long begun = commitsBegun.get();
            if (commitsEnded.get() != begun) {
                LockSupport.parkNanos(PAUSE_NANOS);
                continue;
            }
            T totals = plusUnwritten.apply(fromDatabase.get());
            if (commitsBegun.get() == begun) {
                return totals;
            }
        }
        gate.writeLock().lock();
        try {
            return plusUnwritten.apply(fromDatabase.get());
        } finally {
            gate.writeLock().unlock();
        }
    }

    /** The sum of a counter's unwritten increments, for {@link #read}. */
    public long of(CounterKey key) {
        return sums.getOrDefault(key, 0L);
    }

    private static Long sumOrRemove(Long sum, Long delta) {
        long next = Math.addExact(sum, delta);
        return next == 0 ? null : next;
    }
}
