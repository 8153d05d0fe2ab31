package io.slotted.internal.engine;

import io.slotted.SlottedStats;
import java.util.concurrent.atomic.LongAdder;

/** Counts what the engine does, cheaply enough for the hot path. */
public final class StatsRecorder {
    private final LongAdder incrementsApplied = new LongAdder();
    private final LongAdder retries = new LongAdder();

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
     * Takes a snapshot.
     *
     * @return the counts so far
     */
    public SlottedStats snapshot() {
        return new SlottedStats(incrementsApplied.sum(), retries.sum());
    }
}
