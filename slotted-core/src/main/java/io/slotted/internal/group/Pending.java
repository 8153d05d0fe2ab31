package io.slotted.internal.group;

import io.slotted.OutcomeUnknownException;
import io.slotted.SlottedException;
import io.slotted.internal.sql.CounterKey;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.LockSupport;

/**
 * One accepted increment waiting for a flush, and how its caller learns the outcome.
 *
 * <p>A caller of {@code add} waits on its own thread: in {@code GROUPED} mode it first tries to
 * lead, writing the flush itself ({@link FlushTurns}), and otherwise parks until the thread that
 * writes its flush unparks exactly it: one wake-up per increment, no spinning and no future to
 * allocate, which is what a wait costs least on few cores, and never pins a virtual thread's
 * carrier. A caller of {@code addAsync} gets a future instead; a {@code BUFFERED} increment
 * without a key has nobody waiting. An outcome is set once: a caller already failed (its key
 * conflicted, its slot would overflow) keeps its exception when the rest of its flush completes.
 * {@link #replayed()} and {@link #total()} are set before the outcome, whose volatile write
 * publishes them.
 *
 * <p>A caller of {@code addAndGet} wants the counter's total right after the commit: its
 * increment {@link #wantsTotal() wants a total}, which the flush sets before completing it.
 */
final class Pending {
    private static final Object DURABLE = new Object();
    private static final VarHandle OUTCOME;

