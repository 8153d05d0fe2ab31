package io.slotted.internal.dialect;

import io.slotted.OwnerColumn;
import io.slotted.internal.dialect.statements.ExpiryStatements;
import io.slotted.internal.dialect.statements.KeyStatements;
import io.slotted.internal.dialect.statements.NameStatements;
import io.slotted.internal.dialect.statements.OwnerStatements;
import io.slotted.internal.dialect.statements.PostgresOwnerStatements;
import io.slotted.internal.dialect.statements.PostgresSlotStatements;
import io.slotted.internal.dialect.statements.SlotStatements;
import io.slotted.internal.dialect.statements.SpendStatements;
import io.slotted.internal.sql.FlushMark;
import io.slotted.internal.sql.TableName;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * PostgreSQL.
 *
 * <p>The upsert is {@code INSERT … ON CONFLICT (record_type, record_id, slot) DO UPDATE}, which
 * PostgreSQL guarantees to end in either an insert or an update even when another session inserts
 * the same row concurrently. Naming the conflict columns rather than a constraint lets it work on
 * any table whose unique key covers them, including one made from the original pattern's DDL.
 */
public final class PostgresDialect extends Dialect {

    @Override
    public String name() {
        return "PostgreSQL";
    }

    @Override
    public String schemaDatabase() {
        return "postgresql";
    }

