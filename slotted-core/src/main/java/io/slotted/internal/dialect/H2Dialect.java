package io.slotted.internal.dialect;

import io.slotted.internal.dialect.statements.ExpiryStatements;
import io.slotted.internal.dialect.statements.KeyStatements;
import io.slotted.internal.dialect.statements.NameStatements;
import io.slotted.internal.sql.TableName;
import java.sql.Connection;
import java.util.List;

/**
 * H2, the embedded default.
 *
 * <p>H2 has no {@code ON CONFLICT DO UPDATE}, and in MySQL mode a session waiting on a row locked
 * by another session's open {@code ON DUPLICATE KEY UPDATE} can spin past its lock timeout. So this
 * dialect uses the standard {@code MERGE … USING}: it updates the slot row if it exists and inserts
 * it otherwise. Two sessions that both find the row missing both try to insert it; the loser gets
 * a duplicate-key error, nothing of its statement is applied, and trying again finds the row and
 * updates it. {@link Failure#DUPLICATE_KEY} makes the engine do exactly that.
 *
 * <p>Every statement that adds to rows adds to one row. H2 (2.5) repeats a statement that meets a
 * concurrent change, a row another session inserted, updated or deleted meanwhile, without undoing
 * the rows the statement had already changed: a multi-row {@code MERGE} that adds deltas then adds
 * those rows' deltas twice (measured: 4 sessions of 3-row merges, one deleting rows of 0, drift
 * every run). A statement of one row has changed nothing when it meets the change, so its repeat is
 * exact. So a flush is never one multi-row statement here: it claims its number in the ledger and
 * writes a statement per row in one transaction, and bucket rows go one per statement.
 */
public final class H2Dialect extends Dialect {

    @Override
    public String name() {
        return "H2";
    }

    @Override
    public String schemaDatabase() {
        return "h2";
    }

    /** H2's own level, 6: its repeatable read takes each table's snapshot when first read. */
    @Override
    public int snapshotIsolation() {
        return 6;
    }

    /** H2 reads each table of a statement as of when it reaches it. */
    @Override
    public boolean statementReadsOneSnapshot() {
        return false;
    }

    @Override
    public String upsertSql(TableName table) {
        return merge(table, "(CAST(? AS INT), CAST(? AS BIGINT), CAST(? AS INT), CAST(? AS BIGINT))");
    }

    /**
     * A {@code MERGE} that inserts a name only when neither it nor its number is recorded. Two
     * sessions inserting the same name at once fail the loser with a duplicate key, which the
     * caller takes as contention and repeats.
     */
    @Override
    public NameStatements nameStatements(TableName names) {
        return new NameStatements(names) {
            @Override
            public String claim(int count) {
                return "MERGE INTO " + names + " AS n USING (VALUES " + typedValues(count) + ")"
                        + " AS g (record_type, name, record_id, created_ms)"
                        + " ON n.record_type = g.record_type AND n.name = g.name"
                        + " WHEN NOT MATCHED AND NOT EXISTS (SELECT 1 FROM " + names + " t"
                        + " WHERE t.record_type = g.record_type AND t.record_id = g.record_id)"
                        + " THEN INSERT (record_type, name, record_id, created_ms)"
                        + " VALUES (g.record_type, g.name, g.record_id, g.created_ms)";
            }

            @Override
            public boolean claimAnswers() {
                return false;
            }
        };
    }

    /** One: see the class comment. */
    @Override
    public int rowsPerAddingStatement() {
        return 1;
    }

    @Override
    public String upsertBucketsSql(TableName buckets, List<BucketRow> rows) {
        return "MERGE INTO " + buckets + " AS c USING (VALUES " + bucketTuples(rows) + ")"
                + " AS s (record_type, bucket_start, record_id, slot, delta)"
                + " ON c.record_type = s.record_type AND c.bucket_start = s.bucket_start"
                + " AND c.record_id = s.record_id AND c.slot = s.slot"
                + " WHEN MATCHED THEN UPDATE SET count = " + checkedSlotValue("c.count + s.delta")
                + " WHEN NOT MATCHED THEN INSERT (record_type, bucket_start, record_id, slot, count)"
                + " VALUES (s.record_type, s.bucket_start, s.record_id, s.slot, s.delta)";
    }

