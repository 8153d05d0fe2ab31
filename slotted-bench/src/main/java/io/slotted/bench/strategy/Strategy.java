package io.slotted.bench.strategy;

import java.sql.SQLException;

/**
 * One way of counting that the harness measures: a single-row {@code UPDATE}, Slotted in one of its
 * write modes, Redis {@code INCR}, or the database's own limit for multi-row upserts.
 *
 * <p>A strategy {@link #open opens} a fresh, empty store for each cell of the benchmark (one
 * workload, writer count and round), so cells never see each other's rows or keys. Each writer
 * thread then takes its own {@link Incrementer}, which may hold a connection for the thread's life,
 * exactly as an application thread would.
 */
public interface Strategy {

    /**
     * The name used on the command line and in results, such as {@code grouped}.
     *
     * @return the name
     */
    String name();

    /**
     * Creates an empty store for one cell and whatever pool the writers need.
     *
     * @param cell a short name unique within the run, usable in a table name
     * @param writers how many writer threads will take an incrementer
     * @param keySpace record ids run from 1 to this
     * @return the cell's store; the caller closes it
     * @throws Exception if the store cannot be made
     */
    Run open(String cell, int writers, int keySpace) throws Exception;

    /** One cell's store. */
    interface Run extends AutoCloseable {

        /**
         * Gives one writer thread its own way to increment.
         *
         * @return an incrementer for the calling thread only
         * @throws Exception if, for instance, no connection can be had
         */
        Incrementer incrementer() throws Exception;

        /**
         * Called once the writers have stopped: makes everything acknowledged durable. Only
         * write-behind needs it.
         *
         * @throws Exception if pending work cannot be written
         */
        default void drain() throws Exception {
        }

        /**
         * Reads every counter back from the store, after {@link #drain()}.
         *
         * @return the total of record id {@code i + 1} at index {@code i}
         * @throws Exception if the store cannot be read
         */
        long[] totals() throws Exception;

        /**
         * What the engine reports about its own work, such as flushes and retries; empty when it
         * reports nothing.
         *
         * @return engine counts, or {@link EngineCounts#NONE}
         */
        default EngineCounts engineCounts() {
            return EngineCounts.NONE;
        }

        /**
         * Drops the cell's table or keys and closes its pool.
         *
         * @throws SQLException if the table cannot be dropped
         */
        @Override
        void close() throws SQLException;
    }

    /**
     * One writer thread's way to increment a counter, or several counters in one call when the
     * strategy writes several rows per statement.
     */
    interface Incrementer extends AutoCloseable {

        /**
         * Adds 1 to a counter and returns once the strategy acknowledges it.
         *
         * @param recordId the counter
         * @throws Exception if the increment was not acknowledged
         */
        void increment(long recordId) throws Exception;

        /**
         * How many increments the harness hands to each call of {@link #incrementEach}: 1 unless
         * the strategy makes several at once. The harness counts each of them as an increment and
         * records one latency for the call.
         *
         * @return at least 1
         */
        default int incrementsPerCall() {
            return 1;
        }

        /**
         * Adds 1 to the counter of each element (2 to a counter given twice) and returns once the
         * strategy acknowledges them all. By default one {@link #increment(long)} after another,
         * which is all-or-nothing only for the single counter the harness then passes; a strategy
         * whose calls take more counters overrides it with one that is.
         *
         * @param recordIds {@link #incrementsPerCall()} counters
         * @throws Exception if the increments were not acknowledged; then none of them counts
         */
        default void incrementEach(long[] recordIds) throws Exception {
            for (long recordId : recordIds) {
                increment(recordId);
            }
        }

        /**
         * Releases what the thread held, such as its connection.
         *
         * @throws SQLException if the connection cannot be returned
         */
        @Override
        default void close() throws SQLException {
        }
    }
}
