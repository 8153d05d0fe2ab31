package io.slotted.server.doctor.dialect;

import io.slotted.server.doctor.Check;
import io.slotted.server.doctor.SessionTransport;
import io.slotted.server.doctor.SessionTransport.Route;
import io.slotted.server.doctor.locks.LockWindow;
import io.slotted.server.doctor.locks.MariaDbLockWindow;
import io.slotted.server.store.FailureMessage;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * MariaDB, and what MySQL shares with it ({@link MySqlDoctorDialect} changes the rest).
 *
 * <p>Row-lock waits come from InnoDB's {@code information_schema} lock tables
 * ({@link MariaDbLockWindow}), which need the {@code PROCESS} privilege. Durability is three
 * global variables: the redo log's flush at commit, the binary log's sync, and strict mode, without
 * which a value too big for its column is cut rather than refused. The session's encryption is
 * its {@code Ssl_version} and {@code Ssl_cipher}, empty on a plain session; where it comes from is
 * the process list's {@code HOST}, {@code ip:port} for TCP and {@code localhost} without a port
 * for a socket, which a user sees of its own session without {@code PROCESS}. The catalog is
 * {@code information_schema}, in the current database.
 */
class MariaDbDoctorDialect extends DoctorDialect {
    static final String TURN_TLS_ON = "add sslMode=verify-full&serverSslCert=/path/to/ca.pem (MariaDB"
            + " Connector/J 3.x; the server needs ssl_cert and ssl_key)";

    @Override
    public Optional<LockWindow> newLockWindow() {
        return Optional.of(new MariaDbLockWindow());
    }

    @Override
    public String lockTablesRefused(SQLException refusal) {
        return "PROCESS: GRANT PROCESS ON *.* TO <this user> lets the doctor read InnoDB's lock"
                + " tables and status; without it no hot rows, deadlocks or lock waits were sampled ("
                + FailureMessage.of(refusal) + ")";
    }

    @Override
    public List<Check> settings(Connection connection) throws SQLException {
        return List.of(flushLogAtCommit(variable(connection, "innodb_flush_log_at_trx_commit")),
                binaryLogSync(variable(connection, "log_bin"), variable(connection, "sync_binlog")),
                strictMode(variable(connection, "sql_mode")));
    }

    /** Only with 1 is a commit on disk when it returns. */
    static Check flushLogAtCommit(String flush) {
        String why = "Slotted acknowledges an increment once its COMMIT returns; only with 1 is the"
                + " commit on disk by then";
        return "1".equals(flush) ? Check.ok("innodb_flush_log_at_trx_commit", flush, why)
                : Check.finding("innodb_flush_log_at_trx_commit", flush, why + "; with " + flush
                        + " a crash can lose up to a second of acknowledged increments",
                        "SET GLOBAL innodb_flush_log_at_trx_commit = 1 (and in the server's config)");
    }

    /** With the binary log on, it must be synced at each commit. */
    static Check binaryLogSync(String binlog, String sync) {
        String why = "with the binary log on, a commit is durable for replicas and recovery only"
                + " when the binary log is synced at each commit";
        boolean binlogOn = "ON".equalsIgnoreCase(binlog) || "1".equals(binlog);
        if (!binlogOn || "1".equals(sync)) {
            return Check.ok("sync_binlog", sync + " (log_bin " + (binlogOn ? "ON" : "OFF") + ")", why);
        }
        return Check.finding("sync_binlog", sync + " (log_bin ON)", why,
                "SET GLOBAL sync_binlog = 1 (and in the server's config)");
    }

    /** Transactions whose old row versions InnoDB has yet to purge, past which purge is behind. */
    static final long HISTORY_LIMIT = 100_000;

    /**
     * InnoDB's purge: the history list length, the committed transactions whose old row versions
     * are still kept (MariaDB's {@code Innodb_history_list_length}, else {@code INNODB_METRICS}).
     */
    @Override
    public List<Check> maintenance(Connection connection, String table) throws SQLException {
        Optional<String> length = Optional.empty();
        try (Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SHOW GLOBAL STATUS LIKE 'Innodb_history_list_length'")) {
            if (row.next()) {
                length = Optional.of(row.getString(2));
            }
        }
        if (length.isEmpty()) {
            length = firstValue(connection, "SELECT count FROM information_schema.INNODB_METRICS"
                    + " WHERE name = 'trx_rseg_history_len'");
        }
        return length.map(Long::parseLong).map(MariaDbDoctorDialect::purge).stream().toList();
    }

