package io.slotted.server.doctor.locks;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Row-lock waits on PostgreSQL.
 *
 * <p>A session waiting to update a row another transaction holds first takes the row's tuple lock
 * and then waits for the holder's transaction id; sessions arriving after it wait for the tuple
 * lock. So each sample takes the sessions of this database that wait for a lock
 * ({@code pg_stat_activity.wait_event_type = 'Lock'}), with {@code pg_locks.waitstart} and the
 * tuple lock each holds or waits for, which names the relation and the row's physical address
 * (page, tuple). The row's key is read by that address ({@code WHERE ctid = …}), which works while
 * the holder has not committed and the address is still the row's; a row updated many times a
 * second moves on before that, and then the key is taken from the waiting statement when it
 * names a single-column key as a literal ({@code WHERE id = 1}). A wait whose row cannot be named
 * either way counts for the one named row of its table, if there is one. The window's deadlocks are
 * {@code pg_stat_database.deadlocks} read at both ends; PostgreSQL counts neither lock-wait
 * timeouts nor row-lock time. Other users' statements show only to a superuser or a member of
 * {@code pg_read_all_stats}.
 */
public final class PostgresLockWindow implements LockWindow {
    private static final String WAITS = "SELECT a.pid, a.xact_start::text, a.query,"
            + " COALESCE(EXTRACT(EPOCH FROM now() - w.waitstart) * 1000, 0)::bigint,"
            + " n.nspname, c.relname, t.relation, t.page, t.tuple"
            + " FROM pg_stat_activity a"
            + " JOIN pg_locks w ON w.pid = a.pid AND NOT w.granted"
            + " LEFT JOIN pg_locks t ON t.pid = a.pid AND t.locktype = 'tuple'"
            + " LEFT JOIN pg_class c ON c.oid = t.relation"
            + " LEFT JOIN pg_namespace n ON n.oid = c.relnamespace"
            + " WHERE a.wait_event_type = 'Lock' AND a.datname = current_database()"
            + " AND a.pid <> pg_backend_pid()";
    private static final String DEADLOCKS =
            "SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()";

    /** Keys read by address, so that each row is read once. */
    private final Map<String, List<String>> keysByAddress = new HashMap<>();
    private long deadlocksAtStart;

    @Override
    public void begin(Connection connection) throws SQLException {
        deadlocksAtStart = deadlocks(connection);
    }

    @Override
    public List<Wait> sample(Connection connection) throws SQLException {
        List<Wait> waits = new ArrayList<>();
        List<Object[]> rows = new ArrayList<>();
        try (Statement statement = connection.createStatement();
                ResultSet found = statement.executeQuery(WAITS)) {
            while (found.next()) {
                if (found.getString(6) == null) {
                    continue; // waiting for something other than a row of a table
                }
                rows.add(new Object[] {found.getLong(1), found.getString(2), found.getString(3),
                        found.getLong(4), found.getString(5), found.getString(6), found.getLong(7),
                        found.getInt(8), found.getInt(9)});
            }
        }
        for (Object[] row : rows) {
            TableRef table = new TableRef((String) row[4], (String) row[5]);
            String address = "(" + row[7] + "," + row[8] + ")";
            String statement = (String) row[2];
            List<String> key = keysByAddress.get(row[6] + address);
            if (key == null) {
                key = readKey(connection, table, address, statement);
                if (!key.isEmpty()) {
                    keysByAddress.put(row[6] + address, key);
                }
            }
            waits.add(new Wait(row[0] + "@" + row[1], (Long) row[0], table, null, key, statement,
                    (Long) row[3]));
        }
        return waits;
    }

    /**
     * The key of the row at {@code address}, read while that version is still the row's; failing
     * that, the key a single-column {@code WHERE key = literal} of the waiting statement names;
     * empty when neither says (the row's updates moved it before it could be read, and the
     * statement passes its key as a parameter).
     */
    private List<String> readKey(Connection connection, TableRef table, String address, String statement) {
        try {
            List<String> columns = keyColumns(connection, table, null);
            if (columns.isEmpty()) {
                return List.of();
            }
            String select = "SELECT " + String.join(", ", columns.stream().map(PostgresLockWindow::quote).toList())
                    + " FROM " + quote(table.schema()) + "." + quote(table.name()) + " WHERE ctid = ?::tid";
            try (PreparedStatement query = connection.prepareStatement(select)) {
                query.setString(1, address);
                try (ResultSet row = query.executeQuery()) {
                    if (row.next()) {
                        List<String> key = new ArrayList<>();
                        for (int i = 1; i <= columns.size(); i++) {
                            key.add(row.getString(i));
                        }
                        return key;
                    }
                }
            }
            return columns.size() == 1 ? literalKey(columns.get(0), statement) : List.of();
        } catch (SQLException e) {
            return List.of();
        }
    }

    private static List<String> literalKey(String column, String statement) {
        Matcher literal = Pattern.compile("(?i)\\bwhere\\s+\"?" + Pattern.quote(column)
                + "\"?\\s*=\\s*('?)(-?[\\w.]+)\\1\\s*;?\\s*$").matcher(statement == null ? "" : statement.strip());
        return literal.find() ? List.of(literal.group(2)) : List.of();
    }

    @Override
    public WindowTotals end(Connection connection) throws SQLException {
        return new WindowTotals(deadlocks(connection) - deadlocksAtStart, -1, -1, Optional.empty());
    }

    @Override
    public List<String> keyColumns(Connection connection, TableRef table, String index) throws SQLException {
        List<String> columns = new ArrayList<>();
        try (PreparedStatement query = connection.prepareStatement("SELECT a.attname FROM pg_index i"
                + " JOIN pg_class c ON c.oid = i.indrelid JOIN pg_namespace n ON n.oid = c.relnamespace"
                + " JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, position) ON true"
                + " JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k.attnum"
                + " WHERE i.indisprimary AND n.nspname = ? AND c.relname = ? ORDER BY k.position")) {
            query.setString(1, table.schema());
            query.setString(2, table.name());
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    columns.add(rows.getString(1));
                }
            }
        }
        return columns;
    }

    private static long deadlocks(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery(DEADLOCKS)) {
            return row.next() ? row.getLong(1) : 0;
        }
    }

    private static String quote(String identifier) {
        return "\"" + identifier.replace("\"", "\"\"") + "\"";
    }
}
