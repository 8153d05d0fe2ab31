package io.slotted.server.doctor;

import java.time.Duration;
import java.util.regex.Pattern;

/**
 * What the doctor examines and for how long.
 *
 * @param watch how long to sample lock waits
 * @param sampleEvery how often within the window
 * @param table Slotted's counter table, whose companions ({@code _ledger}, {@code _keys},
 *     {@code _types}) are checked with it
 * @param keyRetention how long the writing processes keep idempotency keys
 * @param dbOption how the command line that ran the doctor named the database (such as
 *     {@code --db 'jdbc:mariadb://…'}), repeated in the commands it advises; empty for none
 */
public record DoctorSettings(Duration watch, Duration sampleEvery, String table, Duration keyRetention,
        String dbOption) {
    /** The longest window: a longer one is a monitoring job, not a diagnosis. */
    public static final Duration MAX_WATCH = Duration.ofMinutes(10);
    private static final Pattern TABLE = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,63}(\\.[A-Za-z_][A-Za-z0-9_]{0,63})?");

    /**
     * Checks the settings.
     *
     * @throws IllegalArgumentException if the window is negative or too long, the sampling
     *     interval is not positive, or the table is not a plain (optionally qualified) identifier
     */
    public DoctorSettings {
        if (watch.isNegative() || watch.compareTo(MAX_WATCH) > 0) {
            throw new IllegalArgumentException("the watch window must be between 0s and "
                    + MAX_WATCH.toMinutes() + "m, but was " + watch.toMillis() + "ms");
        }
        if (sampleEvery.isZero() || sampleEvery.isNegative()) {
            throw new IllegalArgumentException("the sampling interval must be positive, but was "
                    + sampleEvery.toMillis() + "ms");
        }
        if (!TABLE.matcher(table).matches()) {
            throw new IllegalArgumentException("table must be an identifier of letters, digits and"
                    + " underscores, optionally schema.table, but was '" + table + "'");
        }
    }

    /**
     * A window on the default table, sampled every 100 ms.
     *
     * @param watch how long to sample
     * @param dbOption how the database was named on the command line, or empty
     * @return the settings
     */
    public static DoctorSettings watching(Duration watch, String dbOption) {
        return new DoctorSettings(watch, Duration.ofMillis(100), "slotted_counters", Duration.ofHours(24),
                dbOption);
    }

    /**
     * These settings for another counter table.
     *
     * @param other the table
     * @return the new settings
     */
    public DoctorSettings withTable(String other) {
        return new DoctorSettings(watch, sampleEvery, other, keyRetention, dbOption);
    }
}
