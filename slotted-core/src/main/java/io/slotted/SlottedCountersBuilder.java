package io.slotted;

import io.slotted.internal.DefaultSlottedCounters;
import io.slotted.internal.sql.SlotRange;
import io.slotted.internal.sql.TableName;
import java.time.Clock;
import java.time.Duration;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;
import javax.sql.DataSource;

/**
 * Configures and builds {@link SlottedCounters}. Each setting is checked when it is given: a bad
 * value fails at once with {@link IllegalArgumentException} naming the rule and the value, and a
 * setting given twice fails with {@link IllegalStateException}. Building touches no database; the
 * first read or write does.
 */
public final class SlottedCountersBuilder {
    /** The largest number of slots a counter may have. */
    public static final int MAX_SLOTS = SlotRange.MAX_SLOTS;
    /** The largest number of attempts a write may be given. */
    public static final int MAX_ATTEMPTS = 100;

    /** The largest number of parallel flushers. */
    public static final int MAX_FLUSHERS = 64;

    /**
     * The flushers of {@code GROUPED} and {@code BUFFERED} modes unless {@link #flushers(int)}
     * says otherwise; each keeps a connection of the data source while the counters are open.
     */
    public static final int DEFAULT_FLUSHERS = Settings.DEFAULT_FLUSHERS;
    /** New string ids a process records per second at most, by default. */
    public static final int DEFAULT_NEW_NAMES_PER_SECOND = Settings.DEFAULT_NEW_NAMES_PER_SECOND;
    /** Type names the dictionary holds at most, by default. */
    public static final int DEFAULT_MAX_TYPE_NAMES = Settings.DEFAULT_MAX_TYPE_NAMES;

    private final DataSource dataSource;
    private final Set<String> given = new HashSet<>();
    private final Settings settings = new Settings();
    private Integer defaultSlots;

    SlottedCountersBuilder(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource must not be null");
    }

    /**
     * The counter table, optionally qualified by a schema. Default {@code slotted_counters}.
     *
     * @param table letters, digits and underscores, starting with a letter or underscore, at most
     *     48 characters per part
     * @return this builder
     * @throws IllegalArgumentException if the name is not such an identifier
     */
    public SlottedCountersBuilder table(String table) {
        once("table");
        settings.table = TableName.parse(table).toString();
        return this;
    }

    /**
     * How increments are written. Default {@link WriteMode#GROUPED}.
     *
     * @param writeMode the write mode
     * @return this builder
     */
    public SlottedCountersBuilder writeMode(WriteMode writeMode) {
        once("writeMode");
        settings.writeMode = Objects.requireNonNull(writeMode, "writeMode must not be null");
        return this;
    }

    /**
     * The number of slots each counter is spread over. Default: the write mode's
     * {@link WriteMode#defaultSlots()}. More slots mean less row-lock contention on a hot counter
     * and more rows to sum on read.
     *
     * @param slots from 1 to {@value #MAX_SLOTS}
     * @return this builder
     * @throws IllegalArgumentException if {@code slots} is out of range
     */
    public SlottedCountersBuilder slots(int slots) {
        once("slots");
        this.defaultSlots = checkSlots(slots);
        return this;
    }

    /**
     * The number of slots for one counter type, overriding {@link #slots(int)} for it. Lowering a
     * type's slot count later is safe: reads sum every row, whatever its slot.
     *
     * @param recordType the counter type
     * @param slots from 1 to {@value #MAX_SLOTS}
     * @return this builder
     * @throws IllegalArgumentException if {@code slots} is out of range
     */
    public SlottedCountersBuilder slots(int recordType, int slots) {
        CounterArguments.checkRecordType(recordType);
        once("slots for type " + recordType);
        settings.slotsByType.put(recordType, checkSlots(slots));
        return this;
    }

