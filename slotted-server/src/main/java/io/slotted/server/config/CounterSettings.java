package io.slotted.server.config;

import io.slotted.Limits;
import io.slotted.TimeBuckets;
import io.slotted.WriteMode;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * How the counters are configured beyond the database: the table, the write mode, the slots, how
 * often the counter types bound to owner columns are rolled up in the background, which types
 * also count per time bucket, which are kept within limits, and whose counters may expire.
 *
 * <p>The table, mode and slots are not checked here: the library's builder checks each one as it
 * is applied and names the rule, so that a rule such as the slot range is written once. The same
 * goes for the range of the roll-up interval; what is the server's own is checked here: 0 means no
 * background roll-up, and a negative interval means nothing.
 *
 * @param table the counter table
 * @param mode how increments are written
 * @param slots slots per counter, or null for the write mode's default
 * @param rollUpEvery how often bound types are rolled up in the background; {@link Duration#ZERO}
 *     for never
 * @param buckets the types that also count per time bucket, with their buckets
 * @param names the bounds on new names
 * @param limits the types whose totals are kept within limits, with their limits
 * @param expiring the types whose counters may expire
 */
public record CounterSettings(String table, WriteMode mode, Integer slots, Duration rollUpEvery,
        Map<Integer, TimeBuckets> buckets, NameBounds names, Map<Integer, Limits> limits, Set<Integer> expiring) {
    /** How often the service rolls up bound types unless told otherwise. */
    public static final Duration SERVICE_ROLL_UP = Duration.ofSeconds(1);

    /**
     * The defaults of a command: table {@code slotted_counters}, {@code GROUPED}, the mode's slots,
     * no background roll-up.
     */
    public static final CounterSettings DEFAULTS =
            new CounterSettings("slotted_counters", WriteMode.GROUPED, null, Duration.ZERO);

    /**
     * Checks the roll-up interval.
     *
     * @throws IllegalArgumentException if {@code rollUpEvery} is negative
     * @throws NullPointerException if {@code rollUpEvery} is null
     */
    public CounterSettings {
        Objects.requireNonNull(rollUpEvery, "rollUpEvery");
        Objects.requireNonNull(names, "names");
        buckets = Map.copyOf(buckets);
        limits = Map.copyOf(limits);
        expiring = Set.copyOf(expiring);
        if (rollUpEvery.isNegative()) {
            throw new IllegalArgumentException("rollUpEvery must be 0 (no background roll-up) or"
                    + " positive, but was " + rollUpEvery.toMillis() + "ms");
        }
    }

    /**
     * Settings with no time buckets.
     *
     * @param table the counter table
     * @param mode how increments are written
     * @param slots slots per counter, or null for the write mode's default
     * @param rollUpEvery how often bound types are rolled up; {@link Duration#ZERO} for never
     */
    public CounterSettings(String table, WriteMode mode, Integer slots, Duration rollUpEvery) {
        this(table, mode, slots, rollUpEvery, Map.of(), NameBounds.DEFAULTS, Map.of(), Set.of());
    }

    /**
     * These settings with time buckets.
     *
     * @param kept the types that also count per time bucket
     * @return the changed settings
     */
    public CounterSettings withBuckets(Map<Integer, TimeBuckets> kept) {
        return new CounterSettings(table, mode, slots, rollUpEvery, kept, names, limits, expiring);
    }

    /**
     * These settings with other bounds on new names.
     *
     * @param bounds new ids per second and type names in all
     * @return the changed settings
     */
    public CounterSettings withNameBounds(NameBounds bounds) {
        return new CounterSettings(table, mode, slots, rollUpEvery, buckets, bounds, limits, expiring);
    }

    /**
     * These settings with limits.
     *
     * @param kept the types whose totals are kept within limits
     * @return the changed settings
     */
    public CounterSettings withLimits(Map<Integer, Limits> kept) {
        return new CounterSettings(table, mode, slots, rollUpEvery, buckets, names, kept, expiring);
    }

    /**
     * These settings with types whose counters may expire.
     *
     * @param types the expiring types
     * @return the changed settings
     */
    public CounterSettings withExpiring(Set<Integer> types) {
        return new CounterSettings(table, mode, slots, rollUpEvery, buckets, names, limits, types);
    }

    /**
     * These settings with another roll-up interval.
     *
     * @param interval how often bound types are rolled up; {@link Duration#ZERO} for never
     * @return the changed settings
     * @throws IllegalArgumentException if {@code interval} is negative
     */
    public CounterSettings withRollUpEvery(Duration interval) {
        return new CounterSettings(table, mode, slots, interval, buckets, names, limits, expiring);
    }

    /**
     * Whether bound types are rolled up in the background.
     *
     * @return true unless the interval is 0
     */
    public boolean rollsUp() {
        return !rollUpEvery.isZero();
    }
}
