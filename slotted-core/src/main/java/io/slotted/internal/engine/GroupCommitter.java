package io.slotted.internal.engine;

import io.slotted.CounterOverflowException;
import io.slotted.OutcomeUnknownException;
import io.slotted.QueueFullException;
import io.slotted.SlottedConfig;
import io.slotted.SlottedException;
import io.slotted.WriteMode;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GROUPED} and {@code BUFFERED} modes: callers hand increments to a bounded queue, and a few
 * flusher threads write them in batches, one transaction per batch.
 *
 * <p>Group commit is what makes a hot counter cheap. A durable commit costs the same whether it
 * carries one increment or ten thousand, so a flusher takes everything that arrived while the
 * previous commit was running, sums it per counter, and commits it at once. There is no timer in
 * {@code GROUPED} mode: a flusher that finds work starts at once, so a lone caller waits for
 * exactly one commit, as in {@code DIRECT} mode, and under load the batches grow by themselves.
 * Callers are released only after COMMIT returns. In {@code BUFFERED} mode callers are released
 * when their increment is queued, and each flusher writes once per flush interval.
 *
 * <p>The queue is bounded. When it is full a caller waits for room up to the configured time and
 * then fails with {@link QueueFullException}; nothing is dropped and memory stays bounded.
 * {@link #close()} lets the flushers drain everything accepted before they stop.
 */
public final class GroupCommitter implements CounterWriter {
    private static final Logger LOG = LoggerFactory.getLogger(GroupCommitter.class);
    /** Increments taken per flush at most: bounds one transaction's size and lock time. */
    private static final int MAX_FLUSH = 20_000;
    private static final long IDLE_POLL_MILLIS = 50;
    private static final long IDLE_RELEASE_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final SlottedConfig config;
    private final boolean durable;
    private final BlockingQueue<Pending> queue;
    private final StatsRecorder stats;
    private final List<Thread> flushers = new ArrayList<>();
    private final CountDownLatch closing = new CountDownLatch(1);

    /**
     * Starts the flusher threads.
     *
     * @param database where to write
     * @param config the write mode, flusher count, queue size and intervals
     * @param stats where work is counted
     */
    public GroupCommitter(Database database, SlottedConfig config, IdempotencyKeys keys,
            StatsRecorder stats) {
        this.config = config;
        this.durable = config.writeMode() == WriteMode.GROUPED;
        this.queue = new ArrayBlockingQueue<>(config.queueCapacity());
        this.stats = stats;
        stats.watchQueue(queue::size);
        String instance = UUID.randomUUID().toString();
        for (int i = 0; i < config.flushers(); i++) {
            FlushWriter writer = new FlushWriter(database, config, i, instance + "-" + i, keys, stats);
            Thread thread = new Thread(() -> runFlusher(writer), "slotted-flusher-" + i);
            thread.setDaemon(true);
            flushers.add(thread);
        }
        flushers.forEach(Thread::start);
    }

    @Override
    public void add(CounterKey key, long delta) {
        CompletableFuture<Void> done = addAsync(key, delta);
        if (durable) {
            awaitDurable(done, key, delta);
        }
    }

    @Override
    public CompletableFuture<Void> addAsync(CounterKey key, long delta) {
        CompletableFuture<Void> done = durable ? new CompletableFuture<>() : null;
        enqueue(new Pending(key, delta, done, null));
        return durable ? done : CompletableFuture.completedFuture(null);
    }

    /** Waits in every mode: only the flush can tell a new key from a replay. */
    @Override
    public boolean add(CounterKey key, long delta, String idempotencyKey) {
        Pending keyed = new Pending(key, delta, new CompletableFuture<>(), idempotencyKey);
        enqueue(keyed);
        awaitDurable(keyed.done(), key, delta);
        return !keyed.replayed();
    }

    /** Stops taking work, lets the flushers write everything queued, and waits for them. */
    @Override
    public void close() {
        closing.countDown();
        for (Thread flusher : flushers) {
            joinUninterruptibly(flusher);
        }
        failLeftovers();
    }

    private void enqueue(Pending increment) {
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

    private static void awaitDurable(CompletableFuture<Void> done, CounterKey key, long delta) {
        try {
            done.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new OutcomeUnknownException("interrupted while waiting for the commit of add "
                    + delta + " to counter " + key + "; the increment may still be applied", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof SlottedException s ? s
                    : new SlottedException("add " + delta + " to counter " + key + " failed", e.getCause());
        }
    }

    /**
     * One flusher's loop. The hot path: kept in one place so its order of steps is plain.
     * GROUPED flushes as soon as there is work; BUFFERED sleeps one interval, then writes
     * everything queued, batch after batch, so that its throughput is bounded by the database and
     * not by the batch size.
     */
    private void runFlusher(FlushWriter writer) {
        List<Pending> batch = new ArrayList<>();
        long lastWork = System.nanoTime();
        while (true) {
            boolean stopping = durable ? closing.getCount() == 0 : waitForInterval();
            Pending first = stopping || !durable ? queue.poll() : pollIdle();
            if (first == null) {
                // Idle for a second (or a BUFFERED interval with nothing to write): give the
                // connection back to the pool rather than hold it unused. Not sooner: a service
                // with a gap of a few milliseconds between increments would otherwise pay the
                // pool's reset and a fresh auto-commit switch on every flush.
                if (stopping || !durable || System.nanoTime() - lastWork > IDLE_RELEASE_NANOS) {
                    writer.releaseConnection();
                }
                if (stopping) {
                    return;
                }
                continue;
            }
            lastWork = System.nanoTime();
            while (first != null) {
                batch.add(first);
                queue.drainTo(batch, MAX_FLUSH - 1);
                for (Flush flush : Flush.of(batch)) {
                    writeFlush(writer, flush);
                }
                batch.clear();
                first = durable ? null : queue.poll();
            }
        }
    }

    private Pending pollIdle() {
        try {
            return queue.poll(IDLE_POLL_MILLIS, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** BUFFERED: sleeps one flush interval, or less if closing. Returns true when closing. */
    private boolean waitForInterval() {
        try {
            return closing.await(config.flushInterval().toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return true;
        }
    }

    private void writeFlush(FlushWriter writer, Flush flush) {
        if (!durable) {
            writeBuffered(writer, flush);
            return;
        }
        writer.write(flush, GroupCommitter::failCallers);
        completeCallers(flush);
    }

    /**
     * BUFFERED: a flush that failed for a passing reason is tried again until it lands, since its
     * callers were already released; only once closing is it given up after the configured
     * attempts, with an error log. A counter whose slot would overflow can never land and is
     * dropped with an error at once.
     */
    private void writeBuffered(FlushWriter writer, Flush flush) {
        List<Flush> toWrite = List.of(flush);
        for (int round = 1; ; round++) {
            List<Flush> retry = new ArrayList<>();
            for (Flush part : toWrite) {
                writer.write(part, (failed, reason) -> {
                    if (reason instanceof CounterOverflowException) {
                        failCallers(failed, reason);
                        drop(failed.increments(), reason.getMessage());
                    } else {
                        retry.add(failed);
                    }
                });
            }
            int waiting = retry.stream().mapToInt(Flush::increments).sum();
            if (waiting == 0) {
                completeCallers(flush);
                return;
            }
            if (closing.getCount() == 0 && round >= config.maxAttempts()) {
                String why = "closing, and the database still failed after " + round + " rounds";
                drop(waiting, why);
                retry.forEach(f -> failCallers(f, new SlottedException(why + "; nothing was applied")));
                completeCallers(flush);
                return;
            }
            LOG.warn("buffered flush of {} increments failed; retrying in {}ms", waiting,
                    config.flushInterval().toMillis());
            stats.retried();
            toWrite = retry;
            waitForInterval();
        }
    }

    private void drop(int increments, String why) {
        stats.dropped(increments);
        LOG.error("dropped {} buffered increments: {}", increments, why);
    }

    private static void failCallers(Flush flush, SlottedException reason) {
        flush.pending().stream().filter(p -> p.done() != null)
                .forEach(p -> p.done().completeExceptionally(reason));
    }

    /** Callers already failed keep their exception: a future completes only once. */
    private static void completeCallers(Flush flush) {
        flush.pending().stream().filter(p -> p.done() != null).forEach(p -> p.done().complete(null));
    }

    /** Increments queued after the flushers stopped (a race with close) are refused, not lost. */
    private void failLeftovers() {
        List<Pending> leftovers = new ArrayList<>();
        queue.drainTo(leftovers);
        IllegalStateException closed = new IllegalStateException(
                "these counters were closed before the increment could be written; nothing was applied");
        leftovers.stream().filter(p -> p.done() != null).forEach(p -> p.done().completeExceptionally(closed));
        if (!durable && !leftovers.isEmpty()) {
            drop(leftovers.size(), "they arrived after close");
        }
    }

    private static void joinUninterruptibly(Thread thread) {
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
