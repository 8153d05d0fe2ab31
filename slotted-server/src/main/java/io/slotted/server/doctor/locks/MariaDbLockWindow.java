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
 * Row-lock waits on MariaDB's InnoDB.
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
 *
 * <p>{@link MySqlLockWindow} asks MySQL 8's tables instead and keeps the rest.
 */
public class MariaDbLockWindow implements LockWindow {
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
                ResultSet rows = statement.executeQuery(waitsSql())) {
            while (rows.next()) {
                Wait wait = waitOf(rows);
                waits.putIfAbsent(wait.waiter(), wait);
            }
        }
        return new ArrayList<>(waits.values());
    }

    /**
     * The query of the sessions waiting for a row lock: one row per waiting transaction and lock
     * it waits behind, beginning with the transaction's id, its connection, its statement and the
     * whole seconds it has waited.
     *
     * @return the SQL text
     */
    String waitsSql() {
        return WAITS;
    }

    /**
     * One row of {@link #waitsSql()} as a wait.
     *
     * @param row the row
     * @return the wait
     * @throws SQLException if the row cannot be read
     */
    Wait waitOf(ResultSet row) throws SQLException {
        return new Wait(row.getString(1), row.getLong(2), table(row.getString(5)), row.getString(6),
                key(row.getString(7)), row.getString(3), waitedMillis(row.getLong(4)));
    }

    /** InnoDB's whole seconds waited, as the lower bound in milliseconds. */
    static long waitedMillis(long seconds) {
        return Math.max(0, seconds) * 1000;
    }

    /**
     * The query of the window's counters in one row: deadlocks, row-lock time in milliseconds and
     * lock-wait timeouts, each null where the server does not count it.
     *
     * @return the SQL text
     */
    String countersSql() {
        return COUNTERS;
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
        long deadlocks = difference(atStart[0], now[0]);
        // The latest deadlock may be days old: it belongs in the report only if it is the window's.
        return new WindowTotals(deadlocks, difference(atStart[2], now[2]), difference(atStart[1], now[1]),
                deadlocks > 0 ? latest : Optional.empty());
    }

    /** How far a counter moved in the window, or -1 where it is not counted. */
    private static long difference(long atStart, long atEnd) {
        return atStart < 0 || atEnd < 0 ? -1 : atEnd - atStart;
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

    private long[] counters(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery(countersSql())) {
            row.next();
            return new long[] {counted(row, 1), counted(row, 2), counted(row, 3)};
        }
    }

    private static long counted(ResultSet row, int column) throws SQLException {
        return row.getObject(column) == null ? -1 : row.getLong(column);
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