    @Override
    public String statisticsGrant() {
        return "GRANT PROCESS ON *.* TO <this user> (INNODB_METRICS)";
    }

    /** A history list this long means purge is not keeping up, or a transaction holds it back. */
    static Check purge(long historyLength) {
        String why = "every increment leaves an old version of a counter row for InnoDB's purge to remove;"
                + " while a long transaction or a slow purge holds them, reads of hot rows walk past them";
        String value = String.format(Locale.ROOT, "history list length %,d", historyLength);
        if (historyLength < HISTORY_LIMIT) {
            return Check.ok("InnoDB purge", value, why);
        }
        return Check.finding("InnoDB purge", value, why, "look for a transaction left open: SELECT trx_id,"
                + " trx_started, trx_mysql_thread_id FROM information_schema.INNODB_TRX ORDER BY trx_started;"
                + " end it (KILL <thread id>); if none, raise innodb_purge_threads");
    }

    /** Strict mode refuses a value too big for its column. */
    static Check strictMode(String mode) {
        String why = "outside strict mode a value too big for a column is cut to the column's"
                + " limit with a warning, so a count could be silently wrong";
        String upper = mode.toUpperCase(Locale.ROOT);
        boolean strict = upper.contains("STRICT_TRANS_TABLES") || upper.contains("STRICT_ALL_TABLES");
        return strict ? Check.ok("sql_mode", mode, why) : Check.finding("sql_mode", mode, why,
                "add STRICT_TRANS_TABLES to sql_mode (SET GLOBAL sql_mode = CONCAT(@@sql_mode, ',STRICT_TRANS_TABLES'))");
    }

    @Override
    public Optional<String> clockSql() {
        return Optional.of("SELECT CAST(ROUND(UNIX_TIMESTAMP(NOW(3)) * 1000) AS SIGNED)");
    }

    @Override
    public Optional<Check> transport(Connection connection) throws SQLException {
        Map<String, String> status = new HashMap<>();
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SHOW SESSION STATUS WHERE Variable_name IN"
                        + " ('Ssl_version', 'Ssl_cipher')")) {
            while (rows.next()) {
                status.put(rows.getString(1).toLowerCase(Locale.ROOT), rows.getString(2));
            }
        }
        String host = firstValue(connection, "SELECT HOST FROM information_schema.PROCESSLIST"
                + " WHERE ID = CONNECTION_ID()").orElse("");
        return Optional.of(sessionTransport(status.get("ssl_version"), status.get("ssl_cipher"), host)
                .judge(turnTlsOn()));
    }

    /** How to turn TLS on in the JDBC URL, when the session is plain over the network. */
    String turnTlsOn() {
        return TURN_TLS_ON;
    }

    /** What the session status and the process list's {@code HOST} say. */
    static SessionTransport sessionTransport(String version, String cipher, String host) {
        String encryption = SessionTransport.encryption(version, cipher);
        int colon = host.lastIndexOf(':');
        if (colon < 0) {
            // Only the server's local channels (socket, named pipe, shared memory) have no port, and
            // the server calls them all localhost; anything else is a row the doctor cannot read.
            return host.equalsIgnoreCase("localhost") ? new SessionTransport(encryption, Route.UNIX_SOCKET, "")
                    : new SessionTransport(encryption, Route.NETWORK, "client not shown: '" + host + "'");
        }
        return SessionTransport.overTcp(encryption, host.substring(0, colon));
    }

    @Override
    public Optional<Long> nextId(Connection connection, String table) throws SQLException {
        return firstValue(connection, "SELECT AUTO_INCREMENT FROM information_schema.TABLES"
                + " WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ?", unqualified(table)).map(Long::valueOf);
    }

    @Override
    public Optional<String> columnType(Connection connection, String table, String column) throws SQLException {
        return firstValue(connection, "SELECT COLUMN_TYPE FROM information_schema.COLUMNS"
                + " WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND COLUMN_NAME = ?", unqualified(table), column);
    }

    private static String variable(Connection connection, String name) throws SQLException {
        return firstValue(connection, "SELECT @@GLOBAL." + name).orElse("");
    }
}
