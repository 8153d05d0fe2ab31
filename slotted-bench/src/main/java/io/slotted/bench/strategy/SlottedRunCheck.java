package io.slotted.bench.strategy;

import java.sql.SQLException;

/**
 * A {@link SlottedRun} that a strategy checks in a way of its own (its buckets, its answers, its
 * refusals): everything it does not change is the run's.
 */
interface SlottedRunCheck extends Strategy.Run {
    /** The run checked. */
    SlottedRun run();

    @Override
    default Strategy.Incrementer incrementer() {
        return run().incrementer();
    }

    @Override
    default void drain() {
        run().drain();
    }

    @Override
    default EngineCounts engineCounts() {
        return run().engineCounts();
    }

    @Override
    default void close() throws SQLException {
        run().close();
    }
}
