package io.slotted.server.doctor.dialect;

import io.slotted.server.doctor.Check;
import io.slotted.server.doctor.SessionTransport;
import io.slotted.server.doctor.SessionTransport.Route;
import io.slotted.server.doctor.locks.HotRow;
import io.slotted.server.doctor.locks.LockWindow;
import io.slotted.server.doctor.locks.PostgresLockWindow;
import java.sql.Connection;
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
