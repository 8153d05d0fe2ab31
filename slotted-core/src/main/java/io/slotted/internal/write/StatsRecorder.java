package io.slotted.internal.write;

import io.slotted.SlottedStats;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

/** Counts what the engine does, cheaply enough for the hot path. */
public final class StatsRecorder {
    private final LongAdder incrementsApplied = new LongAdder();
    private final LongAdder retries = new LongAdder();
    private final LongAdder flushes = new LongAdder();
    private final LongAdder flushNanos = new LongAdder();
    private final LongAdder flushedIncrements = new LongAdder();
    private final LongAdder outcomesUnknown = new LongAdder();
    private final LongAdder outcomesResolved = new LongAdder();
    private final LongAdder incrementsDropped = new LongAdder();
    private final LongAdder rollUps = new LongAdder();
    private final LongAdder countersRolledUp = new LongAdder();
    private volatile IntSupplier queued = () -> 0;
    private volatile LongSupplier rollUpLagMillis = () -> -1;

    /**
     * Records increments acknowledged to callers.
     *
     * @param increments how many
     */
    public void applied(long increments) {
        incrementsApplied.add(increments);
    }

    /** Records one repeated attempt. */
    public void retried() {
        retries.increment();
    }

    /**
     * Records one committed flush.
     *
     * @param increments the increments it applied
     * @param nanos how long it took
     */
    public void flushed(int increments, long nanos) {
        flushes.increment();
        flushNanos.add(nanos);
        flushedIncrements.add(increments);
        incrementsApplied.add(increments);
    }

    /** Records a flush whose connection was lost during COMMIT. */
    public void outcomeUnknown() {
        outcomesUnknown.increment();
    }

    /** Records an unknown commit outcome that the flush ledger resolved as committed. */
    public void outcomeResolved() {
        outcomesResolved.increment();
    }

    /**
     * Records {@code BUFFERED} increments that could not be written.
     *
     * @param increments how many
     */
    public void dropped(int increments) {
        incrementsDropped.add(increments);
    }

    /**
     * Makes snapshots report the write queue's depth.
     *
     * @param size reads the queue's current size
     */
    public void watchQueue(IntSupplier size) {
        this.queued = size;
    }

    /**
     * Records one completed roll-up of a counter type.
     *
     * @param counters the counters whose owner column it wrote
     */
    public void rolledUp(long counters) {
        rollUps.increment();
        countersRolledUp.add(counters);
    }

    /**
     * Makes snapshots report the roll-up lag.
     *
     * @param lagMillis reads the current lag, -1 when there is none to report
     */
    public void watchRollUpLag(LongSupplier lagMillis) {
        this.rollUpLagMillis = lagMillis;
    }

    /**
     * Takes a snapshot.
     *
     * @return the counts so far
     */
    public SlottedStats snapshot() {
        return new SlottedStats(incrementsApplied.sum(), retries.sum(), flushes.sum(), flushNanos.sum(),
                flushedIncrements.sum(), outcomesUnknown.sum(), outcomesResolved.sum(),
                incrementsDropped.sum(), queued.getAsInt(), rollUps.sum(), countersRolledUp.sum(),
                rollUpLagMillis.getAsLong());
    }
}