    static {
        try {
            OUTCOME = MethodHandles.lookup().findVarHandle(Pending.class, "outcome", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final CounterKey key;
    private final long delta;
    /** The time bucket it counts in, by when it was accepted, or {@code BucketClock.NONE}. */
    private final long bucketStart;
    private final String idempotencyKey;
    private final Thread waiter;
    /** Completed with null, or with the total when one is wanted. */
    private final CompletableFuture<Long> future;
    private final boolean wantsTotal;
    /** Null while pending, then {@link #DURABLE} or the exception the caller gets. */
    private volatile Object outcome;
    /** Set when the waiting caller stopped waiting (interrupted): it will not lead a flush. */
    private volatile boolean waiterGone;
    private boolean replayed;
    private long total;
    /** The next older increment in the queue's stack; written before the increment is queued. */
    Pending next;

    private Pending(CounterKey key, long delta, long bucketStart, String idempotencyKey, Thread waiter,
            CompletableFuture<Long> future, boolean wantsTotal) {
        this.key = key;
        this.delta = delta;
        this.bucketStart = bucketStart;
        this.idempotencyKey = idempotencyKey;
        this.waiter = waiter;
        this.future = future;
        this.wantsTotal = wantsTotal;
    }

    /** An increment whose calling thread waits for its commit in {@link #awaitDurable(Leader)}. */
    static Pending awaited(CounterKey key, long delta, long bucketStart) {
        return new Pending(key, delta, bucketStart, null, Thread.currentThread(), null, false);
    }

    /** As {@link #awaited}, wanting the counter's total after the commit: {@link #awaitTotal(Leader)}. */
    static Pending awaitedWithTotal(CounterKey key, long delta, long bucketStart) {
        return new Pending(key, delta, bucketStart, null, Thread.currentThread(), null, true);
    }

    /** An increment whose caller gets {@link #future()}, completed after its commit. */
    static Pending async(CounterKey key, long delta, long bucketStart) {
        return new Pending(key, delta, bucketStart, null, null, new CompletableFuture<>(), false);
    }

    /** As {@link #async}, its future completed with the counter's total after the commit. */
    static Pending asyncWithTotal(CounterKey key, long delta, long bucketStart) {
        return new Pending(key, delta, bucketStart, null, null, new CompletableFuture<>(), true);
    }

    /** An increment with an idempotency key whose caller gets {@link #future()}, in every mode. */
    static Pending asyncKeyed(CounterKey key, long delta, long bucketStart, String idempotencyKey) {
        return new Pending(key, delta, bucketStart, idempotencyKey, null, new CompletableFuture<>(), false);
    }

    /** A {@code BUFFERED} increment: its caller was released when it was queued. */
    static Pending released(CounterKey key, long delta, long bucketStart) {
        return new Pending(key, delta, bucketStart, null, null, null, false);
    }

    /** An increment with an idempotency key, whose calling thread waits in every mode. */
    static Pending keyed(CounterKey key, long delta, long bucketStart, String idempotencyKey) {
        return new Pending(key, delta, bucketStart, idempotencyKey, Thread.currentThread(), null, false);
    }

    CounterKey key() {
        return key;
    }

    long delta() {
        return delta;
    }

    long bucketStart() {
        return bucketStart;
    }

    String idempotencyKey() {
        return idempotencyKey;
    }

    /**
     * Completed once the increment is durable, with its total if one is wanted, else with null;
     * only for an increment made by {@link #async} or {@link #asyncWithTotal}.
     */
    CompletableFuture<Long> future() {
        return future;
    }

    boolean wantsTotal() {
        return wantsTotal;
    }

    /** Whether its caller was released when it was queued: a {@code BUFFERED} increment's. */
    boolean callerReleased() {
        return waiter == null && future == null;
    }

    /**
     * The future of an increment that wants no total, as the future of Void it is: it completes
     * with null.
     */
    @SuppressWarnings("unchecked")
    CompletableFuture<Void> voidFuture() {
        return (CompletableFuture<Void>) (CompletableFuture<?>) future;
    }

    /** The counter's total right after the commit; set before {@link #complete()}. */
    void total(long total) {
        this.total = total;
    }

    boolean replayed() {
        return replayed;
    }

    void markReplayed() {
        replayed = true;
    }

    /** Tells the caller the increment is durable, unless it was already told otherwise. */
    void complete() {
        if (OUTCOME.compareAndSet(this, null, DURABLE)) {
            release(null);
        }
    }

    /** Tells the caller why the increment was not written, unless it was already told. */
    void fail(RuntimeException reason) {
        if (OUTCOME.compareAndSet(this, null, reason)) {
            release(reason);
        }
    }

    private void release(RuntimeException reason) {
        if (waiter != null) {
            if (waiter != Thread.currentThread()) { // a leader completing its own increment is awake
                LockSupport.unpark(waiter);
            }
        } else if (future != null) {
            if (reason == null) {
                future.complete(wantsTotal ? total : null);
            } else {
                future.completeExceptionally(reason);
            }
        }
    }

    /** The thread waiting for it, if its caller still waits on its own thread; else null. */
    Thread waiter() {
        return waiterGone ? null : waiter;
    }

    /** Whether its caller has been told the outcome. */
    boolean done() {
        return outcome != null;
    }

    /** Tries to write queued flushes on the waiting thread; true if this thread took a turn. */
    @FunctionalInterface
    interface Leader {
        /** A waiter that never writes: it only waits to be released. */
        Leader NONE = () -> false;

        boolean tryToLead();
    }

    /** As {@link #awaitTotal(Leader)}, only waiting: for a mode whose flusher threads do every write. */
    long awaitTotal() {
        return awaitTotal(Leader.NONE);
    }

    /** As {@link #awaitDurable(Leader)}, only waiting: for a mode whose flusher threads do every write. */
    void awaitDurable() {
        awaitDurable(Leader.NONE);
    }

    /**
     * Blocks the calling thread until the increment is durable, then answers the counter's total
     * right after the commit.
     *
     * @param leader how the waiting thread may write flushes itself while it waits
     * @return the total
     * @throws SlottedException what the flush failed with
     * @throws OutcomeUnknownException if interrupted: the increment may still be applied
     */
    long awaitTotal(Leader leader) {
        awaitDurable(leader);
        return total;
    }

    /**
     * Blocks the calling thread, the one that made this increment, until it is durable. Before
     * each wait it may lead: write what is queued, its own increment among it, on its own thread.
     * It waits only when it could not lead (a writer was busy, and its holder passes the turn on)
     * and it is then woken by the commit that carries its increment, or to lead the next flush.
     *
     * @param leader how the waiting thread may write flushes itself
     * @throws SlottedException what the flush failed with
     * @throws OutcomeUnknownException if interrupted while waiting: the increment may still be
     *     applied
     */
    void awaitDurable(Leader leader) {
        Object result;
        while ((result = outcome) == null) {
            if (leader.tryToLead()) {
                continue;
            }
            if ((result = outcome) != null) {
                break;
            }
            LockSupport.park(this);
            if (Thread.interrupted()) {
                waiterGone = true;
                Thread.currentThread().interrupt();
                throw new OutcomeUnknownException("interrupted while waiting for the commit of add "
                        + delta + " to counter " + key + "; the increment may still be applied", null);
            }
        }
        if (result == DURABLE) {
            return;
        }
        throw result instanceof SlottedException s ? s
                : new SlottedException("add " + delta + " to counter " + key + " failed", (Throwable) result);
    }
}
