package io.slotted.internal.engine;

import java.util.concurrent.CompletableFuture;

/** One write mode's way of getting increments into the table. */
public interface CounterWriter {

    /**
     * Applies an increment, returning when the write mode's promise is kept: durable for
     * {@code DIRECT} and {@code GROUPED}, accepted for {@code BUFFERED}.
     *
     * @param key the counter
     * @param delta the amount, never 0
     */
    void add(CounterKey key, long delta);

    /**
     * Applies an increment without blocking where the mode allows it.
     *
     * @param key the counter
     * @param delta the amount, never 0
     * @return completed when {@link #add} would have returned, or exceptionally with its exception
     */
    CompletableFuture<Void> addAsync(CounterKey key, long delta);

    /** Writes everything accepted and releases any threads. */
    void close();
}
