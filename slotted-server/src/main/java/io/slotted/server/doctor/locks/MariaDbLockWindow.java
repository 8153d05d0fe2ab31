package io.slotted.server.doctor.locks;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Row-lock waits on MariaDB and MySQL's InnoDB.
 *
 * <p>Each sample joins {@code information_schema.INNODB_LOCK_WAITS} (who waits for whom) with
 * {@code INNODB_TRX} (the waiting statement and connection) and {@code INNODB_LOCKS} (the table,
 * index and key of the locked record, which InnoDB gives decoded, as in {@code 1} or
 * {@code 1, 'a'}). A transaction waiting behind several holders appears once. InnoDB keeps when a
 * wait started to the second only, so the wait reported is a lower bound: the whole seconds
 * waited. The window's totals are counters read at both ends: {@code Innodb_deadlocks},
 * {@code Innodb_row_lock_time} (milliseconds) and the {@code lock_timeouts} metric, with the
 * latest deadlock read from {@code SHOW ENGINE INNODB STATUS}. All of it needs the
 * {@code PROCESS} privilege.
 *
 * <p>InnoDB answers the lock tables from a cache shared by every session, refreshed on a read only
 * when it is older than {@value #CACHE_REFRESH_MILLIS} ms. A sample taken sooner than that after
 * the window began could show waits that ended before it (a doctor run straight after another
 * read saw 30 sessions that had all finished), so the first sample waits until the cache must be
 * newer than the window's start.
 */
public final class MariaDbLockWindow implements LockWindow {
    private static final String WAITS = "SELECT r.trx_id, r.trx_mysql_thread_id, r.trx_query,"
            + " TIMESTAMPDIFF(SECOND, r.trx_wait_started, NOW()), l.lock_table, l.lock_index, l.lock_data"
            + " FROM information_schema.INNODB_LOCK_WAITS w"
            + " JOIN information_schema.INNODB_TRX r ON r.trx_id = w.requesting_trx_id"
            + " JOIN information_schema.INNODB_LOCKS l ON l.lock_id = w.requested_lock_id";
    private static final String COUNTERS = "SELECT (SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS"
            + " WHERE VARIABLE_NAME = 'INNODB_DEADLOCKS'),"
            + " (SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'INNODB_ROW_LOCK_TIME'),"
            + " (SELECT COUNT FROM information_schema.INNODB_METRICS WHERE NAME = 'lock_timeouts' AND ENABLED = 1)";

    /** How old InnoDB lets its lock-table cache grow before a read refreshes it. */
    private static final long CACHE_REFRESH_MILLIS = 100;

    private long[] atStart;
    private long begunNanos;

    @Override
    public void begin(Connection connection) throws SQLException {
        atStart = counters(connection);
        begunNanos = System.nanoTime();
    }

    @Override
    public List<Wait> sample(Connection connection) throws SQLException {
        waitForACacheOfThisWindow();
        Map<String, Wait> waits = new LinkedHashMap<>();
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(WAITS)) {
            while (rows.next()) {
                String trx = rows.getString(1);
                waits.putIfAbsent(trx, new Wait(trx, rows.getLong(2), table(rows.getString(5)),
                        rows.getString(6), key(rows.getString(7)), rows.getString(3),
                        Math.max(0, rows.getLong(4)) * 1000));
            }
        }
        return new ArrayList<>(waits.values());
    }

    @Override
    public WindowTotals end(Connection connection) throws SQLException {
        long[] now = counters(connection);
        Optional<DeadlockReport> latest;
        try (Statement statement = connection.createStatement();
                ResultSet status = statement.executeQuery("SHOW ENGINE INNODB STATUS")) {
            latest = status.next() ? InnoDbStatus.parse(status.getString("Status")).latestDeadlock()
                    .map(MariaDbLockWindow::report) : Optional.empty();
        }
        long timeouts = now[2] < 0 || atStart[2] < 0 ? -1 : now[2] - atStart[2];
        long deadlocks = now[0] - atStart[0];
        // The latest deadlock may be days old: it belongs in the report only if it is the window's.
        return new WindowTotals(deadlocks, timeouts, now[1] - atStart[1],
                deadlocks > 0 ? latest : Optional.empty());
    }

    private static DeadlockReport report(InnoDbStatus.Deadlock deadlock) {
        return new DeadlockReport(deadlock.detectedAt(), deadlock.statements(),
                deadlock.locks().stream().map(lock -> new TableRef(lock.schema(), lock.table())
                        + " " + String.join(", ", lock.key())).toList(), deadlock.rolledBack());
    }

    private void waitForACacheOfThisWindow() {
        long wait = TimeUnit.MILLISECONDS.toNanos(CACHE_REFRESH_MILLIS + 10) - (System.nanoTime() - begunNanos);
        if (wait > 0) {
            try {
                TimeUnit.NANOSECONDS.sleep(wait);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while sampling lock waits", e);
            }
        }
    }

    private static long[] counters(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery(COUNTERS)) {
            row.next();
            return new long[] {row.getLong(1), row.getLong(2),
                    row.getObject(3) == null ? -1 : row.getLong(3)};
        }
    }

    @Override
    public List<String> keyColumns(Connection connection, TableRef table, String index) throws SQLException {
        List<String> columns = new ArrayList<>();
        try (PreparedStatement query = connection.prepareStatement("SELECT COLUMN_NAME FROM"
                + " information_schema.STATISTICS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?"
                + " AND INDEX_NAME = ? ORDER BY SEQ_IN_INDEX")) {
            query.setString(1, table.schema());
            query.setString(2, table.name());
            query.setString(3, index == null ? "PRIMARY" : index);
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    columns.add(rows.getString(1));
                }
            }
        }
        return columns;
    }

    /** {@code `db`.`table`} as InnoDB names a lock's table. */
    static TableRef table(String quoted) {
        String[] parts = quoted.split("`\\.`", 2);
        return parts.length == 2 ? new TableRef(parts[0].replace("`", ""), parts[1].replace("`", ""))
                : new TableRef("", quoted.replace("`", ""));
    }

    /** InnoDB's decoded key, {@code 1, 'a'}: its values, split at the commas between them. */
    static List<String> key(String lockData) {
        if (lockData == null) {
            return List.of();
        }
        return Arrays.stream(lockData.split(",\\s*(?=(?:[^']*'[^']*')*[^']*$)")).map(String::strip).toList();
    }
}
