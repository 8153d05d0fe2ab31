package io.slotted.internal.group;

import io.slotted.CounterOverflowException;
import io.slotted.OutcomeUnknownException;
import io.slotted.SlottedConfig;
import io.slotted.SlottedException;
import io.slotted.internal.bucket.BucketClock;
import io.slotted.internal.jdbc.Database;
import io.slotted.internal.keys.IdempotencyKeys;
import io.slotted.internal.read.CounterReader;
import io.slotted.internal.registry.TypeRegistry;
import io.slotted.internal.sql.CounterKey;
import io.slotted.internal.write.CounterWriter;
import io.slotted.internal.write.StatsRecorder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code BUFFERED} mode, write-behind: callers are released once their increment is queued, and
 * each flusher writes everything queued once per flush interval, so a crash loses at most one
 * interval's increments.
 *
 * <p>Since its callers are gone, a flush that failed for a passing reason is tried again every
 * interval until it lands; only once closing is it given up after the configured attempts, with an
 * error log. A counter whose slot would overflow can never land and is dropped at once. Keyed
 * increments still wait for their flush: only the database can tell a replay; so do increments
 * that want the total after them.
 */
public final class BufferedWriter implements CounterWriter {
    private static final Logger LOG = LoggerFactory.getLogger(BufferedWriter.class);

    private final SlottedConfig config;
    private final StatsRecorder stats;
    private final FlushQueue queue;
    private final BucketClock buckets;
    private final Flushers flushers;
    private final UnwrittenIncrements unwritten;

    /**
     * Starts the flusher threads.
     *
     * @param database where to write
     * @param config the flusher count, queue size, interval and retries
     * @param keys where idempotency keys are recorded
     * @param registry the type registry, which says which types fold into an owner column
     * @param reader how totals a flush could not learn are read
     * @param stats where work is counted
     * @param unwritten where accepted increments are tracked until written, for reads
     */
    public BufferedWriter(Database database, SlottedConfig config, IdempotencyKeys keys, TypeRegistry registry,
            CounterReader reader, StatsRecorder stats, UnwrittenIncrements unwritten) {
        this.config = config;
        this.unwritten = unwritten;
        this.stats = stats;
        this.queue = new FlushQueue(config, stats);
        this.buckets = BucketClock.of(config, registry::limits);
        this.flushers = new Flushers(database, config, keys, registry, reader, stats, this::flushEveryInterval);
        flushers.start();
    }

    @Override
    public void add(CounterKey key, long delta) {
        // Tracked before it is queued, so that a flush can never take it out before it is in.
        unwritten.accepted(key, delta);
        try {
            queue.offer(Pending.released(key, delta, buckets.startOf(key.recordType())));
        } catch (RuntimeException refused) {
            unwritten.refused(key, delta);
            throw refused;
        }
    }

    /**
     * Queued for the next flush as {@link #add} queues it, but the future completes only once that
     * flush is durable, as in every mode: it is how a {@code BUFFERED} caller learns that an
     * increment can no longer be lost. Not among the unwritten increments reads may add: its
     * caller has not been told it counts.
     */
    @Override
    public CompletableFuture<Void> addAsync(CounterKey key, long delta) {
        Pending increment = Pending.async(key, delta, buckets.startOf(key.recordType()));
        queue.offer(increment);
        return increment.voidFuture();
    }

    /** Waits for its flush, as a keyed increment does: the total is known only after the write. */
    @Override
    public long addAndGet(CounterKey key, long delta) {
        return queue.addAndGet(key, delta, buckets.startOf(key.recordType()));
    }

    @Override
    public long refund(CounterKey key, long delta, long windowStart) {
        return queue.addAndGet(key, delta, windowStart);
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
        int leftovers = queue.refuseLeftovers();
        if (leftovers > 0) {
            drop(leftovers, "they arrived after close");
        }
    }

    /**
     * One flusher's loop: sleep one interval, then write everything queued, batch after batch, so
     * that throughput is bounded by the database and not by the batch size.
     */
    private void flushEveryInterval(FlushWriter writer) {
        writer.connectAhead();
        while (true) {
            boolean stopping = flushers.awaitClosing(config.flushInterval());
            List<List<Pending>> batches = queue.takeAll();
            if (batches.isEmpty()) {
                if (stopping) {
                    writer.releaseConnection();
                    return;
                }
                writer.connectAhead();
            }
            while (!batches.isEmpty()) {
                for (List<Pending> batch : batches) {
                    for (Flush flush : Flush.of(batch)) {
                        writeUntilLanded(writer, flush);
                    }
                }
                batches = queue.takeAll();
            }
            writer.keepAlive();
        }
    }

    /**
     * Writes a flush, retrying the parts that failed for a passing reason, once per interval: any
     * failure but an overflow, or a lost COMMIT whose outcome could not be learned, each of which
     * fails its part's callers.
     */
    private void writeUntilLanded(FlushWriter writer, Flush flush) {
        List<Flush> toWrite = List.of(flush);
        for (int round = 1; ; round++) {
            List<Flush> attempted = toWrite;
            List<Flush> retry = new ArrayList<>();
            unwritten.commit(attempted, () -> {
                attempted.forEach(part -> writer.write(part, (failed, reason) -> {
                    if (reason instanceof CounterOverflowException) {
                        failed.fail(reason);
                        drop(failed.increments(), reason.getMessage());
                    } else if (reason instanceof OutcomeUnknownException) {
                        // Its COMMIT may have landed: written again (under a new flush number) it
                        // could count twice, and given up it is not known to be unapplied.
                        failed.fail(reason);
                        LOG.error("{} buffered increments of unknown outcome, not written again: {}",
                                failed.increments(), reason.getMessage());
                    } else {
                        retry.add(failed);
                    }
                }));
                return retry;
            });
            int waiting = retry.stream().mapToInt(Flush::increments).sum();
            if (waiting == 0) {
                flush.complete();
                return;
            }
            if (flushers.closing() && round >= config.maxAttempts()) {
                String why = "closing, and the database still failed after " + round + " rounds";
                drop(waiting, why);
                unwritten.dropped(retry);
                retry.forEach(f -> f.fail(new SlottedException(why + "; nothing was applied")));
                flush.complete();
                return;
            }
            LOG.warn("buffered flush of {} increments failed; retrying in {}ms", waiting,
                    config.flushInterval().toMillis());
            stats.retried();
            toWrite = retry;
            flushers.awaitClosing(config.flushInterval());
        }
    }

    private void drop(int increments, String why) {
        stats.dropped(increments);
        LOG.error("dropped {} buffered increments: {}", increments, why);
    }
}
