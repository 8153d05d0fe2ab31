package io.slotted.bench.strategy.memory;

import io.slotted.bench.strategy.SlottedStrategy;
import io.slotted.bench.strategy.Strategy;

/**
 * {@code ceiling}: group commit's hand-off with no database behind it, which is the most any
 * synchronous write path of that shape could do on this machine with these writers.
 *
 * <p>Each increment does what a {@code GROUPED} caller does before any SQL: it pushes itself onto
 * the engine's lock-free stack (bounded at {@value HandOffRun#QUEUE_CAPACITY}, the engine's default
 * capacity), wakes an idle consumer if the stack was empty, and parks. As many consumer threads as
 * the engine has flushers by default each swap the whole stack out, add every increment to their
 * own per-counter totals and unpark every caller of the batch. What is measured is therefore one
 * compare-and-set, the caller's park and wake-up (and a consumer's, when it was idle) and the
 * harness's own loop, all competing for the same cores; the totals make the cell's exactness check
 * meaningful, as for any other strategy.
 *
 * <p>What it leaves out is everything a real write adds: SQL and the round trip to the database,
 * the commit and its log flush, the connection pool, the flush ledger, retries, summing a batch
 * per counter in row order, and the row locks a transaction holds. Nothing is durable, and the
 * consumers never wait, so their batches are smaller than a flusher's that waits for a commit. A
 * strategy close to the ceiling has little left to gain on the database side; one far below it
 * spends its time there. Unlike {@code HandOffBenchmark} (JMH, a fixed number of callers), it runs
 * in the contention harness, so it is compared with the others at the same writer count and round.
 */
public final class HandOffCeiling implements Strategy {

    /** Creates the strategy. */
    public HandOffCeiling() {
    }

    @Override
    public String name() {
        return "ceiling";
    }

    @Override
    public Run open(String cell, int writers, int keySpace) {
        return new HandOffRun(keySpace, SlottedStrategy.DEFAULT_FLUSHERS);
    }
}