    /** Adds each row of {@code values}, tuples of (type, id, slot, delta), to its slot row. */
    private String merge(TableName table, String values) {
        return "MERGE INTO " + table + " AS c USING (VALUES " + values + ")"
                + " AS s (record_type, record_id, slot, delta)"
                + " ON c.record_type = s.record_type AND c.record_id = s.record_id AND c.slot = s.slot"
                + " WHEN MATCHED THEN UPDATE SET count = " + checkedSlotValue("c.count + s.delta")
                + " WHEN NOT MATCHED THEN INSERT (record_type, record_id, slot, count)"
                + " VALUES (s.record_type, s.record_id, s.slot, s.delta)";
    }

    /** A concurrent insert of the same new key fails the loser with a duplicate key: retried. */
    @Override
    public KeyStatements keyStatements(TableName keys) {
        return new KeyStatements(keys) {
            @Override
            public String insertIfAbsent() {
                return "MERGE INTO " + keys + " AS k"
                        + " USING (VALUES (CAST(? AS VARCHAR(128)), CAST(? AS VARCHAR(200)),"
                        + " CAST(? AS VARCHAR(100)), CAST(? AS BIGINT)))"
                        + " AS s (" + COLUMNS + ")"
                        + " ON k.idempotency_key = s.idempotency_key"
                        + " WHEN NOT MATCHED THEN INSERT (" + COLUMNS + ") VALUES (s.idempotency_key,"
                        + " s.fingerprint, s.flush_ref, s.created_ms)";
            }
        };
    }

    @Override
    protected Failure classifyVendorCode(int vendorCode, String sqlState) {
        return switch (vendorCode) {
            case 40001, 50200, 90131 -> Failure.CONTENTION;       // deadlock, lock timeout, concurrent update
            case 23505 -> Failure.DUPLICATE_KEY;
            case 42102, 42104 -> Failure.MISSING_TABLE;           // table not found
            case 42122 -> Failure.WRONG_SHAPE;                    // column not found
            case 90096 -> Failure.NOT_PERMITTED;                  // not enough rights
            case 90067, 90098, 90121 -> Failure.CONNECTION;       // connection broken, database closed
            default -> Failure.OTHER;
        };
    }

    /**
     * One index lookup per id: H2 reads an {@code IN} list on the primary key's second column by
     * scanning every row of the type (456,026 rows for 34 ids, measured), where an equality per id
     * in a scalar subquery is a lookup.
     */
    @Override
    public String readTotalsSql(TableName table, int ids) {
        return "SELECT k.i, (SELECT SUM(c.count) FROM " + table + " c WHERE c.record_type = ? AND"
                + " c.record_id = k.i) FROM (VALUES (CAST(? AS BIGINT))"
                + ", (?)".repeat(ids - 1) + ") AS k(i)";
    }

    /** An embedded database has no round trip to save: no multi-statement packets, not asked. */
    @Override
    public boolean takesMultiStatements(Connection connection) {
        return false;
    }

    /**
     * A {@code MERGE} of one counter; two sessions creating the same row at once fail the loser
     * with a duplicate key, and the caller repeats the statement.
     */
    @Override
    public ExpiryStatements expiryStatements(TableName expiry, TableName counters) {
        return new ExpiryStatements(expiry, counters) {
            @Override
            public String insertMissing(int count) {
                return "MERGE INTO " + expiry + " AS e USING (VALUES (CAST(? AS INT), CAST(? AS BIGINT)))"
                        + " AS s (record_type, record_id)"
                        + " ON e.record_type = s.record_type AND e.record_id = s.record_id"
                        + " WHEN NOT MATCHED THEN INSERT (record_type, record_id)"
                        + " VALUES (s.record_type, s.record_id)";
            }

            @Override
            public int rowsPerInsert() {
                return 1;
            }

            /** One index lookup per id, as {@code readTotalsSql} does. */
            @Override
            public String readTotalsUnlessExpired(int ids) {
                return "SELECT k.i, (SELECT SUM(c.count) FROM " + counters + " c WHERE c.record_type = t.rt"
                        + " AND c.record_id = k.i AND NOT EXISTS (SELECT 1 FROM " + expiry + " e"
                        + " WHERE e.record_type = t.rt"
                        + " AND e.record_id = k.i AND e.expires_ms <= t.now)) FROM (VALUES (CAST(? AS BIGINT),"
                        + " CAST(? AS INT))) AS t(now, rt), (VALUES (CAST(? AS BIGINT))" + ", (?)".repeat(ids - 1)
                        + ") AS k(i)";
            }
        };
    }
}
