package io.slotted.internal.write;

import io.slotted.internal.sql.CounterKey;
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

    /**
     * Applies an increment and answers the counter's total right after its commit, returning
     * once it is durable in every mode.
     *
     * @param key the counter
     * @param delta the amount, never 0
     * @return the total, including this increment and every one acknowledged before it was accepted
     */
    long addAndGet(CounterKey key, long delta);

    /**
     * As {@link #addAndGet}, counted in a window given rather than the current one: a refund.
     *
     * @param key the counter, of a type with limits per window
     * @param delta the amount, negative
     * @param windowStart the start of the window, in seconds since the epoch
     * @return the window's count after the refund
     */
    long refund(CounterKey key, long delta, long windowStart);

    /**
     * As {@link #addAndGet}, without blocking where the mode allows it.
     *
     * @param key the counter
     * @param delta the amount, never 0
     * @return completed with the total once the increment is durable, or exceptionally
     */
    CompletableFuture<Long> addAndGetAsync(CounterKey key, long delta);

    /**
     * Applies an increment at most once per idempotency key, returning once it is durable.
     *
     * @param key the counter
     * @param delta the amount, never 0
     * @param idempotencyKey 1 to 128 printable ASCII characters
     * @return true if applied now; false if the same increment was applied before with this key
     * @throws io.slotted.IdempotencyConflictException if the key was used for another increment
     */
    boolean add(CounterKey key, long delta, String idempotencyKey);

    /**
     * As {@link #add(CounterKey, long, String)}, without blocking where the mode allows it.
     *
     * @param key the counter
     * @param delta the amount, never 0
     * @param idempotencyKey 1 to 128 printable ASCII characters
     * @return completed once durable with true if applied now, false for a replay; or
     *     exceptionally, as the blocking call would have thrown
     */
    CompletableFuture<Boolean> addAsync(CounterKey key, long delta, String idempotencyKey);

    /** Writes everything accepted and releases any threads. */
    void close();
}