    /**
     * Makes a counter type also count per time bucket, for {@link TimeSeries#series} and
     * {@link TimeSeries#top}: every increment of the type is also added to the bucket of the
     * moment it was accepted (by {@link #clock(Clock)}), in the same transaction as the total.
     * Buckets older than the retention are pruned in the background. Every process writing the
     * type should configure the same buckets: increments made by one that does not are not counted
     * in any bucket.
     *
     * @param recordType the counter type
     * @param unit the bucket length: minute, hour or day, aligned in UTC
     * @param retention how long buckets are kept: a whole number of buckets, at least one
     * @return this builder
     * @throws IllegalArgumentException if the retention is out of range (see {@link TimeBuckets})
     * @throws IllegalStateException if the type's buckets were already set
     */
    public SlottedCountersBuilder buckets(int recordType, BucketUnit unit, Duration retention) {
        CounterArguments.checkRecordType(recordType);
        TimeBuckets buckets = new TimeBuckets(unit, retention);
        once("buckets for type " + recordType);
        settings.bucketsByType.put(recordType, buckets);
        return this;
    }

    /**
     * Keeps a counter type's totals within bounds: an increment that would take a counter's total
     * outside is refused ({@link LimitExceededException}, or false from
     * {@link SlottedCounters#tryAdd}) and counts nowhere; every other increment is applied. The
     * first process to write the type records the limits in the database; a process given other
     * limits for it refuses to write, and one given none enforces the recorded ones. Far from a
     * bound, a flush spends from its flusher's allowance of the headroom without the counter's
     * lock; near it, the flush decides its increments under the counter's lock, once per flush.
     * Not in {@code BUFFERED} mode, whose callers are released before their increments are decided.
     *
     * <p>Limits {@link Limits#per(Window) per window} (a quota: {@code Limits.atMost(1000).per(Window.HOUR)})
     * bound what each counter adds within each window, counted from 0 at its start; the counter's
     * total counts on across windows. Each increment counts in the window of the moment it was
     * accepted, by this process's {@link #clock(java.time.Clock) clock}, and every flush decides a
     * windowed counter's increments under the lock of its window, once per flush. The type keeps
     * its counts per window in the time bucket table, one bucket per window, so it takes no
     * {@link #buckets} of its own.
     *
     * @param recordType the counter type
     * @param limits the bounds, such as {@code Limits.atLeast(0)}
     * @return this builder
     * @throws IllegalArgumentException if {@code limits} bound nothing
     * @throws IllegalStateException if the type's limits were already set
     */
    public SlottedCountersBuilder limits(int recordType, Limits limits) {
        CounterArguments.checkRecordType(recordType);
        Objects.requireNonNull(limits, "limits must not be null");
        if (!limits.bounded()) {
            throw new IllegalArgumentException("limits for type " + recordType + " bound nothing: give a"
                    + " lower bound, an upper bound or both, such as Limits.atLeast(0)");
        }
        once("limits for type " + recordType);
        settings.limitsByType.put(recordType, limits);
        return this;
    }

    /**
     * Lets a counter type's counters expire, as Redis keys do: each counter may be given a time at
     * which it reads 0 again and counts from 0 ({@link SlottedCounters#expiry()}). Every write of
     * the type then takes, in its transaction, a lock on the counter's row in the expiry table
     * ({@code <table>_expiry}) and clears a counter whose time has passed before it adds, so that
     * no increment counts into a counter that has expired; writes of one expiring counter from
     * many processes therefore go one flush at a time. Every process writing the type must be
     * given it: one that is not writes without the lock. Times are decided by this process's
     * {@link #clock(java.time.Clock) clock}. An expiring type takes no limits, no time buckets and
     * no owner column.
     *
     * @param recordType the counter type
     * @return this builder
     * @throws IllegalStateException if the type was already made expiring
     */
    public SlottedCountersBuilder expiring(int recordType) {
        CounterArguments.checkRecordType(recordType);
        once("expiring type " + recordType);
        settings.expiringTypes.add(recordType);
        return this;
    }

