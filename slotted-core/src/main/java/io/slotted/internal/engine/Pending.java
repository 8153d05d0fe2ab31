package io.slotted.internal.engine;

import java.util.concurrent.CompletableFuture;

/**
 * One accepted increment waiting for a flush.
 *
 * @param key the counter
 * @param delta the amount
 * @param done completed when the increment is durable; null when nobody waits (BUFFERED mode)
 */
record Pending(CounterKey key, long delta, CompletableFuture<Void> done) {
}