    @Override
    public List<String> tableParameters(Connection connection, TableName table) throws SQLException {
        List<String> parameters = new java.util.ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT unnest(reloptions) FROM pg_class WHERE oid = to_regclass(?)")) {
            select.setString(1, table.toString());
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    parameters.add(rows.getString(1));
                }
            }
        }
        return parameters;
    }

    @Override
    public String setTableParametersSql(TableName table, List<String> parameters) {
        return "ALTER TABLE " + table + " SET (" + String.join(", ", parameters) + ")";
    }

    @Override
    public OwnerStatements ownerStatements(OwnerColumn owner, TableName slots) {
        return new PostgresOwnerStatements(owner, slots);
    }

    /**
     * One key lookup per id, whatever the table's statistics say: with an {@code IN} list, a table
     * never analyzed had the totals of 500 counters read by a scan of the type's key range, 35 ms
     * a call under load (docs/benchmarks.md), as a roll-up's chunk was ({@link PostgresSlotStatements}).
     * {@code OFFSET 0} keeps PostgreSQL from pulling the lateral subquery up into a hash join that
     * scans the same range.
     */
    @Override
    public String readTotalsSql(TableName table, int ids) {
        return "SELECT k.id, SUM(c.count) FROM (SELECT CAST(? AS INT) AS record_type) p CROSS JOIN (VALUES"
                + " (CAST(? AS BIGINT))" + ", (?)".repeat(ids - 1) + ") AS k(id) CROSS JOIN LATERAL (SELECT count"
                + " FROM " + table + " WHERE record_type = p.record_type AND record_id = k.id OFFSET 0) c"
                + " GROUP BY k.id";
    }

    @Override
    public SlotStatements slotStatements(TableName counters) {
        return new PostgresSlotStatements(counters);
    }

    @Override
    public String upsertSql(TableName table) {
        return upsert(table, "(?, ?, ?, ?)");
    }

    /** Adds each row of {@code values}, tuples of (type, id, slot, delta), to its slot row. */
    private String upsert(TableName table, String values) {
        return upsert(table, values, checkedSlotValue("c.count + excluded.count"));
    }

    /** Upserts tuples of (type, id, slot, delta), an existing row's count becoming {@code update}. */
    private static String upsert(TableName table, String values, String update) {
        return "INSERT INTO " + table + " AS c (record_type, record_id, slot, count) VALUES " + values
                + " ON CONFLICT (record_type, record_id, slot) DO UPDATE SET count = " + update;
    }

    @Override
    public String upsertBucketsSql(TableName buckets, List<BucketRow> rows) {
        return upsertBuckets(buckets, bucketTuples(rows));
    }

    private String upsertBuckets(TableName buckets, String values) {
        return "INSERT INTO " + buckets + " AS c (record_type, bucket_start, record_id, slot, count)"
                + " VALUES " + values
                + " ON CONFLICT (record_type, bucket_start, record_id, slot)"
                + " DO UPDATE SET count = " + checkedSlotValue("c.count + excluded.count");
    }

    /**
     * An allowance that falls short divides its count by zero: PostgreSQL's "division by zero"
     * (22012), which nothing else in the statement makes.
     */
    @Override
    public Optional<SpendStatements> spendStatements(TableName counters) {
        return Optional.of(new SpendStatements(counters, FLUSH_COMMENT, "count / 0") {
            @Override
            public boolean fellShort(SQLException e) {
                return "22012".equals(e.getSQLState());
            }
        });
    }

    /** The most rows of a flush sent prepared. */
    private static final int PREPARED_FLUSH_ROWS = 64;

    @Override
    public Optional<String> oneStatementFlushSql(TableName table, FlushMark mark, List<SlotRow> rows) {
        return Optional.of(oneStatementFlush(table, tuples(mark, rows)));
    }

    /**
     * PostgreSQL plans a statement sent as text every time: a lone writer's flush, the mark and
     * one row, took 0.26–0.34 ms so and 0.19 ms prepared, as much as a plain one-row upsert
     * (pgbench, one client, docs/benchmarks.md). PgJDBC prepares a statement on the server from
     * its fifth use and keeps the 256 last used per connection: one text per number of rows, up to
     * {@value #PREPARED_FLUSH_ROWS}; a larger flush spreads its plan over its rows and goes as text.
     * (The tests' fault proxies, which look for the flush comment on the wire, connect with
     * {@code prepareThreshold=0}, so that the text goes with every execution.)
     */
    @Override
    public Optional<PreparedFlush> oneStatementFlushPrepared(TableName table, FlushMark mark, List<SlotRow> rows) {
        if (rows.size() > PREPARED_FLUSH_ROWS) {
            return Optional.empty();
        }
        return Optional.of(new PreparedFlush(oneStatementFlush(table, slotParameters(rows.size() + 1)),
                markedParameters(mark, rows, List.of())));
    }

    /**
     * A data-modifying {@code WITH} upserts the bucket rows in the statement that upserts the mark
     * and the slot rows. The main statement does not read the {@code WITH}'s rows, so PostgreSQL
     * runs it to completion after the main statement: the counter rows are locked before the
     * bucket rows, as every writer takes them.
     */
    @Override
    public Optional<String> oneStatementBucketedFlushSql(TableName table, TableName buckets, FlushMark mark,
            List<SlotRow> rows, List<BucketRow> bucketRows) {
        return Optional.of(bucketedFlush(table, buckets, tuples(mark, rows), bucketTuples(bucketRows)));
    }

    @Override
    public Optional<PreparedFlush> oneStatementBucketedFlushPrepared(TableName table, TableName buckets,
            FlushMark mark, List<SlotRow> rows, List<BucketRow> bucketRows) {
        if (rows.size() + bucketRows.size() > PREPARED_FLUSH_ROWS) {
            return Optional.empty();
        }
        return Optional.of(new PreparedFlush(bucketedFlush(table, buckets, slotParameters(rows.size() + 1),
                bucketParameters(bucketRows.size())), markedParameters(mark, rows, bucketRows)));
    }

    private String bucketedFlush(TableName table, TableName buckets, String values, String bucketValues) {
        return FLUSH_COMMENT + "WITH bucket_rows AS (" + upsertBuckets(buckets, bucketValues) + ") "
                + markedUpsert(table, values);
    }

    /** Parameter tuples of (type, id, slot, delta) for {@code count} slot rows. */
    private static String slotParameters(int count) {
        String tuple = "(CAST(? AS INT), CAST(? AS BIGINT), CAST(? AS INT), CAST(? AS BIGINT))";
        return String.join(", ", Collections.nCopies(count, tuple));
    }

    /** Parameter tuples of (type, bucket start, id, slot, delta) for {@code count} bucket rows. */
    private static String bucketParameters(int count) {
        String tuple = "(CAST(? AS INT), CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS INT), CAST(? AS BIGINT))";
        return String.join(", ", Collections.nCopies(count, tuple));
    }

    /**
     * The parameters in the order their places come in the text: the bucket rows' (the
     * {@code WITH} comes first), then the mark's tuple and the slot rows'.
     */
    private long[] markedParameters(FlushMark mark, List<SlotRow> rows, List<BucketRow> bucketRows) {
        long[] parameters = new long[5 * bucketRows.size() + 4 * (rows.size() + 1)];
        int at = 0;
        for (BucketRow row : bucketRows) {
            parameters[at++] = row.key().recordType();
            parameters[at++] = row.key().bucketStart();
            parameters[at++] = row.key().recordId();
            parameters[at++] = row.slot();
            parameters[at++] = row.delta();
        }
        parameters[at++] = FlushMark.RECORD_TYPE;
        parameters[at++] = mark.recordId();
        parameters[at++] = mark.slot();
        parameters[at++] = mark.value();
        for (SlotRow row : rows) {
            for (long value : upsertValues(row.key(), row.slot(), row.delta())) {
                parameters[at++] = value;
            }
        }
        return parameters;
    }

    private String oneStatementFlush(TableName table, String values) {
        return FLUSH_COMMENT + markedUpsert(table, values);
    }

    /** One {@code INSERT … ON CONFLICT DO UPDATE} that sets the mark row, unless fenced, and adds to the others. */
    private String markedUpsert(TableName table, String values) {
        return upsert(table, values, "CASE WHEN c.record_type = " + FlushMark.RECORD_TYPE
                + " THEN " + FlushMark.unlessFenced("c.count", "excluded.count") + " ELSE "
                + checkedSlotValue("c.count + excluded.count") + " END");
    }

    @Override
    public Optional<String> upsertAnsweringTotalSql(TableName table, SlotRow row) {
        return Optional.of(answeringTotals(table, upsert(table, row.tuple())));
    }

    /**
     * An upsert made to answer the total of the counter it writes, in the same statement and
     * round trip ({@code DIRECT} mode). {@code RETURNING} gives the written slot row's new count,
     * taken under its row lock; the other slot rows are summed as of the statement's snapshot, which a data-modifying
     * {@code WITH} does not see into, so the written row is left out of the sum and added from
     * {@code RETURNING}. The snapshot holds every increment committed before the statement began,
     * so the total includes every increment acknowledged before this one was accepted; a plain
     * read takes no lock, so writers of other slots never wait for it.
     */
    private static String answeringTotals(TableName table, String upsert) {
        return "WITH written AS (" + upsert + " RETURNING c.record_type, c.record_id, c.slot, c.count)"
                + " SELECT w.record_type, w.record_id, w.count + COALESCE((SELECT SUM(o.count) FROM "
                + table + " o WHERE o.record_type = w.record_type AND o.record_id = w.record_id"
                + " AND o.slot <> w.slot), 0) FROM written w";
    }

    /**
     * One round trip whatever the names' state: the insert skips names already recorded and
     * numbers already taken ({@code ON CONFLICT DO NOTHING} without a target covers both unique
     * keys), and the query adds the names that were recorded before the statement began, which
     * its snapshot sees and the insert's rows are not part of. A name recorded by a transaction
     * that committed while this one waited on it is in neither half; the caller looks it up.
     */
    @Override
    public NameStatements nameStatements(TableName names) {
        return new NameStatements(names) {
            @Override
            public String claim(int count) {
                return "WITH given (record_type, name, record_id, created_ms)"
                        + " AS (VALUES " + typedValues(count) + "),"
                        + " claimed AS (INSERT INTO " + names + " (record_type, name, record_id, created_ms)"
                        + " SELECT record_type, name, record_id, created_ms FROM given ON CONFLICT DO NOTHING"
                        + " RETURNING name, record_id)"
                        + " SELECT name, record_id FROM claimed UNION ALL SELECT n.name, n.record_id FROM "
                        + names + " n JOIN given g ON n.record_type = g.record_type AND n.name = g.name";
            }
        };
    }

    @Override
    public KeyStatements keyStatements(TableName keys) {
        return new KeyStatements(keys) {
            @Override
            public String insertIfAbsent() {
                return "INSERT INTO " + keys + " (" + COLUMNS + ") VALUES (?, ?, ?, ?)"
                        + " ON CONFLICT (idempotency_key) DO NOTHING";
            }
        };
    }

    @Override
    protected Failure classifyVendorCode(int vendorCode, String sqlState) {
        return switch (sqlState) {
            case "40P01", "55P03" -> Failure.CONTENTION;          // deadlock, lock not available
            case "42P01" -> Failure.MISSING_TABLE;                // undefined table
            case "42703" -> Failure.WRONG_SHAPE;                  // undefined column
            case "57P01", "57P02", "57P03" -> Failure.CONNECTION; // server shutting down or starting
            default -> Failure.OTHER;
        };
    }

    @Override
    public ExpiryStatements expiryStatements(TableName expiry, TableName counters) {
        return new ExpiryStatements(expiry, counters) {
            @Override
            public String insertMissing(int count) {
                return "INSERT INTO " + expiry + " (record_type, record_id) VALUES " + parameterTuples(count, 2)
                        + " ON CONFLICT (record_type, record_id) DO NOTHING";
            }
        };
    }
}
