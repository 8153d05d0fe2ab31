package io.slotted.internal.engine;

import io.slotted.SlottedStats;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntSupplier;

/** Counts what the engine does, cheaply enough for the hot path. */
public final class StatsRecorder {
    private final LongAdder incrementsApplied = new LongAdder();
    private final LongAdder retries = new LongAdder();
    private final LongAdder flushes = new LongAdder();
    private final LongAdder flushNanos = new LongAdder();
    private final LongAdder outcomesUnknown = new LongAdder();
    private final LongAdder outcomesResolved = new LongAdder();
    private final LongAdder incrementsDropped = new LongAdder();
    private volatile IntSupplier queued = () -> 0;

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

    void flushed(int increments, long nanos) {
        flushes.increment();
        flushNanos.add(nanos);
        incrementsApplied.add(increments);
    }

    void outcomeUnknown() {
        outcomesUnknown.increment();
    }

    void outcomeResolved() {
        outcomesResolved.increment();
    }

    void dropped(int increments) {
        incrementsDropped.add(increments);
    }

    void watchQueue(IntSupplier size) {
        this.queued = size;
    }

    /**
     * Takes a snapshot.
     *
     * @return the counts so far
     */
    public SlottedStats snapshot() {
        return new SlottedStats(incrementsApplied.sum(), retries.sum(), flushes.sum(), flushNanos.sum(),
                outcomesUnknown.sum(), outcomesResolved.sum(), incrementsDropped.sum(),
                queued.getAsInt());
    }
}
