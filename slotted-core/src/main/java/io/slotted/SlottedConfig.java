package io.slotted;

import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The settings a {@link SlottedCounters} instance runs with. Immutable; made when the counters
 * are built, from settings that have each been checked.
 */
public final class SlottedConfig {
    private final String table;
    private final WriteMode writeMode;
    private final int defaultSlots;
    private final Map<Integer, Integer> slotsByType;
    private final Map<Integer, TimeBuckets> bucketsByType;
    private final Map<Integer, Limits> limitsByType;
    private final Set<Integer> expiringTypes;
    private final int maxAttempts;
    private final Duration retryBackoff;
    private final int flushers;
    private final int queueCapacity;
    private final Duration queueFullWait;
    private final Duration flushInterval;
    private final Duration outcomeResolutionTimeout;
    private final Duration idempotencyRetention;
    private final Duration rollUpEvery;
    private final boolean readsIncludeUnwritten;
    private final Clock clock;
    private final Ticker ticker;
    private final int newNamesPerSecond;
    private final int maxTypeNames;

    SlottedConfig(Settings settings, int defaultSlots) {
        this.table = settings.table;
        this.writeMode = settings.writeMode;
        this.defaultSlots = defaultSlots;
        this.slotsByType = Map.copyOf(settings.slotsByType);
        this.bucketsByType = Map.copyOf(settings.bucketsByType);
        this.limitsByType = Map.copyOf(settings.limitsByType);
        this.expiringTypes = Set.copyOf(settings.expiringTypes);
        this.maxAttempts = settings.maxAttempts;
        this.retryBackoff = settings.retryBackoff;
        this.flushers = settings.flushers;
        this.queueCapacity = settings.queueCapacity;
        this.queueFullWait = settings.queueFullWait;
        this.flushInterval = settings.flushInterval;
        this.outcomeResolutionTimeout = settings.outcomeResolutionTimeout;
        this.idempotencyRetention = settings.idempotencyRetention;
        this.rollUpEvery = settings.rollUpEvery;
        this.readsIncludeUnwritten = settings.readsIncludeUnwritten;
        this.clock = settings.clock;
        this.ticker = settings.ticker;
        this.newNamesPerSecond = settings.newNamesPerSecond;
        this.maxTypeNames = settings.maxTypeNames;
    }

    /**
     * How long an idempotency key is remembered, at least; older keys are pruned in the background.
     *
     * @return the retention period
     */
    public Duration idempotencyRetention() {
        return idempotencyRetention;
    }

    /**
     * Whether reads add this process's accepted but unwritten {@code BUFFERED} increments.
     *
     * @return true if they do
     */
    public boolean readsIncludeUnwritten() {
        return readsIncludeUnwritten;
    }

    /**
     * How often bound counter types are rolled up in the background by this instance.
     *
     * @return the interval, or {@link Duration#ZERO} when this instance rolls up only when asked
     */
    public Duration rollUpEvery() {
        return rollUpEvery;
    }

    /**
     * Where wall-clock time comes from, for key retention and ledger housekeeping.
     *
     * @return the clock
     */
    public Clock clock() {
        return clock;
    }

    /**
     * Where elapsed time comes from, for the write path's durations and timeouts.
     *
     * @return the ticker
     */
    public Ticker ticker() {
        return ticker;
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
     * The limits this process was given for a counter type ({@link SlottedCountersBuilder#limits}).
     *
     * @param recordType the counter type
     * @return its limits, or {@link Limits#NONE} when it was given none
     */
    public Limits limits(int recordType) {
        return limitsByType.getOrDefault(recordType, Limits.NONE);
    }

    /**
     * Whether this process was told that a counter type's counters may expire
     * ({@link SlottedCountersBuilder#expiring}).
     *
     * @param recordType the counter type
     * @return true if they may
     */
    public boolean expiring(int recordType) {
        return expiringTypes.contains(recordType);
    }

    /**
     * Every counter type whose counters may expire.
     *
     * @return an immutable set of record types
     */
    public Set<Integer> expiringTypes() {
        return expiringTypes;
    }

    /**
     * Every counter type this process was given limits for.
     *
     * @return an immutable map from record type to limits
     */
    public Map<Integer, Limits> limits() {
        return limitsByType;
    }

    /**
     * The time buckets a counter type also counts in, if it was given any.
     *
     * @param recordType the counter type
     * @return its buckets, or empty when it keeps none
     */
    public Optional<TimeBuckets> buckets(int recordType) {
        return Optional.ofNullable(bucketsByType.get(recordType));
    }

    /**
     * Every counter type that counts per time bucket, with its buckets.
     *
     * @return an immutable map from record type to buckets
     */
    public Map<Integer, TimeBuckets> buckets() {
        return bucketsByType;
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

    /**
     * How many flushers write in parallel in {@code GROUPED} and {@code BUFFERED} modes, each on
     * its own connection and its own slots.
     *
     * @return the number of flushers, at least 1
     */
    public int flushers() {
        return flushers;
    }

    /**
     * How many increments may wait for a flush before callers are held back.
     *
     * @return the queue's capacity
     */
    public int queueCapacity() {
        return queueCapacity;
    }

    /**
     * How long a caller waits for room in a full queue before failing with
     * {@link QueueFullException}.
     *
     * @return the wait; zero means fail at once
     */
    public Duration queueFullWait() {
        return queueFullWait;
    }

    /**
     * How often {@code BUFFERED} mode writes what it has accepted: the most a crash can lose.
     *
     * @return the interval between flushes
     */
    public Duration flushInterval() {
        return flushInterval;
    }

    /**
     * How long a flush whose commit outcome is unknown keeps trying to learn it before its callers
     * are told {@link OutcomeUnknownException}.
     *
     * @return the time allowed
     */
    public Duration outcomeResolutionTimeout() {
        return outcomeResolutionTimeout;
    }

    /**
     * How many new string ids this process records per second at most.
     *
     * @return the rate
     */
    public int newNamesPerSecond() {
        return newNamesPerSecond;
    }

    /**
     * How many type names the name dictionary may hold.
     *
     * @return the bound
     */
    public int maxTypeNames() {
        return maxTypeNames;
    }

    @Override
    public String toString() {
        return "SlottedConfig[table=" + table + ", writeMode=" + writeMode + ", slots=" + defaultSlots
                + ", slotsByType=" + slotsByType + ", limitsByType=" + limitsByType + ", expiringTypes=" + expiringTypes + ", maxAttempts=" + maxAttempts
                + ", retryBackoff=" + retryBackoff + ", flushers=" + flushers
                + ", queueCapacity=" + queueCapacity + ", queueFullWait=" + queueFullWait
                + ", flushInterval=" + flushInterval
                + ", outcomeResolutionTimeout=" + outcomeResolutionTimeout
                + ", idempotencyRetention=" + idempotencyRetention
                + ", rollUpEvery=" + rollUpEvery
                + ", readsIncludeUnwritten=" + readsIncludeUnwritten
                + ", newNamesPerSecond=" + newNamesPerSecond + ", maxTypeNames=" + maxTypeNames + "]";
    }
}
