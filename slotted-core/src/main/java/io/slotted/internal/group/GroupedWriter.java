package io.slotted.internal.group;

import io.slotted.SlottedConfig;
import io.slotted.internal.bucket.BucketClock;
import io.slotted.internal.jdbc.Database;
import io.slotted.internal.registry.TypeRegistry;
import io.slotted.internal.keys.IdempotencyKeys;
import io.slotted.internal.read.CounterReader;
import io.slotted.internal.sql.CounterKey;
import io.slotted.internal.write.CounterWriter;
import io.slotted.internal.write.StatsRecorder;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * {@code GROUPED} mode, group commit: callers hand increments to a bounded {@link FlushQueue} and
 * wait; flushers write them in batches, one transaction per batch, and release the callers only
 * after COMMIT returns.
 *
 * <p>Group commit is what makes a hot counter cheap. A durable commit costs the same whether it
 * carries one increment or ten thousand, so a flusher takes everything that arrived while the
 * previous commit was running, sums it per counter, and commits it at once. There is no timer: a
 * flusher that finds work starts at once, so a lone caller waits for exactly one commit, as in
 * {@code DIRECT} mode, and under load the batches grow by themselves. {@link #close()} lets the
 * flushers drain everything accepted before they stop.
 */
public final class GroupedWriter implements CounterWriter {
    /** How long an idle flusher waits for work before looking again. */
    private static final long IDLE_POLL_MILLIS = 50;

    private final FlushQueue queue;
    private final BucketClock buckets;
    private final Flushers flushers;

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
        this.buckets = BucketClock.of(config);
        this.flushers = new Flushers(database, config, keys, registry, reader, stats, this::flushUntilClosed);
        flushers.start();
    }

    @Override
    public void add(CounterKey key, long delta) {
        Pending increment = Pending.awaited(key, delta, buckets.startOf(key.recordType()));
        queue.offer(increment);
        increment.awaitDurable();
    }

    @Override
    public CompletableFuture<Void> addAsync(CounterKey key, long delta) {
        Pending increment = Pending.async(key, delta, buckets.startOf(key.recordType()));
        queue.offer(increment);
        return increment.voidFuture();
    }

    @Override
    public long addAndGet(CounterKey key, long delta) {
        return queue.addAndGet(key, delta, buckets.startOf(key.recordType()));
    }

    @Override
    public CompletableFuture<Long> addAndGetAsync(CounterKey key, long delta) {
        return queue.addAndGetAsync(key, delta, buckets.startOf(key.recordType()));
    }

    @Override
    public boolean add(CounterKey key, long delta, String idempotencyKey) {
        return queue.addKeyed(key, delta, buckets.startOf(key.recordType()), idempotencyKey);
    }

    @Override
    public CompletableFuture<Boolean> addAsync(CounterKey key, long delta, String idempotencyKey) {
        return queue.addKeyedAsync(key, delta, buckets.startOf(key.recordType()), idempotencyKey);
    }

    /** Stops taking work, lets the flushers write everything queued, and waits for them. */
    @Override
    public void close() {
        flushers.close();
        queue.refuseLeftovers();
    }

    /**
     * One flusher's loop, the hot path: flush as soon as there is work, each batch as few
     * transactions as its sums allow, and complete the callers of each once it has committed.
     * The flusher's own upkeep waits until those callers are released.
     */
    private void flushUntilClosed(FlushWriter writer) {
        while (true) {
            boolean stopping = flushers.closing();
            List<List<Pending>> batches = stopping ? queue.takeAll() : queue.takeAll(IDLE_POLL_MILLIS);
            if (batches.isEmpty()) {
                if (stopping) {
                    writer.releaseConnection();
                    return;
                }
                writer.connectAhead();
            }
            for (List<Pending> batch : batches) {
                for (Flush flush : Flush.of(batch)) {
                    writer.write(flush, Flush::fail);
                    flush.complete();
                }
            }
            writer.keepAlive();
        }
    }
}
