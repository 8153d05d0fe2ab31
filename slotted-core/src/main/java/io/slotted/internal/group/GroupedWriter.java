package io.slotted.internal.group;

import io.slotted.OutcomeUnknownException;
import io.slotted.SlottedConfig;
import io.slotted.internal.bucket.BucketClock;
import io.slotted.internal.jdbc.Database;
import io.slotted.internal.keys.IdempotencyKeys;
import io.slotted.internal.read.CounterReader;
import io.slotted.internal.registry.TypeRegistry;
import io.slotted.internal.sql.CounterKey;
import io.slotted.internal.write.CounterWriter;
import io.slotted.internal.write.StatsRecorder;
import java.util.concurrent.CompletableFuture;

/**
 * {@code GROUPED} mode, group commit: increments are queued in a bounded {@link FlushQueue} and
 * written in batches, one transaction per batch, and callers are released only after COMMIT
 * returns.
 *
 * <p>Group commit is what makes a hot counter cheap. A durable commit costs the same whether it
 * carries one increment or ten thousand, so a flush takes everything queued while the previous
 * commit was running, sums it per counter, and commits it at once. The callers do the writing:
 * a caller that finds a writer free writes everything queued on its own thread, and callers
 * arriving meanwhile wait for that commit or lead the next ({@link FlushTurns}). So a lone caller
 * costs one commit and no hand-off, as in {@code DIRECT} mode, and under load the batches grow by
 * themselves. There is no timer.
 *
 * <p>Asynchronous callers never write on their own thread (it may be a front end's event loop):
 * their increments are written by the next leader, or by the flusher threads, which a caller that
 * cannot lead wakes. The flusher threads also keep the writers' connections and ledger rows alive
 * while idle, and drain the queue when the counters close.
 */
public final class GroupedWriter implements CounterWriter {
    /** How long an idle flusher waits for work before looking again. */
    private static final long IDLE_POLL_MILLIS = 50;

    private final FlushQueue queue;
    private final BucketClock buckets;
    private final Flushers flushers;
    private final FlushTurns turns;

    /**
     * Starts the flusher threads.
     *
     * @param database where to write
     * @param config the flusher count, queue size and retries
     * @param keys where idempotency keys are recorded
     * @param registry the type registry, which says which types fold into an owner column
     * @param reader how totals a flush could not learn are read
     * @param stats where work is counted
     */
    public GroupedWriter(Database database, SlottedConfig config, IdempotencyKeys keys, TypeRegistry registry,
            CounterReader reader, StatsRecorder stats) {
        this.queue = new FlushQueue(config, stats);
        this.buckets = BucketClock.of(config, registry::limits);
        this.flushers = new Flushers(database, config, keys, registry, reader, stats, this::serveUntilClosed);
        this.turns = new FlushTurns(queue, flushers.writers());
        flushers.start();
    }

    @Override
    public void add(CounterKey key, long delta) {
        lead(Pending.awaited(key, delta, buckets.startOf(key.recordType())));
    }

    @Override
    public CompletableFuture<Void> addAsync(CounterKey key, long delta) {
        Pending increment = Pending.async(key, delta, buckets.startOf(key.recordType()));
        offer(increment);
        return increment.voidFuture();
    }

    @Override
    public long addAndGet(CounterKey key, long delta) {
        Pending increment = Pending.awaitedWithTotal(key, delta, buckets.startOf(key.recordType()));
        lead(increment);
        return increment.awaitTotal();
    }

    @Override
    public long refund(CounterKey key, long delta, long windowStart) {
        Pending increment = Pending.awaitedWithTotal(key, delta, windowStart);
        lead(increment);
        return increment.awaitTotal();
    }

    @Override
    public CompletableFuture<Long> addAndGetAsync(CounterKey key, long delta) {
        Pending increment = Pending.asyncWithTotal(key, delta, buckets.startOf(key.recordType()));
        offer(increment);
        return increment.future();
    }

    @Override
    public boolean add(CounterKey key, long delta, String idempotencyKey) {
        Pending keyed = Pending.keyed(key, delta, buckets.startOf(key.recordType()), idempotencyKey);
        lead(keyed);
        return !keyed.replayed();
    }

    @Override
    public CompletableFuture<Boolean> addAsync(CounterKey key, long delta, String idempotencyKey) {
        Pending keyed = Pending.asyncKeyed(key, delta, buckets.startOf(key.recordType()), idempotencyKey);
        offer(keyed);
        return keyed.future().thenApply(done -> !keyed.replayed());
    }

    /**
     * Queues an increment whose caller waits on its own thread, and waits for it, leading a flush
     * whenever a writer is free. A caller interrupted while it waits may leave increments queued
     * that it was woken to lead: a flusher is woken for them.
     */
    private void lead(Pending increment) {
        queue.offerToLead(increment);
        try {
            increment.awaitDurable(turns::tryToLead);
        } catch (OutcomeUnknownException e) {
            queue.wakeFlusher();
            throw e;
        }
    }

    /** Queues an increment whose caller does not wait; refused at once if the writers have closed. */
    private void offer(Pending increment) {
        queue.offer(increment);
        if (turns.closed()) {
            queue.refuseLeftovers();
        }
    }

    /** Stops taking work, lets the flushers write everything queued, and waits for them. */
    @Override
    public void close() {
        flushers.close();
        queue.refuseLeftovers();
    }

    /**
     * One flusher thread's loop: idle until woken, lead when there is work and a writer is free,
     * keep its writer alive meanwhile, and when the counters close, drain the queue through its
     * writer and close it.
     */
    private void serveUntilClosed(FlushWriter writer) {
        turns.upkeep(writer);
        while (!flushers.closing()) {
            if (!queue.isEmpty() && turns.tryToLead()) {
                continue;
            }
            turns.upkeep(writer);
            queue.idle(IDLE_POLL_MILLIS, () -> !queue.isEmpty() && turns.tryToLead());
        }
        turns.drainAndClose(writer);
    }
}
