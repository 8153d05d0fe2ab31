package io.slotted.internal.engine;

import java.util.concurrent.CompletableFuture;

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

    Pending(CounterKey key, long delta, CompletableFuture<Void> done, String idempotencyKey) {
        this.key = key;
        this.delta = delta;
        this.done = done;
        this.idempotencyKey = idempotencyKey;
    }

    CounterKey key() {
        return key;
    }

    long delta() {
        return delta;
    }

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
}
