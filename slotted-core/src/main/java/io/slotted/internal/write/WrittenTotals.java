package io.slotted.internal.write;

import io.slotted.internal.dialect.Dialect;
import io.slotted.internal.sql.CounterKey;
import io.slotted.internal.sql.TableName;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * The totals a write learns of the counters it wrote, for callers that want the total right after
 * their increment's commit ({@code addAndGet}).
 *
 * <p>A query of the written counters ({@link Dialect#totalsSql}) follows the write on the same
 * connection: in the same packet where the connections take several statements
 * ({@link Dialect#flushThenTotalsSql}), one round trip; else right after it in auto-commit, or
 * before COMMIT in its transaction, where it sees the transaction's own rows and everything
 * committed before it: write transactions read committed, on InnoDB too
 * ({@code Transactions.readCommitted}), so no snapshot taken earlier in the transaction hides
 * what others committed since. {@code DIRECT} mode on PostgreSQL asks its upsert itself
 * ({@link Dialect#upsertAnsweringTotalSql}). Either way the total includes the write and every increment acknowledged
 * before it was accepted. A counter the answer leaves out (one whose increments cancelled out in a
 * flush writes no row) or whose total is past 64 bits (rows written outside Slotted) is not
 * learned: the writer reads it again as reads do, which report such a total.
 */
public final class WrittenTotals {
    private static final BigDecimal MIN = BigDecimal.valueOf(Long.MIN_VALUE);
    private static final BigDecimal MAX = BigDecimal.valueOf(Long.MAX_VALUE);

    private WrittenTotals() {
    }

    /**
     * Runs a statement that writes and answers totals, as rows of {@code (record_type,
     * record_id, total)} after any update counts.
     *
     * @param statement a statement of the writing connection
     * @param sql the statement's text
     * @return each counter it answered for, with its total
     * @throws SQLException if it fails or answers no rows
     */
    public static Map<CounterKey, Long> execute(Statement statement, String sql) throws SQLException {
        boolean rows = statement.execute(sql);
        while (!rows) {
            if (statement.getUpdateCount() == -1) {
                throw new SQLException("the statement answered no totals: " + sql);
            }
            rows = statement.getMoreResults();
        }
        Map<CounterKey, Long> totals = new HashMap<>();
        try (ResultSet answered = statement.getResultSet()) {
            read(answered).forEach((key, total) -> putIfInRange(totals, key, total));
        }
        return totals;
    }

    /**
     * Reads the totals of counters a write just wrote, on the write's connection.
     *
     * @param connection the connection that wrote, in auto-commit or before COMMIT
     * @param dialect its database's dialect
     * @param table the counter table
     * @param keys the counters
     * @return each counter with its total, 0 for one with no rows, none for one past 64 bits
     * @throws SQLException if the query fails
     */
    public static Map<CounterKey, Long> query(Connection connection, Dialect dialect, TableName table,
            Collection<CounterKey> keys) throws SQLException {
        Map<CounterKey, BigDecimal> sums;
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(dialect.totalsSql(table, keys))) {
            sums = read(rows);
        }
        Map<CounterKey, Long> totals = new HashMap<>();
        keys.forEach(key -> putIfInRange(totals, key, sums.getOrDefault(key, BigDecimal.ZERO)));
        return totals;
    }

    private static Map<CounterKey, BigDecimal> read(ResultSet rows) throws SQLException {
        Map<CounterKey, BigDecimal> sums = new HashMap<>();
        while (rows.next()) {
            BigDecimal sum = rows.getBigDecimal(3);
            sums.put(new CounterKey(rows.getInt(1), rows.getLong(2)), sum == null ? BigDecimal.ZERO : sum);
        }
        return sums;
    }

    /** Totals are sums over wider types; one past 64 bits is left out. */
    private static void putIfInRange(Map<CounterKey, Long> totals, CounterKey key, BigDecimal total) {
        if (total.compareTo(MIN) >= 0 && total.compareTo(MAX) <= 0) {
            totals.put(key, total.longValueExact());
        }
    }
}