    /**
     * How many times a write is tried when it meets a deadlock, lock-wait timeout or
     * serialization failure, counting the first try. Default 5.
     *
     * @param maxAttempts from 1 (never retry) to {@value #MAX_ATTEMPTS}
     * @return this builder
     * @throws IllegalArgumentException if out of range
     */
    public SlottedCountersBuilder maxAttempts(int maxAttempts) {
        once("maxAttempts");
        settings.maxAttempts = checkRange("maxAttempts", maxAttempts, 1, MAX_ATTEMPTS);
        return this;
    }

    /**
     * The first retry's nominal wait; each later wait doubles, up to one second, and every wait is
     * jittered so that writers that failed together do not retry together. Default 10 ms.
     *
     * @param retryBackoff from 0 to 10 seconds
     * @return this builder
     * @throws IllegalArgumentException if negative or longer than 10 seconds
     */
    public SlottedCountersBuilder retryBackoff(Duration retryBackoff) {
        once("retryBackoff");
        settings.retryBackoff = checkDuration("retryBackoff", retryBackoff, Duration.ZERO,
                Duration.ofSeconds(10));
        return this;
    }

    /**
     * How many flushers write in parallel in {@code GROUPED} and {@code BUFFERED} modes. Each
     * writes only its own share of each counter's slots, so flushers never wait on each other's
     * row locks. Each borrows one connection of the data source when the counters are built and
     * keeps it until they close: a caller inside a transaction holds a connection of its own
     * while it waits for a flush, and a flusher that had to borrow then could find every
     * connection held by such callers. Give the pool these connections besides the
     * application's. Default {@value #DEFAULT_FLUSHERS}.
     *
     * @param flushers from 1 to {@value #MAX_FLUSHERS}
     * @return this builder
     * @throws IllegalArgumentException if out of range
     */
    public SlottedCountersBuilder flushers(int flushers) {
        once("flushers");
        settings.flushers = checkRange("flushers", flushers, 1, MAX_FLUSHERS);
        return this;
    }

    /**
     * How many new string ids this process may record in the name dictionary per second (see
     * {@link CounterNames}), so that a client sending a new id with every increment cannot fill the
     * dictionary, or hold the database, faster than this. A burst of up to one second's worth is
     * served at once. Ids already recorded, by any process, are never refused; a new id over the
     * rate fails with {@link NameLimitException}. Ids that are numbers never count. Default
     * {@value #DEFAULT_NEW_NAMES_PER_SECOND}.
     *
     * @param perSecond 1 to 1,000,000
     * @return this builder
     * @throws IllegalArgumentException if out of range
     * @throws IllegalStateException if already set
     */
    public SlottedCountersBuilder newNamesPerSecond(int perSecond) {
        once("newNamesPerSecond");
        settings.newNamesPerSecond = checkRange("newNamesPerSecond", perSecond, 1, 1_000_000);
        return this;
    }

    /**
     * How many type names the name dictionary may hold, counted over every process (see
     * {@link CounterNames#type}); a new type name beyond it fails with {@link NameLimitException}.
     * Processes that record names at the same moment may pass it by a few. Default
     * {@value #DEFAULT_MAX_TYPE_NAMES}.
     *
     * @param max 0 (no new type names; pinned ones are still recorded) to 1,000,000
     * @return this builder
     * @throws IllegalArgumentException if out of range
     * @throws IllegalStateException if already set
     */
    public SlottedCountersBuilder maxTypeNames(int max) {
        once("maxTypeNames");
        settings.maxTypeNames = checkRange("maxTypeNames", max, 0, 1_000_000);
        return this;
    }

