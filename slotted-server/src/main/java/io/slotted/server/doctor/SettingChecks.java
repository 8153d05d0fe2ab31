package io.slotted.server.doctor;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The server settings that decide whether an increment Slotted acknowledged survives a crash, and
 * whether a value too big for its column is refused rather than cut.
 */
final class SettingChecks {
    private SettingChecks() {
    }

    /** MariaDB and MySQL: the redo log's flush, the binary log's sync, and strict mode. */
    static List<Check> mariaDb(Connection connection) throws SQLException {
        List<Check> checks = new ArrayList<>();
        String flush = variable(connection, "innodb_flush_log_at_trx_commit");
        String why = "Slotted acknowledges an increment once its COMMIT returns; only with 1 is the"
                + " commit on disk by then";
        checks.add("1".equals(flush) ? Check.ok("innodb_flush_log_at_trx_commit", flush, why)
                : Check.finding("innodb_flush_log_at_trx_commit", flush, why + "; with " + flush
                        + " a crash can lose up to a second of acknowledged increments",
                        "SET GLOBAL innodb_flush_log_at_trx_commit = 1 (and in the server's config)"));
        String binlog = variable(connection, "log_bin");
        String sync = variable(connection, "sync_binlog");
        String binlogWhy = "with the binary log on, a commit is durable for replicas and recovery only"
                + " when the binary log is synced at each commit";
        boolean binlogOn = "ON".equalsIgnoreCase(binlog) || "1".equals(binlog);
        if (!binlogOn || "1".equals(sync)) {
            checks.add(Check.ok("sync_binlog", sync + " (log_bin " + (binlogOn ? "ON" : "OFF") + ")", binlogWhy));
        } else {
            checks.add(Check.finding("sync_binlog", sync + " (log_bin ON)", binlogWhy,
                    "SET GLOBAL sync_binlog = 1 (and in the server's config)"));
        }
        String mode = variable(connection, "sql_mode");
        String modeWhy = "outside strict mode a value too big for a column is cut to the column's"
                + " limit with a warning, so a count could be silently wrong";
        boolean strict = mode.toUpperCase(Locale.ROOT).contains("STRICT_TRANS_TABLES")
                || mode.toUpperCase(Locale.ROOT).contains("STRICT_ALL_TABLES");
        checks.add(strict ? Check.ok("sql_mode", mode, modeWhy)
                : Check.finding("sql_mode", mode, modeWhy,
                        "add STRICT_TRANS_TABLES to sql_mode (SET GLOBAL sql_mode = CONCAT(@@sql_mode, ',STRICT_TRANS_TABLES'))"));
        return checks;
    }

    /** PostgreSQL: synchronous commit, fsync and full page writes. */
    static List<Check> postgres(Connection connection) throws SQLException {
        List<Check> checks = new ArrayList<>();
        String commit = show(connection, "synchronous_commit");
        String commitWhy = "Slotted acknowledges an increment once its COMMIT returns; with"
                + " synchronous_commit off, the commit returns before it is on disk";
        checks.add(!"off".equalsIgnoreCase(commit) ? Check.ok("synchronous_commit", commit, commitWhy)
                : Check.finding("synchronous_commit", commit, commitWhy + ", and a crash can lose"
                        + " the last acknowledged increments", "ALTER SYSTEM SET synchronous_commit = on;"
                        + " SELECT pg_reload_conf()"));
        String fsync = show(connection, "fsync");
        String fsyncWhy = "with fsync off nothing is forced to disk: a crash can lose or corrupt"
                + " committed data";
        checks.add("on".equalsIgnoreCase(fsync) ? Check.ok("fsync", fsync, fsyncWhy)
                : Check.finding("fsync", fsync, fsyncWhy, "set fsync = on in postgresql.conf"));
        String pages = show(connection, "full_page_writes");
        String pagesWhy = "without full page writes a crash during a page write can corrupt it";
        checks.add("on".equalsIgnoreCase(pages) ? Check.ok("full_page_writes", pages, pagesWhy)
                : Check.finding("full_page_writes", pages, pagesWhy, "set full_page_writes = on in postgresql.conf"));
        return checks;
    }

    private static String variable(Connection connection, String name) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SELECT @@GLOBAL." + name)) {
            return row.next() ? String.valueOf(row.getString(1)) : "";
        }
    }

    private static String show(Connection connection, String name) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SHOW " + name)) {
            return row.next() ? row.getString(1) : "";
        }
    }
}
