package io.slotted.server.doctor;

import io.slotted.SlottedCounters;
import io.slotted.SlottedCountersBuilder;
import io.slotted.SlottedSchema;
import io.slotted.server.config.NameBounds;
import io.slotted.server.doctor.dialect.DoctorDialect;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Slotted's own tables: how counters spread over their slots, the headroom of the original pattern's
 * {@code INT} columns (its auto-increment {@code id}, its {@code count}), flush-ledger rows no
 * process has touched for a day, idempotency keys older than their retention, and how far behind
 * each bound type's roll-up is, how many names the name dictionary holds, whether this user may
 * read and write the rows of every table, and the schema version recorded.
 *
 * <p>The table names follow Slotted's: {@code <table>_ledger}, {@code <table>_keys},
 * {@code <table>_types}, {@code <table>_names}. A table that does not exist is simply not checked. Flushers' marks
 * (record type {@link SlottedCounters#RESERVED_RECORD_TYPE}) are left out of every count.
 */
final class SlottedTableChecks {
    /** A ledger row untouched this long belongs to a flusher that is gone (a live one touches it hourly). */
    static final Duration ABANDONED_AFTER = Duration.ofDays(1);
    /** A bound type rolled up longer ago than this is behind. */
    static final Duration ROLL_UP_LAG_LIMIT = Duration.ofMinutes(1);
    /** Pruning runs a few times per retention period: keys this much past it are a backlog. */
    static final Duration KEY_PRUNING_SLACK = Duration.ofHours(1);
    /** Used past this share of a column's range, or exhausted within a year, is a finding. */
    static final double HEADROOM_LIMIT = 0.5;
    /** Type names past this share of the default bound on them are a finding. */
    static final double TYPE_NAMES_WARNING = 0.8;
    /** String ids past this many are a finding: no process prunes the dictionary. */
    static final long IDS_WARNING = 10_000_000;

    private final String table;
    private final DoctorDialect dialect;
    private final Duration keyRetention;
    private final Clock clock;
    private Long idAtStart;
    private Instant startedAt;

    SlottedTableChecks(String table, DoctorDialect dialect, Duration keyRetention, Clock clock) {
        this.table = table;
        this.dialect = dialect;
        this.keyRetention = keyRetention;
        this.clock = clock;
    }

    /** Reads the auto-increment id at the window's start, to measure its rate. */
    void begin(Connection connection) {
        idAtStart = nextId(connection).orElse(null);
        startedAt = clock.instant();
    }

    /**
     * Runs the checks of every table that exists.
     *
     * @param connection a connection of the doctor's own
     * @return the checks, empty when the counter table does not exist
     */
    List<Check> run(Connection connection) {
        List<Check> checks = new ArrayList<>();
        if (!exists(connection, table)) {
            return checks;
        }
        spread(connection).ifPresent(checks::add);
        idHeadroom(connection).ifPresent(checks::add);
        countHeadroom(connection).ifPresent(checks::add);
        olderThan(connection, table + "_ledger", "updated_ms", ABANDONED_AFTER).ifPresent(checks::add);
        olderThan(connection, table + "_keys", "created_ms", keyRetention.plus(KEY_PRUNING_SLACK))
                .ifPresent(checks::add);
        checks.addAll(rollUpLag(connection));
        dictionary(connection).ifPresent(checks::add);
        checks.add(privileges(connection));
        checks.add(schemaVersion(connection));
        try {
            checks.addAll(dialect.maintenance(connection, table));
        } catch (SQLException e) {
            checks.add(Check.finding(table + ": row versions", "unknown", "the statistics of how the database"
                    + " removes the row versions every increment leaves could not be read: " + e.getMessage(),
                    dialect.statisticsGrant()));
        }
        return checks;
    }

    /**
     * The name dictionary's size: type names against the default bound on them, and string ids,
     * whose number grows with every new id a client sends and which no process ever prunes.
     */
    private Optional<Check> dictionary(Connection connection) {
        String names = table + "_names";
        if (!exists(connection, names)) {
            return Optional.empty();
        }
        long[] counts = query(connection, "SELECT SUM(CASE WHEN record_type = "
                + SlottedCounters.RESERVED_RECORD_TYPE + " THEN 1 ELSE 0 END), COUNT(*) FROM " + names,
                rows -> rows.next() ? new long[] {rows.getLong(1), rows.getLong(2) - rows.getLong(1)} : null);
        if (counts == null) {
            return Optional.empty();
        }
        String name = names + ": the name dictionary";
        String value = String.format(Locale.ROOT, "%,d type names, %,d string ids", counts[0], counts[1]);
        String why = "each type name and string id clients have counted with is recorded once and kept;"
                + " a service refuses new type names past --max-type-names (default "
                + NameBounds.DEFAULTS.maxTypeNames() + ") and records at most --new-ids-per-second new ids";
        boolean typesNearTheBound = counts[0] >= NameBounds.DEFAULTS.maxTypeNames() * TYPE_NAMES_WARNING;
        boolean manyIds = counts[1] >= IDS_WARNING;
        if (!typesNearTheBound && !manyIds) {
            return Optional.of(Check.ok(name, value, why));
        }
        return Optional.of(Check.finding(name, value, why, typesNearTheBound
                ? "type names near the bound: look for clients that put ids in the type (views_123:1 rather"
                        + " than views:123); SELECT name FROM " + names + " WHERE record_type = "
                        + SlottedCounters.RESERVED_RECORD_TYPE + " lists them"
                : "over " + IDS_WARNING / 1_000_000 + " million string ids: if a client mints a new id per"
                        + " request (a timestamp, a random value), lower --new-ids-per-second or give it"
                        + " numeric ids; SELECT name FROM " + names + " ORDER BY created_ms DESC shows the newest"));
    }

    /**
     * Whether this user may read and write the rows of every Slotted table, which is all Slotted
     * needs once the tables exist. Each privilege is tried by a statement that matches no row, so
     * nothing changes; the database checks the privilege all the same.
     */
    private Check privileges(Connection connection) {
        List<String> lacking = new ArrayList<>();
        for (String name : SlottedSchema.tables(table)) {
            String firstColumn;
            try (Statement statement = connection.createStatement();
                    ResultSet none = statement.executeQuery("SELECT * FROM " + name + " WHERE 1 = 0")) {
                firstColumn = none.getMetaData().getColumnName(1);
            } catch (SQLException e) {
                lacking.add("SELECT on " + name + " (" + e.getMessage().strip() + ")");
                continue;
            }
            tryPrivilege(connection, "INSERT", name, "INSERT INTO " + name + " SELECT * FROM " + name + " WHERE 1 = 0")
                    .ifPresent(lacking::add);
            tryPrivilege(connection, "UPDATE", name, "UPDATE " + name + " SET " + firstColumn + " = " + firstColumn
                    + " WHERE 1 = 0").ifPresent(lacking::add);
            tryPrivilege(connection, "DELETE", name, "DELETE FROM " + name + " WHERE 1 = 0").ifPresent(lacking::add);
        }
        String name = table + ": privileges";
        String user = userName(connection);
        String why = "once its tables exist Slotted only reads and writes their rows: its user needs SELECT, INSERT,"
                + " UPDATE and DELETE on each of the " + SlottedSchema.tables(table).size() + " tables";
        if (lacking.isEmpty()) {
            return Check.ok(name, user + " has SELECT, INSERT, UPDATE and DELETE on every table", why);
        }
        return Check.finding(name, user + " lacks " + String.join("; ", lacking), why, "grant what is missing, for example"
                + " GRANT SELECT, INSERT, UPDATE, DELETE ON " + String.join(", ", SlottedSchema.tables(table)) + " TO "
                + user + "; a table that does not exist is made by slotted migrate or by the schema"
                + " file (slotted schema prints it; docs/schema.md)");
    }

    /** The privilege, tried in auto-commit by a statement that changes nothing; what it lacks, if it does. */
    private static Optional<String> tryPrivilege(Connection connection, String privilege, String name, String sql) {
        try (Statement statement = connection.createStatement()) {
            statement.executeUpdate(sql);
            return Optional.empty();
        } catch (SQLException e) {
            return Optional.of(privilege + " on " + name + " (" + e.getMessage().strip() + ")");
        }
    }

    private static String userName(Connection connection) {
        try {
            return connection.getMetaData().getUserName();
        } catch (SQLException e) {
            return "the service's user";
        }
    }

    /** The schema version recorded beside the tables, against the one this release knows. */
    private Check schemaVersion(Connection connection) {
        String name = table + ": schema version";
        String why = "a Slotted that finds a schema newer than it knows refuses to migrate or verify it;"
                + " one made before versions were recorded is brought up to date by slotted migrate";
        Integer recorded = query(connection, "SELECT MAX(version) FROM " + table + "_schema",
                rows -> rows.next() ? rows.getInt(1) : null);
        if (recorded == null || recorded == 0) {
            return Check.finding(name, "none recorded", why, "run slotted migrate once as a user that may"
                    + " create and alter tables, or the schema file (slotted schema prints it; docs/schema.md)");
        }
        if (recorded > SlottedSchema.VERSION) {
            return Check.finding(name, recorded + ", newer than this release knows (" + SlottedSchema.VERSION + ")",
                    why, "run the Slotted release that made it, or a newer one");
        }
        return Check.ok(name, recorded + (recorded == SlottedSchema.VERSION ? ", this release's" : ""), why);
    }

    /** The lowest slot of a counter with limits' allowance rows. */
    private static final int LOWEST_ALLOWANCE = -SlottedCountersBuilder.MAX_SLOTS;

    private Optional<Check> spread(Connection connection) {
        // Rows below slot 0 are the allowances of counters with limits (down to -1,024) and, far
        // below, the increments of bucketed counters pending for their buckets: counted apart.
        String sql = "SELECT record_type, COUNT(DISTINCT record_id), SUM(CASE WHEN slot >= 0 THEN 1 ELSE 0 END),"
                + " MAX(slot), SUM(CASE WHEN slot >= 0 AND count = 0 THEN 1 ELSE 0 END),"
                + " SUM(CASE WHEN slot < 0 AND slot >= " + LOWEST_ALLOWANCE + " THEN 1 ELSE 0 END),"
                + " SUM(CASE WHEN slot < " + LOWEST_ALLOWANCE + " THEN 1 ELSE 0 END) FROM " + table
                + " WHERE record_type <> " + SlottedCounters.RESERVED_RECORD_TYPE
                + " GROUP BY record_type ORDER BY record_type";
        List<String> types = new ArrayList<>();
        query(connection, sql, rows -> {
            while (rows.next()) {
                long counters = rows.getLong(2);
                long slotRows = rows.getLong(3);
                long zero = rows.getLong(5);
                long allowances = rows.getLong(6);
                long pending = rows.getLong(7);
                types.add(String.format(Locale.ROOT, "type %d: %,d counters in %,d slot rows (%.1f each,"
                        + " highest slot %d%s)%s%s", rows.getInt(1), counters, slotRows,
                        counters == 0 ? 0.0 : (double) slotRows / counters, rows.getInt(4),
                        zero == 0 ? "" : String.format(Locale.ROOT, ", %,d of the rows at 0", zero),
                        allowances == 0 ? "" : String.format(Locale.ROOT, " and %,d allowance rows of its limits,"
                                + " below slot 0", allowances),
                        pending == 0 ? "" : String.format(Locale.ROOT, " and %,d rows of increments pending for"
                                + " their time buckets", pending)));
            }
            return null;
        });
        return Optional.of(Check.ok(table + ": slots per counter",
                types.isEmpty() ? "no counters yet" : String.join("; ", types),
                "a hot counter spread over more slots waits less for row locks; one on a single"
                        + " slot row is an ordinary hot row; a fold-mode roll-up leaves the rows it folds"
                        + " at 0 for the next increments to update, and deletes those that stay at 0 for a"
                        + " minute; a type with limits keeps up to one allowance row per flusher share of"
                        + " each counter it decided, never deleted; a bucketed type's flushes write a row per"
                        + " counter and bucket, which the bucket keeper moves into the buckets once they close"));
    }

    /** The original pattern's table: an auto-increment id, which each new slot row consumes. */
    private Optional<Check> idHeadroom(Connection connection) {
        Optional<Long> next = nextId(connection);
        Optional<Long> max = columnMax(connection, "id");
        if (next.isEmpty() || max.isEmpty()) {
            return Optional.empty();
        }
        double used = (double) next.get() / max.get();
        double seconds = Math.max(0.001, Duration.between(startedAt, clock.instant()).toMillis() / 1000.0);
        double rate = idAtStart == null ? 0 : Math.max(0, next.get() - idAtStart) / seconds;
        String exhaustion = rate <= 0 ? "no ids taken during the window"
                : "at " + String.format(Locale.ROOT, "%.1f", rate) + " ids/s, exhausted on "
                        + LocalDate.ofInstant(clock.instant().plusSeconds((long) Math.min(
                                (max.get() - next.get()) / rate, 1e12)), ZoneOffset.UTC);
        String value = String.format(Locale.ROOT, "next id %,d of %,d (%.1f%% used); %s", next.get(),
                max.get(), used * 100, exhaustion);
        String name = table + ": auto-increment id headroom";
        String why = "every new slot row takes an id, even an upsert that ends as an update on"
                + " MariaDB; at the column's limit every new counter fails";
        boolean soon = rate > 0 && (max.get() - next.get()) / rate < Duration.ofDays(365).toSeconds();
        return Optional.of(used < HEADROOM_LIMIT && !soon ? Check.ok(name, value, why)
                : Check.finding(name, value, why, "widen the id to BIGINT, or migrate to Slotted's own"
                        + " table (a composite primary key, no id)"));
    }

    /** The original pattern's {@code INT} count: the largest counter against the column's range. */
    private Optional<Check> countHeadroom(Connection connection) {
        Optional<Long> max = columnMax(connection, "count");
        if (max.isEmpty() || max.get() == Long.MAX_VALUE) {
            return Optional.empty();
        }
        Long largest = query(connection, "SELECT MAX(ABS(total)) FROM (SELECT SUM(count) AS total FROM "
                + table + " WHERE record_type <> " + SlottedCounters.RESERVED_RECORD_TYPE
                + " GROUP BY record_type, record_id) t", rows -> rows.next() ? rows.getLong(1) : 0L);
        if (largest == null) {
            return Optional.empty();
        }
        double used = (double) largest / max.get();
        String value = String.format(Locale.ROOT, "largest counter %,d of %,d (%.1f%%)", largest, max.get(),
                used * 100);
        String name = table + ": count column headroom";
        String why = "the count column is narrower than BIGINT: a slot or a roll-up past its range fails";
        return Optional.of(used < HEADROOM_LIMIT ? Check.ok(name, value, why)
                : Check.finding(name, value, why, dialect.widenCount(table)));
    }

    private Optional<Check> olderThan(Connection connection, String other, String column, Duration age) {
        if (!exists(connection, other)) {
            return Optional.empty();
        }
        long cutoff = clock.millis() - age.toMillis();
        Long old = query(connection, "SELECT COUNT(*) FROM " + other + " WHERE " + column + " < " + cutoff,
                rows -> rows.next() ? rows.getLong(1) : 0L);
        if (old == null) {
            return Optional.empty();
        }
        boolean ledger = other.endsWith("_ledger");
        String name = other + (ledger ? ": abandoned flusher rows" : ": idempotency keys past retention");
        String value = old + (ledger ? " untouched for over a day" : " older than " + age.toHours() + " h");
        String why = ledger ? "a flusher's row is kept while it lives and pruned a day after it is gone;"
                + " old rows mean no Slotted process has started on this table since"
                : "keys are kept for the retention period and then pruned by the writing processes;"
                + " a backlog means none is running or pruning falls behind, and the table grows";
        String advice = ledger ? "start any Slotted process on " + table + " (it prunes them at start),"
                + " or DELETE FROM " + other + " WHERE " + column + " < " + cutoff
                : "check that a Slotted process writes with keys on " + table + ", or DELETE FROM "
                + other + " WHERE " + column + " < " + cutoff;
        return Optional.of(old == 0 ? Check.ok(name, "none", why) : Check.finding(name, value, why, advice));
    }

    private List<Check> rollUpLag(Connection connection) {
        List<Check> checks = new ArrayList<>();
        String registry = table + "_types";
        if (!exists(connection, registry)) {
            return checks;
        }
        long now = clock.millis();
        query(connection, "SELECT record_type, owner_table, count_column, rolled_up_ms FROM " + registry
                + " WHERE owner_table IS NOT NULL ORDER BY record_type", rows -> {
                    while (rows.next()) {
                        long lag = Math.max(0, now - rows.getLong(4));
                        String name = "type " + rows.getInt(1) + ": roll-up lag into " + rows.getString(2)
                                + "." + rows.getString(3);
                        String value = String.format(Locale.ROOT, "%.1f s since the last roll-up", lag / 1000.0);
                        String why = "the owner column trails the counter by the roll-up's lag; reads"
                                + " through Slotted are exact, readers of the column are not";
                        checks.add(lag <= ROLL_UP_LAG_LIMIT.toMillis() ? Check.ok(name, value, why)
                                : Check.finding(name, value, why, "run slotted serve (it rolls up every second)"
                                        + " or slotted rollup, or a process built with rollUpEvery(…)"));
                    }
                    return null;
                });
        return checks;
    }

    private Optional<Long> nextId(Connection connection) {
        if (columnMax(connection, "id").isEmpty()) {
            return Optional.empty();
        }
        try {
            return dialect.nextId(connection, table);
        } catch (SQLException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** The largest value an integer column of the table can hold, or empty when it has no such column. */
    private Optional<Long> columnMax(Connection connection, String column) {
        try {
            return dialect.columnType(connection, table, column)
                    .flatMap(type -> integerMax(type.toLowerCase(Locale.ROOT)));
        } catch (SQLException e) {
            return Optional.empty();
        }
    }

    private static Optional<Long> integerMax(String type) {
        boolean unsigned = type.contains("unsigned");
        if (type.startsWith("bigint")) {
            return Optional.of(Long.MAX_VALUE);
        }
        if (type.startsWith("int") || type.equals("integer")) {
            return Optional.of(unsigned ? 4_294_967_295L : Integer.MAX_VALUE);
        }
        if (type.startsWith("mediumint")) {
            return Optional.of(unsigned ? 16_777_215L : 8_388_607L);
        }
        if (type.startsWith("smallint")) {
            return Optional.of(unsigned ? 65_535L : 32_767L);
        }
        return Optional.empty();
    }

    private static boolean exists(Connection connection, String name) {
        try (Statement statement = connection.createStatement()) {
            statement.executeQuery("SELECT 1 FROM " + name + " WHERE 1 = 0").close();
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    /** What reading the rows gives, or null when the query fails (the check is then left out). */
    private static <T> T query(Connection connection, String sql, RowsReader<T> reader) {
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            return reader.read(rows);
        } catch (SQLException e) {
            return null;
        }
    }

    @FunctionalInterface
    private interface RowsReader<T> {
        T read(ResultSet rows) throws SQLException;
    }
}
