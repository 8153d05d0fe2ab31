package io.slotted.server.doctor.dialect;

import io.slotted.server.doctor.Check;
import io.slotted.server.doctor.SessionTransport;
import io.slotted.server.doctor.SessionTransport.Route;
import io.slotted.server.doctor.locks.HotRow;
import io.slotted.server.doctor.locks.LockWindow;
import io.slotted.server.doctor.locks.PostgresLockWindow;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;

/**
 * PostgreSQL.
 *
 * <p>Row-lock waits come from {@code pg_stat_activity} and {@code pg_locks}
 * ({@link PostgresLockWindow}); other users' waiting statements show only to a member of
 * {@code pg_read_all_stats}. Durability is {@code synchronous_commit}, {@code fsync} and
 * {@code full_page_writes}. The session's encryption is {@code pg_stat_ssl} for this backend, and
 * where it comes from the client's address as the server sees it, null over a Unix socket (a
 * session encrypted by GSSAPI rather than TLS reads as plain). An auto-increment id's next value
 * is its sequence's, found by {@code pg_get_serial_sequence}; the catalog is
 * {@code information_schema} in the current schema.
 */
final class PostgresDoctorDialect extends DoctorDialect {
    static final String TURN_TLS_ON = "add sslmode=verify-full&sslrootcert=/path/to/ca.pem (PgJDBC; the"
            + " server needs ssl = on with ssl_cert_file and ssl_key_file)";

    @Override
    public Optional<LockWindow> newLockWindow() {
        return Optional.of(new PostgresLockWindow());
    }

    @Override
    public Optional<String> hiddenStatements(List<HotRow> hot) {
        if (hot.stream().noneMatch(row -> row.statement().contains("insufficient privilege"))) {
            return Optional.empty();
        }
        return Optional.of("pg_read_all_stats: GRANT pg_read_all_stats TO <this user> shows"
                + " other users' waiting statements; without it they read <insufficient privilege>");
    }

    @Override
    public List<Check> settings(Connection connection) throws SQLException {
        String commit = show(connection, "synchronous_commit");
        String commitWhy = "Slotted acknowledges an increment once its COMMIT returns; with"
                + " synchronous_commit off, the commit returns before it is on disk";
        Check synchronousCommit = !"off".equalsIgnoreCase(commit) ? Check.ok("synchronous_commit", commit, commitWhy)
                : Check.finding("synchronous_commit", commit, commitWhy + ", and a crash can lose"
                        + " the last acknowledged increments", "ALTER SYSTEM SET synchronous_commit = on;"
                        + " SELECT pg_reload_conf()");
        return List.of(synchronousCommit,
                mustBeOn("fsync", show(connection, "fsync"), "with fsync off nothing is forced to disk: a"
                        + " crash can lose or corrupt committed data"),
                mustBeOn("full_page_writes", show(connection, "full_page_writes"), "without full page writes"
                        + " a crash during a page write can corrupt it"));
    }

    /** Dead row versions past this many, and more than the live ones, are a finding. */
    static final long DEAD_VERSIONS_LIMIT = 100_000;
    /** Updates counted before their share of HOT updates is judged. */
    static final long UPDATES_BEFORE_JUDGING = 10_000;
    /** Fewer HOT updates than this share is a finding. */
    static final double HOT_SHARE_LIMIT = 0.9;

