package io.slotted;

import java.time.Duration;
import java.util.Map;

/**
 * The settings a {@link SlottedCounters} instance runs with. Immutable; made by
 * {@link SlottedCountersBuilder#build()}, which has already checked every value.
 */
public final class SlottedConfig {
    private final String table;
    private final WriteMode writeMode;
    private final int defaultSlots;
    private final Map<Integer, Integer> slotsByType;
    private final int maxAttempts;
    private final Duration retryBackoff;

    SlottedConfig(String table, WriteMode writeMode, int defaultSlots,
            Map<Integer, Integer> slotsByType, int maxAttempts, Duration retryBackoff) {
        this.table = table;
        this.writeMode = writeMode;
        this.defaultSlots = defaultSlots;
        this.slotsByType = Map.copyOf(slotsByType);
        this.maxAttempts = maxAttempts;
        this.retryBackoff = retryBackoff;
    }

    /**
     * The counter table's name, possibly qualified by a schema ({@code counters.slotted_counters}).
     *
     * @return the table name as configured
     */
    public String table() {
        return table;
    }

    /**
     * How increments are written.
     *
     * @return the write mode
     */
    public WriteMode writeMode() {
        return writeMode;
    }

    /**
     * The number of slots a counter type gets: its override if one was set, else the default.
     *
     * @param recordType the counter type
     * @return the number of slots, from 1 to {@link SlottedCountersBuilder#MAX_SLOTS}
     */
    public int slots(int recordType) {
        return slotsByType.getOrDefault(recordType, defaultSlots);
    }

    /**
     * How many times a write is tried when it meets a deadlock, lock-wait timeout or
     * serialization failure.
     *
     * @return the maximum number of attempts, at least 1
     */
    public int maxAttempts() {
        return maxAttempts;
    }

    /**
     * The base of the exponential backoff between attempts; each wait is jittered.
     *
     * @return the first retry's nominal wait
     */
    public Duration retryBackoff() {
        return retryBackoff;
    }

    @Override
    public String toString() {
        return "SlottedConfig[table=" + table + ", writeMode=" + writeMode + ", slots=" + defaultSlots
                + ", slotsByType=" + slotsByType + ", maxAttempts=" + maxAttempts
                + ", retryBackoff=" + retryBackoff + "]";
    }
}