    /**
     * How many increments may wait for a flush. When the queue is full, callers wait up to
     * {@link #queueFullWait(Duration)} for room, then fail with {@link QueueFullException}; nothing
     * is dropped and memory stays bounded. Default 100,000.
     *
     * @param queueCapacity from 1 to 10,000,000
     * @return this builder
     * @throws IllegalArgumentException if out of range
     */
    public SlottedCountersBuilder queueCapacity(int queueCapacity) {
        once("queueCapacity");
        settings.queueCapacity = checkRange("queueCapacity", queueCapacity, 1, 10_000_000);
        return this;
    }

    /**
     * How long a caller waits for room in a full queue. Default 1 second; zero fails at once.
     *
     * @param queueFullWait from 0 to 1 hour
     * @return this builder
     * @throws IllegalArgumentException if negative or longer than an hour
     */
    public SlottedCountersBuilder queueFullWait(Duration queueFullWait) {
        once("queueFullWait");
        settings.queueFullWait = checkDuration("queueFullWait", queueFullWait, Duration.ZERO,
                Duration.ofHours(1));
        return this;
    }

    /**
     * How often {@code BUFFERED} mode writes: the most increments a crash can lose is what was
     * accepted in one interval. Default 200 ms.
     *
     * @param flushInterval from 1 ms to 1 hour
     * @return this builder
     * @throws IllegalArgumentException if out of range
     */
    public SlottedCountersBuilder flushInterval(Duration flushInterval) {
        once("flushInterval");
        settings.flushInterval = checkDuration("flushInterval", flushInterval, Duration.ofMillis(1),
                Duration.ofHours(1));
        return this;
    }

    /**
     * How long a flush whose commit outcome is unknown (the connection was lost during COMMIT)
     * keeps trying to learn the outcome from the flush ledger before its callers get
     * {@link OutcomeUnknownException}. Default 30 seconds.
     *
     * @param timeout from 0 to 1 hour
     * @return this builder
     * @throws IllegalArgumentException if out of range
     */
    public SlottedCountersBuilder outcomeResolutionTimeout(Duration timeout) {
        once("outcomeResolutionTimeout");
        settings.outcomeResolutionTimeout = checkDuration("outcomeResolutionTimeout", timeout,
                Duration.ZERO, Duration.ofHours(1));
        return this;
    }

    /**
     * How long an idempotency key is remembered, at least: a retry with the same key within this
     * period applies nothing. Default 24 hours.
     *
     * @param retention from 1 minute to 365 days
     * @return this builder
     * @throws IllegalArgumentException if out of range
     */
    public SlottedCountersBuilder idempotencyRetention(Duration retention) {
        once("idempotencyRetention");
        settings.idempotencyRetention = checkDuration("idempotencyRetention", retention,
                Duration.ofMinutes(1), Duration.ofDays(365));
        return this;
    }

    /**
     * Rolls up counter types bound to an owner column ({@link OwnerColumns#adopt}) in the
     * background, this often. Off by default: an application turns it on in the processes it
     * wants to roll up, or runs {@code slotted rollup} or {@code slotted serve} instead. Any number
     * of processes may have it on; a database lock lets one at a time roll up each type, and a
     * type rolled up by any process less than this long ago is left alone, so an owner row is
     * written at most once per interval.
     *
     * @param interval from 10 ms to 1 hour
     * @return this builder
     * @throws IllegalArgumentException if out of range
     */
    public SlottedCountersBuilder rollUpEvery(Duration interval) {
        once("rollUpEvery");
        settings.rollUpEvery = checkDuration("rollUpEvery", interval, Duration.ofMillis(10),
                Duration.ofHours(1));
        return this;
    }

    /**
     * In {@code BUFFERED} mode, whether {@code get} and {@code getAll} add this process's
     * increments that were accepted but not yet written to what the database holds, so that an
     * application reads its own increments at once (GitLab's {@code returns_current}). Each
     * increment is counted exactly once in such a read, whether its flush commits before, during
     * or after it. Other processes' unwritten increments are not seen. Default false: reads show
     * what is in the database, as every other process sees it.
     *
     * @param include true to include unwritten increments in reads
     * @return this builder
     */
    public SlottedCountersBuilder readsIncludeUnwritten(boolean include) {
        once("readsIncludeUnwritten");
        settings.readsIncludeUnwritten = include;
        return this;
    }