    /**
     * Autovacuum, for the server and for the counter table; its dead row versions; and its share
     * of HOT updates, from {@code pg_stat_user_tables} since its counters were last reset.
     */
    @Override
    public List<Check> maintenance(Connection connection, String table) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement("SELECT array_to_string(c.reloptions, ','),"
                + " s.n_live_tup, s.n_dead_tup, s.n_tup_upd, s.n_tup_hot_upd FROM pg_class c"
                + " LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid WHERE c.oid = to_regclass(?)")) {
            select.setString(1, table);
            try (ResultSet row = select.executeQuery()) {
                if (!row.next()) {
                    return List.of();
                }
                TableStatistics statistics = new TableStatistics(table, row.getString(1) == null ? "" : row.getString(1),
                        row.getLong(2), row.getLong(3), row.getLong(4), row.getLong(5));
                return List.of(autovacuum(show(connection, "autovacuum"), statistics), deadVersions(statistics),
                        hotUpdates(statistics));
            }
        }
    }

    @Override
    public String statisticsGrant() {
        return "GRANT pg_read_all_stats TO <this user>";
    }

    /** What the catalog and {@code pg_stat_user_tables} say of the counter table. */
    record TableStatistics(String table, String options, long live, long dead, long updates, long hotUpdates) {
        /** A storage parameter as the table has it set, or empty. */
        Optional<String> option(String name) {
            return java.util.Arrays.stream(options.split(",")).filter(option -> option.startsWith(name + "="))
                    .map(option -> option.substring(name.length() + 1)).findFirst();
        }
    }

    static Check autovacuum(String server, TableStatistics table) {
        String name = table.table() + ": autovacuum";
        String why = "every increment leaves a dead version of a counter row; only vacuum removes those its"
                + " page could not prune, and only autovacuum gathers the table's statistics by itself";
        boolean tableOff = table.option("autovacuum_enabled")
                .filter(value -> List.of("false", "off", "0", "no").contains(value.toLowerCase(java.util.Locale.ROOT)))
                .isPresent();
        if (!"on".equalsIgnoreCase(server)) {
            return Check.finding(name, "off for the server", why + "; with it off the table and its indexes grow"
                    + " with every update and its plans go stale", "ALTER SYSTEM SET autovacuum = on;"
                    + " SELECT pg_reload_conf()" + (tableOff ? "; and ALTER TABLE " + table.table()
                            + " RESET (autovacuum_enabled)" : ""));
        }
        if (tableOff) {
            return Check.finding(name, "off for this table (autovacuum_enabled=false)", why,
                    "ALTER TABLE " + table.table() + " RESET (autovacuum_enabled)");
        }
        return Check.ok(name, "on", why);
    }

    static Check deadVersions(TableStatistics table) {
        String name = table.table() + ": dead row versions";
        String value = String.format(java.util.Locale.ROOT, "%,d dead, %,d live", table.dead(), table.live());
        String why = "dead versions past what vacuum keeps up with make every scan of the table and its index"
                + " longer, the roll-up's listing of changed counters first";
        if (table.dead() < DEAD_VERSIONS_LIMIT || table.dead() <= table.live()) {
            return Check.ok(name, value, why);
        }
        return Check.finding(name, value, why, "VACUUM (ANALYZE) " + table.table() + " now; and let autovacuum"
                + " visit it sooner: ALTER TABLE " + table.table() + " SET (autovacuum_vacuum_scale_factor = 0.02)");
    }

    static Check hotUpdates(TableStatistics table) {
        String name = table.table() + ": HOT updates";
        String fillfactor = table.option("fillfactor").orElse("100");
        String why = "an update that finds room on its row's page stays there (HOT): it adds no index entry and"
                + " the page prunes the old version by itself; Slotted makes its tables with fillfactor 50 for"
                + " that room";
        if (table.updates() < UPDATES_BEFORE_JUDGING) {
            return Check.ok(name, String.format(java.util.Locale.ROOT, "%,d updates counted, too few to judge"
                    + " (fillfactor %s)", table.updates(), fillfactor), why);
        }
        double share = (double) table.hotUpdates() / table.updates();
        String value = String.format(java.util.Locale.ROOT, "%.0f%% of %,d updates (fillfactor %s)", share * 100,
                table.updates(), fillfactor);
        if (share >= HOT_SHARE_LIMIT) {
            return Check.ok(name, value, why);
        }
        return Check.finding(name, value, why, "ALTER TABLE " + table.table() + " SET (fillfactor = 50); rewrite"
                + " the pages already full with VACUUM FULL " + table.table() + " (it locks the table) or pg_repack;"
                + " then SELECT pg_stat_reset_single_table_counters('" + table.table() + "'::regclass) to count"
                + " afresh. An index on count would make every update a non-HOT one");
    }

    private static Check mustBeOn(String name, String value, String why) {
        return "on".equalsIgnoreCase(value) ? Check.ok(name, value, why)
                : Check.finding(name, value, why, "set " + name + " = on in postgresql.conf");
    }

    @Override
    public Optional<String> clockSql() {
        return Optional.of("SELECT CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)");
    }

    @Override
    public Optional<Check> transport(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SELECT s.ssl, s.version, s.cipher,"
                        + " host(inet_client_addr()) FROM pg_stat_ssl s WHERE s.pid = pg_backend_pid()")) {
            boolean found = row.next();
            return Optional.of(sessionTransport(found && row.getBoolean(1), found ? row.getString(2) : null,
                    found ? row.getString(3) : null, found ? row.getString(4) : null).judge(TURN_TLS_ON));
        }
    }

    /** What {@code pg_stat_ssl} and {@code inet_client_addr()} say. */
    static SessionTransport sessionTransport(boolean ssl, String version, String cipher, String client) {
        String shown = SessionTransport.encryption(version, cipher);
        String encryption = !ssl ? "" : shown.isEmpty() ? "TLS" : shown;
        return client == null ? new SessionTransport(encryption, Route.UNIX_SOCKET, "")
                : SessionTransport.overTcp(encryption, client);
    }

    @Override
    public Optional<Long> nextId(Connection connection, String table) throws SQLException {
        Optional<String> sequence = firstValue(connection, "SELECT pg_get_serial_sequence(?, 'id')", table);
        if (sequence.isEmpty()) {
            return Optional.empty();
        }
        return firstValue(connection, "SELECT CASE WHEN is_called THEN last_value + 1 ELSE last_value END FROM "
                + sequence.get()).map(Long::valueOf);
    }

    @Override
    public Optional<String> columnType(Connection connection, String table, String column) throws SQLException {
        return firstValue(connection, "SELECT data_type FROM information_schema.columns"
                + " WHERE table_schema = current_schema() AND table_name = ? AND column_name = ?",
                unqualified(table), column);
    }

    @Override
    public String widenCount(String table) {
        return super.widenCount(table) + " (PostgreSQL: ALTER COLUMN count TYPE BIGINT)";
    }

    private static String show(Connection connection, String name) throws SQLException {
        return firstValue(connection, "SHOW " + name).orElse("");
    }
}
