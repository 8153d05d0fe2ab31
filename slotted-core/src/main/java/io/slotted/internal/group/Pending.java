package io.slotted.internal.group;

import io.slotted.OutcomeUnknownException;
import io.slotted.SlottedException;
import io.slotted.internal.sql.CounterKey;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * One accepted increment waiting for a flush.
 *
 * <p>{@code done} is completed when the increment is durable; it is null when nobody waits
 * ({@code BUFFERED} mode without an idempotency key). An increment with an idempotency key always
 * has one, since only the database can say whether it is a replay; {@link #replayed()} is set
 * before {@code done} completes and read after, so the future's completion publishes it.
 */
final class Pending {
    private final CounterKey key;
    private final long delta;
    private final CompletableFuture<Void> done;
    private final String idempotencyKey;
    private boolean replayed;

    private Pending(CounterKey key, long delta, CompletableFuture<Void> done, String idempotencyKey) {
        this.key = key;
        this.delta = delta;
        this.done = done;
        this.idempotencyKey = idempotencyKey;
    }

    /** An increment whose caller waits for its commit. */
    static Pending awaited(CounterKey key, long delta) {
        return new Pending(key, delta, new CompletableFuture<>(), null);
    }

    /** A {@code BUFFERED} increment: its caller was released when it was queued. */
    static Pending released(CounterKey key, long delta) {
        return new Pending(key, delta, null, null);
    }

    /** An increment with an idempotency key, whose caller waits in every mode. */
    static Pending keyed(CounterKey key, long delta, String idempotencyKey) {
        return new Pending(key, delta, new CompletableFuture<>(), idempotencyKey);
    }

    CounterKey key() {
        return key;
    }

    long delta() {
        return delta;
    }

    /** Completed once the increment is durable; null when nobody waits. */
    CompletableFuture<Void> done() {
        return done;
    }

    String idempotencyKey() {
        return idempotencyKey;
    }

    boolean replayed() {
        return replayed;
    }

    void markReplayed() {
        replayed = true;
    }

    /**
     * Blocks until the increment is durable.
     *
     * @throws SlottedException what the flush failed with
     * @throws OutcomeUnknownException if interrupted: the increment may still be applied
     */
    void awaitDurable() {
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
}
