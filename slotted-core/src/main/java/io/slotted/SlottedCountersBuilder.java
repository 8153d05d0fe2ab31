package io.slotted;

import io.slotted.internal.DefaultSlottedCounters;
import io.slotted.internal.sql.TableName;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
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
    public static final int MAX_SLOTS = 1024;
    /** The largest number of attempts a write may be given. */
    public static final int MAX_ATTEMPTS = 100;

    private final DataSource dataSource;
    private final Set<String> given = new HashSet<>();
    private final Map<Integer, Integer> slotsByType = new HashMap<>();
    private String table = "slotted_counters";
    private WriteMode writeMode = WriteMode.DIRECT;
    private Integer defaultSlots;
    private int maxAttempts = 5;
    private Duration retryBackoff = Duration.ofMillis(10);

    SlottedCountersBuilder(DataSource dataSource) {
        this.dataSource = Objects.requireNonNull(dataSource, "dataSource must not be null");
    }

    /**
     * The counter table, optionally qualified by a schema. Default {@code slotted_counters}.
     *
     * @param table letters, digits and underscores, starting with a letter or underscore, at most
     *     64 characters per part
     * @return this builder
     * @throws IllegalArgumentException if the name is not such an identifier
     */
    public SlottedCountersBuilder table(String table) {
        once("table");
        this.table = TableName.parse(table).toString();
        return this;
    }

    /**
     * How increments are written. Default {@link WriteMode#DIRECT}.
     *
     * @param writeMode the write mode
     * @return this builder
     */
    public SlottedCountersBuilder writeMode(WriteMode writeMode) {
        once("writeMode");
        this.writeMode = Objects.requireNonNull(writeMode, "writeMode must not be null");
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
        once("slots for type " + recordType);
        slotsByType.put(recordType, checkSlots(slots));
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
        if (maxAttempts < 1 || maxAttempts > MAX_ATTEMPTS) {
            throw new IllegalArgumentException(
                    "maxAttempts must be between 1 and " + MAX_ATTEMPTS + ", but was " + maxAttempts);
        }
        this.maxAttempts = maxAttempts;
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
        Objects.requireNonNull(retryBackoff, "retryBackoff must not be null");
        if (retryBackoff.isNegative() || retryBackoff.compareTo(Duration.ofSeconds(10)) > 0) {
            throw new IllegalArgumentException(
                    "retryBackoff must be between 0 and 10s, but was " + retryBackoff);
        }
        this.retryBackoff = retryBackoff;
        return this;
    }

    /**
     * Builds the counters. No connection is opened until the first read or write, so an
     * application can start while its database is still coming up.
     *
     * @return counters ready to use
     */
    public SlottedCounters build() {
        int slots = defaultSlots != null ? defaultSlots : writeMode.defaultSlots();
        SlottedConfig config = new SlottedConfig(
                table, writeMode, slots, slotsByType, maxAttempts, retryBackoff);
        return new DefaultSlottedCounters(dataSource, config);
    }

    private void once(String setting) {
        if (!given.add(setting)) {
            throw new IllegalStateException(setting + " was already set");
        }
    }

    private static int checkSlots(int slots) {
        if (slots < 1 || slots > MAX_SLOTS) {
            throw new IllegalArgumentException(
                    "slots must be between 1 and " + MAX_SLOTS + ", but was " + slots);
        }
        return slots;
    }
}
