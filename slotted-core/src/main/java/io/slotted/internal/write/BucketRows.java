package io.slotted.internal.write;

import io.slotted.internal.dialect.BucketRow;
import io.slotted.internal.dialect.Dialect;
import io.slotted.internal.dialect.statements.BucketStatements;
import io.slotted.internal.sql.TableName;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The one way time bucket rows are upserted, for every write path. */
public final class BucketRows {
    private BucketRows() {
    }

    /**
     * Adds the rows' deltas to their bucket rows in the caller's transaction, after its counter
     * rows: bucket rows are locked after counter rows by every writer.
     *
     * @param connection a connection in the caller's transaction
     * @param dialect the database's dialect
     * @param buckets the bucket table
     * @param rows the rows in lock order; none is fine
     * @throws SQLException if the upsert fails; the caller rolls back and classifies
     */
    public static void upsert(Connection connection, Dialect dialect, TableName buckets,
            List<BucketRow> rows) throws SQLException {
        if (rows.isEmpty()) {
            return;
        }
        try (Statement statement = connection.createStatement()) {
            for (String upsert : statements(dialect, buckets, rows)) {
                statement.executeUpdate(upsert);
            }
        }
    }

    /**
     * The statements that upsert the rows, each of at most the dialect's
     * {@link Dialect#rowsPerAddingStatement} rows, for a
     * caller that sends them in a batch of its own.
     *
     * @param dialect the database's dialect
     * @param buckets the bucket table
     * @param rows the rows in lock order
     * @return the statements, in order; none for no rows
     */
    public static List<String> statements(Dialect dialect, TableName buckets, List<BucketRow> rows) {
        List<String> statements = new ArrayList<>();
        int perStatement = dialect.rowsPerAddingStatement();
        for (int from = 0; from < rows.size(); from += perStatement) {
            statements.add(dialect.upsertBucketsSql(buckets,
                    rows.subList(from, Math.min(rows.size(), from + perStatement))));
        }
        return statements;
    }

    /**
     * Reads and locks some counters' rows in one bucket until the caller's transaction ends, in
     * key order, as every writer takes them.
     *
     * @param connection a connection in a transaction
     * @param sql the bucket table's statements
     * @param recordType the type
     * @param bucketStart the bucket
     * @param ids the counters' ids, at most a few thousand
     * @return each counter that has rows there, in id order, with its rows and their sum
     * @throws SQLException if the read fails
     */
    public static Collection<CounterRows> lock(Connection connection, BucketStatements sql, int recordType,
            long bucketStart, List<Long> ids) throws SQLException {
        Map<Long, CounterRows> locked = new LinkedHashMap<>();
        try (PreparedStatement select = connection.prepareStatement(sql.lockInBucket(ids.size()))) {
            int at = 1;
            select.setInt(at++, recordType);
            select.setLong(at++, bucketStart);
            for (Long id : ids) {
                select.setLong(at++, id);
            }
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    locked.computeIfAbsent(rows.getLong(1), CounterRows::new).add(rows.getInt(2), rows.getLong(3));
                }
            }
        }
        return locked.values();
    }
}
