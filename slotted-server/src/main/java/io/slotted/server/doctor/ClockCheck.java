package io.slotted.server.doctor;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * How far this process's clock is from the database server's. A type with limits per window counts
 * each increment in the window of the clock of the process that writes it, and a counter of an
 * expiring type expires by that clock, so processes whose clocks differ count increments made near
 * a window's edge into different windows; the doctor checks its own process against the database,
 * the one clock every process shares.
 */
final class ClockCheck {
    /** The check's name. */
    static final String CHECK = "clock: this process against the database";
    /** The most the clocks may differ and the check stay ok. */
    static final Duration BOUND = Duration.ofSeconds(1);

    private ClockCheck() {
    }

    /**
     * Reads the database's clock between two readings of this process's, and judges the
     * difference, less half the round trip it could hide in.
     *
     * @param connection the doctor's connection
     * @param sql the statement that reads the database's clock, from the doctor's dialect
     * @param clock this process's clock
     * @return the check
     * @throws SQLException if the database's clock cannot be read
     */
    private static Check run(Connection connection, String sql, Clock clock) throws SQLException {
        long before;
        long database;
        long after;
        try (Statement statement = connection.createStatement()) {
            before = clock.millis();
            try (ResultSet row = statement.executeQuery(sql)) {
                row.next();
                database = row.getLong(1);
            }
            after = clock.millis();
        }
        long halfTrip = (after - before + 1) / 2;
        long ahead = database - (before + after) / 2;
        String value = "the database's clock is " + (ahead == 0 ? "the same as this process's"
                : Math.abs(ahead) + " ms " + (ahead > 0 ? "ahead of" : "behind") + " this process's")
                + " (± " + halfTrip + " ms)";
        String why = "limits per window count each increment in the window of the clock of the process that"
                + " writes it, and expiring counters expire by that clock: processes whose clocks differ count"
                + " increments near a window's edge into different windows, each refusing only by its own, and"
                + " read a counter near its expiry as expired or not";
        if (Math.abs(ahead) - halfTrip <= BOUND.toMillis()) {
            return Check.ok(CHECK, value, why);
        }
        return Check.finding(CHECK, value, why, "keep this host's clock synchronised (chrony,"
                + " systemd-timesyncd or ntpd), as the database server's and every other Slotted process's,"
                + " to within " + BOUND.toSeconds() + " s; run the doctor on each host that writes");
    }

    /**
     * The check, where the database has a clock of its own.
     *
     * @param connection the doctor's connection
     * @param sql the statement from the doctor's dialect, or empty for an embedded database
     * @param clock this process's clock
     * @return the check, or empty
     * @throws SQLException if the database's clock cannot be read
     */
    static Optional<Check> runIfServer(Connection connection, Optional<String> sql, Clock clock)
            throws SQLException {
        return sql.isPresent() ? Optional.of(run(connection, sql.get(), clock)) : Optional.empty();
    }
}