    /**
     * The wall clock used for idempotency key retention and ledger housekeeping. Default the
     * system clock in UTC; tests pass one they can move.
     *
     * @param clock the clock
     * @return this builder
     */
    public SlottedCountersBuilder clock(Clock clock) {
        once("clock");
        settings.clock = Objects.requireNonNull(clock, "clock must not be null");
        return this;
    }

    /**
     * The source of elapsed time for the write path: flush durations, idle time, and how long an
     * unknown commit outcome may take to resolve ({@link #outcomeResolutionTimeout(Duration)}).
     * Default {@link Ticker#systemTicker()}; tests pass one they can move.
     *
     * @param ticker the ticker
     * @return this builder
     */
    public SlottedCountersBuilder ticker(Ticker ticker) {
        once("ticker");
        settings.ticker = Objects.requireNonNull(ticker, "ticker must not be null");
        return this;
    }

    /**
     * Builds the counters. No connection is opened until the first read or write, so an
     * application can start while its database is still coming up.
     *
     * @return counters ready to use
     */
    public SlottedCounters build() {
        return new DefaultSlottedCounters(dataSource, config());
    }

    /**
     * The settings, checked across one another, without the counters: for {@link #build()}, and
     * for tests of the engine's parts, which need a configuration but no threads or connections.
     */
    SlottedConfig config() {
        if (settings.readsIncludeUnwritten && settings.writeMode != WriteMode.BUFFERED) {
            throw new IllegalStateException("readsIncludeUnwritten applies to BUFFERED mode only:"
                    + " in " + settings.writeMode + " mode an increment is written before add returns");
        }
        if (!settings.limitsByType.isEmpty() && settings.writeMode == WriteMode.BUFFERED) {
            throw new IllegalStateException("limits need a mode that tells each caller whether its increment"
                    + " was applied: BUFFERED releases callers before their increments are decided; use"
                    + " GROUPED or DIRECT");
        }
        settings.limitsByType.forEach((type, limits) -> {
            if (limits.windowed() && settings.bucketsByType.containsKey(type)) {
                throw new IllegalStateException("type " + type + " has limits per window (" + limits + "), whose"
                        + " windows are its time buckets: give it no buckets of its own");
            }
        });
        for (int type : settings.expiringTypes) {
            if (settings.limitsByType.containsKey(type) || settings.bucketsByType.containsKey(type)) {
                throw new IllegalStateException("type " + type + " expires, and an expiring type takes no "
                        + (settings.limitsByType.containsKey(type) ? "limits" : "time buckets") + ": a counter that"
                        + " expires starts again from 0, which its " + (settings.limitsByType.containsKey(type)
                        ? "limits" : "buckets") + " would not see; give it one or the other");
            }
        }
        int slots = defaultSlots != null ? defaultSlots : settings.writeMode.defaultSlots();
        return new SlottedConfig(settings, slots);
    }

    private void once(String setting) {
        if (!given.add(setting)) {
            throw new IllegalStateException(setting + " was already set");
        }
    }

    private static int checkSlots(int slots) {
        return checkRange("slots", slots, 1, MAX_SLOTS);
    }

    private static int checkRange(String setting, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(
                    setting + " must be between " + min + " and " + max + ", but was " + value);
        }
        return value;
    }

    private static Duration checkDuration(String setting, Duration value, Duration min, Duration max) {
        Objects.requireNonNull(value, setting + " must not be null");
        if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
            throw new IllegalArgumentException(setting + " must be between " + millis(min) + " and "
                    + millis(max) + ", but was " + millis(value));
        }
        return value;
    }

    private static String millis(Duration duration) {
        return duration.toMillis() + "ms";
    }
}
