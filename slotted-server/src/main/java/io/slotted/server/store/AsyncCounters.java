package io.slotted.server.store;

import io.slotted.ExpiryRule;
import io.slotted.Increment;
import io.slotted.QueueFullException;
import io.slotted.SlottedCounters;
import io.slotted.WriteMode;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The counters as a front end on an event loop uses them: every call returns a future at once and
 * no call holds the caller's thread while the database works.
 *
 * <p>An increment is handed to the library, which keeps every total in range itself: in {@code GROUPED}
 * mode on the calling thread, since {@link SlottedCounters#addAsync} only queues it; in
 * {@code BUFFERED} mode too, through {@link SlottedCounters#add}, which queues it and returns (its
 * caller is answered once it is accepted, not once its flush is durable); in {@code DIRECT} mode, where {@code addAsync} writes before it returns, on a small pool of
 * writers with a bounded queue, so a slow database holds those threads and not the caller's. The
 * library's calls that write in a transaction of their own (a batch with its totals, a set) run
 * on the same writers in every mode. The
 * future completes on the thread that learned the outcome (a flusher, a reader, that pool): a
 * caller hands its answer on to its own thread rather than working there.
 *
 * <p>A full group-commit queue is the one place where handing an increment over can wait: the
 * library waits up to its {@code queueFullWait} for room, which happens only while the database is
 * slower than the load or down.
 */
public final class AsyncCounters implements AutoCloseable {
    /** Threads that run blocking writes, and how many more may wait for one. */
    static final int WRITERS = 16;
    static final int WRITER_QUEUE = 1000;
    /** The gate of a write nobody gives up. */
    private static final Runnable NO_GATE = () -> { };

    private final SlottedCounters counters;
    private final CoalescedReads reads;
    /** Runs the blocking writes: every write in {@code DIRECT} mode; batches and sets in all. */
    private final ThreadPoolExecutor writers;
    private final boolean direct;
    private final boolean buffered;

    /**
     * Starts the readers, and the writers of {@code DIRECT} mode.
     *
     * @param counters the counters the front ends write through
     */
    public AsyncCounters(SlottedCounters counters) {
        this.counters = counters;
        this.reads = new CoalescedReads(counters);
        this.direct = counters.config().writeMode() == WriteMode.DIRECT;
        this.buffered = counters.config().writeMode() == WriteMode.BUFFERED;
        this.writers = writers();
    }

    /** Started one thread per task until there are {@value #WRITERS}, then reused. */
    private static ThreadPoolExecutor writers() {
        AtomicInteger threads = new AtomicInteger();
        return new ThreadPoolExecutor(WRITERS, WRITERS, 0, TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(WRITER_QUEUE), runnable -> {
                    Thread thread = new Thread(runnable, "slotted-writer-" + threads.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
    }

    /**
     * Adds {@code delta} to a counter.
     *
     * @param recordType what is counted
     * @param recordId whose count it is
     * @param delta the amount, never 0
     * @return completed once the increment is durable (accepted, in {@code BUFFERED} mode); failed
     *     with {@link io.slotted.CounterOverflowException} if its slot row would leave its range,
     *     or with what the library failed with
     */
    public CompletableFuture<Void> add(int recordType, long recordId, long delta) {
        return add(recordType, recordId, delta, NO_GATE);
    }

    /**
     * Adds {@code delta} to a counter, unless {@code beforeWrite} refuses just before the library
     * is asked to write.
     *
     * @param recordType what is counted
     * @param recordId whose count it is
     * @param delta the amount, never 0
     * @param beforeWrite runs right before the write is handed to the library, on the thread that
     *     hands it over (a writer, in {@code DIRECT} mode); what it throws fails the add, and
     *     nothing is written
     * @return as {@link #add(int, long, long)}
     */
    public CompletableFuture<Void> add(int recordType, long recordId, long delta, Runnable beforeWrite) {
        return start(beforeWrite, () -> {
            if (!buffered) {
                return counters.addAsync(recordType, recordId, delta);
            }
            counters.add(recordType, recordId, delta);
            return CompletableFuture.completedFuture(null);
        });
    }

    /**
     * Adds {@code delta} to a counter at most once per idempotency key, unless {@code beforeWrite}
     * refuses just before the library is asked to write. In {@code GROUPED} and {@code BUFFERED}
     * mode the increment joins a flush, which records its key; no thread waits for it.
     *
     * @param recordType what is counted
     * @param recordId whose count it is
     * @param delta the amount, never 0
     * @param idempotencyKey the key, already checked
     * @param beforeWrite runs right before the write is handed to the library; what it throws
     *     fails the add, and nothing is written
     * @return completed once durable, with true if applied now and false for a replay; failed as
     *     {@link #add(int, long, long)} fails, or with the key's conflict
     */
    public CompletableFuture<Boolean> add(int recordType, long recordId, long delta, String idempotencyKey,
            Runnable beforeWrite) {
        return start(beforeWrite, () -> counters.addAsync(recordType, recordId, delta, idempotencyKey));
    }

    /**
     * Adds {@code delta} to a counter and answers its total right after the commit, which the
     * library's flush learns as it writes: no read of its own.
     *
     * @param recordType what is counted
     * @param recordId whose count it is
     * @param delta the amount, never 0
     * @param beforeWrite runs right before the write is handed to the library; what it throws
     *     fails the add, and nothing is written
     * @return completed with the total once the increment is durable, in every write mode; failed
     *     as {@link #add(int, long, long)} fails
     */
    public CompletableFuture<Long> addAndGet(int recordType, long recordId, long delta, Runnable beforeWrite) {
        return start(beforeWrite, () -> counters.addAndGetAsync(recordType, recordId, delta));
    }

    /**
     * Gives back to a counter of a type with limits per window what an earlier increment took, in
     * that increment's window ({@link SlottedCounters#refund}).
     *
     * @param recordType what is counted
     * @param recordId whose count it is
     * @param amount how much to give back, positive
     * @param madeAt a moment of the window to refund
     * @param beforeWrite runs on the writer right before the refund is handed to the library; what
     *     it throws fails the refund, and nothing is written
     * @return the window's count once the refund is durable; failed with what the library failed
     *     with, or {@link QueueFullException} when every writer is busy
     */
    public CompletableFuture<Long> refund(int recordType, long recordId, long amount, Instant madeAt,
            Runnable beforeWrite) {
        return onWriter(() -> {
            beforeWrite.run();
            return counters.refund(recordType, recordId, amount, madeAt);
        });
    }

    /**
     * Adds a batch all or nothing, in a transaction of its own, and answers each increment's total
     * as if the batch had run alone ({@link SlottedCounters#addAllAndGet}).
     *
     * @param increments the batch
     * @param beforeWrite runs on the writer right before the batch is handed to the library; what
     *     it throws fails the batch, and nothing is written
     * @return each increment's total, in order, once the batch is durable; failed with what the
     *     library failed with, or {@link QueueFullException} when every writer is busy
     */
    public CompletableFuture<List<Long>> addAllAndGet(List<Increment> increments, Runnable beforeWrite) {
        return onWriter(() -> {
            beforeWrite.run();
            return counters.addAllAndGet(increments);
        });
    }

    /**
     * Sets a counter exactly, in a transaction of its own ({@link io.slotted.CounterAdmin#set}).
     *
     * @param recordType what is counted
     * @param recordId whose count it is
     * @param count the count it is set to
     * @param beforeWrite runs on the writer right before the set is handed to the library; what it
     *     throws fails the set, and nothing is written
     * @return completed once the set is durable; failed with what the library failed with, or
     *     {@link QueueFullException} when every writer is busy
     */
    public CompletableFuture<Void> set(int recordType, long recordId, long count, Runnable beforeWrite) {
        return onWriter(() -> {
            beforeWrite.run();
            counters.admin().set(recordType, recordId, count);
            return null;
        });
    }

    /**
     * Whether a type's counters may expire: this service was given it ({@code --expiring}), or
     * another process recorded it in the type registry.
     *
     * @param recordType the type
     * @return true if they may
     */
    public boolean expiring(int recordType) {
        return counters.expiry().expiring(recordType);
    }

    /**
     * Gives a counter of an expiring type an expiry, on a writer.
     *
     * @param recordType the type
     * @param recordId the counter
     * @param at when it expires; a time past clears it now
     * @param rule when the new time replaces the current one
     * @param beforeWrite the gate, passed on the writer right before the write
     * @return true if set; false if the counter reads 0 or the rule kept the current expiry
     */
    public CompletableFuture<Boolean> expireAt(int recordType, long recordId, Instant at, ExpiryRule rule,
            Runnable beforeWrite) {
        return onWriter(() -> {
            beforeWrite.run();
            return counters.expiry().expireAt(recordType, recordId, at, rule);
        });
    }

    /**
     * Takes a counter's expiry away, on a writer.
     *
     * @param recordType the type
     * @param recordId the counter
     * @param beforeWrite the gate
     * @return true if it had one
     */
    public CompletableFuture<Boolean> persist(int recordType, long recordId, Runnable beforeWrite) {
        return onWriter(() -> {
            beforeWrite.run();
            return counters.expiry().persist(recordType, recordId);
        });
    }

    /**
     * Reads when a counter of an expiring type expires.
     *
     * @param recordType the type
     * @param recordId the counter
     * @return its expiry; empty when it has none or has expired
     */
    public CompletableFuture<Optional<Instant>> expiresAt(int recordType, long recordId) {
        return onWriter(() -> counters.expiry().expiresAt(recordType, recordId));
    }

    /**
     * Sets a counter of an expiring type and gives it an expiry, in one transaction, on a writer.
     *
     * @param recordType the type
     * @param recordId the counter
     * @param count the new total
     * @param at when it expires
     * @param beforeWrite the gate
     * @return done once set
     */
    public CompletableFuture<Void> setUntil(int recordType, long recordId, long count, Instant at,
            Runnable beforeWrite) {
        return onWriter(() -> {
            beforeWrite.run();
            counters.expiry().setUntil(recordType, recordId, count, at);
            return null;
        });
    }

    /**
     * The time now by the counters' clock, which decides expiries.
     *
     * @return the instant
     */
    public Instant now() {
        return counters.config().clock().instant();
    }

    /**
     * Reads one counter, together with the other reads waiting at the time.
     *
     * @param recordType what is counted
     * @param recordId whose count it is
     * @return its total, read after this call
     */
    public CompletableFuture<Long> get(int recordType, long recordId) {
        return reads.read(recordType, recordId);
    }

    /**
     * Reads counters of one type, together with the other reads waiting at the time.
     *
     * @param recordType what is counted
     * @param recordIds whose counts to read
     * @return every id mapped to its total, in the order given
     */
    public CompletableFuture<Map<Long, Long>> getAll(int recordType, List<Long> recordIds) {
        return reads.readAll(recordType, recordIds);
    }

    /**
     * The write mode of the counters, which says what an acknowledged increment promises.
     *
     * @return the mode
     */
    public WriteMode writeMode() {
        return counters.config().writeMode();
    }

    /**
     * Starts a write past its gate: here, or on a writer in {@code DIRECT} mode, where it blocks.
     * The gate runs where the write is handed over, so a write that waited for a writer past its
     * deadline is refused there and writes nothing.
     */
    private <T> CompletableFuture<T> start(Runnable beforeWrite, Supplier<CompletableFuture<T>> write) {
        Supplier<CompletableFuture<T>> gated = () -> {
            beforeWrite.run();
            return write.get();
        };
        if (direct) {
            return onWriter(gated).thenCompose(started -> started);
        }
        try {
            return gated.get();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** Runs a blocking call on a writer; what the library refuses fails the future. */
    private <T> CompletableFuture<T> onWriter(Supplier<T> call) {
        try {
            return CompletableFuture.supplyAsync(call, writers);
        } catch (RejectedExecutionException e) {
            return CompletableFuture.failedFuture(new QueueFullException("every writer is busy and "
                    + WRITER_QUEUE + " more writes wait for one: the database is slower than the load"
                    + " or down"));
        }
    }

    /** Stops the readers and writers once they have finished what they hold. */
    @Override
    public void close() {
        writers.shutdown();
        try {
            writers.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        reads.close();
    }
}
