package io.slotted.internal.dialect.statements;

import io.slotted.internal.sql.TableName;

/**
 * The statements that read, lock and delete time bucket rows outside the flush: a series, a
 * top-N, the moving of pending rows, the folding of a bucket's slots and the pruning of expired
 * buckets. Standard SQL that every supported database takes; a dialect whose database needs
 * other text returns a subclass from {@code Dialect.bucketStatements}.
 *
 * <p>A bucket's count is its rows in the bucket table plus its pending rows in the counter table
 * (slots given as a range, {@code PendingSlots}), read in one statement: one snapshot, which
 * sees a pending row either before the bucket keeper moved it into the bucket table or after,
 * never both.
 */
public class BucketStatements {
    /** The bucket table. */
    protected final TableName buckets;
    /** The counter table, which holds the pending rows. */
    protected final TableName counters;

    /**
     * The statements of one bucket table.
     *
     * @param buckets the bucket table
     * @param counters the counter table beside it
     */
    public BucketStatements(TableName buckets, TableName counters) {
        this.buckets = buckets;
        this.counters = counters;
    }

    /**
     * One counter's count per bucket over a window, bucket rows and pending rows. Binds type, id,
     * the window's start and end, then type, id, and the lowest and highest pending slot of the
     * window.
     *
     * @return the SQL text; rows of (bucket start, count, 0) for bucket rows and (0, count,
     *     pending slot) for pending rows
     */
    public String series() {
        return "SELECT bucket_start, SUM(count), 0 FROM " + buckets
                + " WHERE record_type = ? AND record_id = ? AND bucket_start >= ? AND bucket_start < ?"
                + " GROUP BY bucket_start"
                + " UNION ALL SELECT 0, count, slot FROM " + counters
                + " WHERE record_type = ? AND record_id = ? AND slot BETWEEN ? AND ?";
    }

    /**
     * The query of a top-N: per counter, the sum of its rows in a range of buckets and of its
     * pending rows there, the highest {@code n} first, ties by id. Binds the record type, the
     * first bucket's start and the end, the record type, the lowest and highest pending slot, and
     * {@code n}.
     *
     * @return the SQL text; rows of (record id, sum)
     */
    public String top() {
        return "SELECT " + groupsManyRows() + "record_id, SUM(n) AS total FROM (SELECT record_id, count AS n FROM "
                + buckets + " WHERE record_type = ? AND bucket_start >= ? AND bucket_start < ?"
                + " UNION ALL SELECT record_id, count AS n FROM " + counters
                + " WHERE record_type = ? AND slot BETWEEN ? AND ?) t"
                + " GROUP BY record_id HAVING SUM(n) <> 0 ORDER BY total DESC, record_id LIMIT ?";
    }

    /**
     * A hint that a query's grouping has about as many groups as rows, or an empty string.
     *
     * @return text to put after {@code SELECT}
     */
    protected String groupsManyRows() {
        return "";
    }

    /**
     * The ids of a type's counters with pending rows in a range of slots, locking nothing. Binds
     * the type and the lowest and highest slot.
     *
     * @return the SQL text; rows of ids, ascending
     */
    public String idsPending() {
        return "SELECT DISTINCT record_id FROM " + counters + " WHERE record_type = ? AND slot BETWEEN ? AND ?"
                + " ORDER BY record_id";
    }

    /**
     * Reads and locks some counters' pending rows in a range of slots, in key order. Binds the
     * type, the lowest and highest slot, and the {@code ids} ids.
     *
     * @param ids how many ids
     * @return the SQL text; rows of (record id, slot, count)
     */
    public String lockPending(int ids) {
        return "SELECT record_id, slot, count FROM " + counters + " WHERE record_type = ? AND slot BETWEEN ? AND ?"
                + " AND record_id IN (" + SlotStatements.placeholders(ids) + ") ORDER BY record_id, slot FOR UPDATE";
    }

    /**
     * Some counters' counts in one bucket, as a windowed type's reads answer them. Binds the type,
     * the bucket's start and the {@code ids} ids.
     *
     * @param ids how many ids
     * @return the SQL text; rows of (record id, count), none for a counter without rows there
     */
    public String countsInBucket(int ids) {
        return "SELECT record_id, SUM(count) FROM " + buckets + " WHERE record_type = ? AND bucket_start = ?"
                + " AND record_id IN (" + SlotStatements.placeholders(ids) + ") GROUP BY record_id";
    }

    /**
     * Reads and locks the rows of some counters in one bucket, in key order. Binds the type, the
     * bucket's start and the {@code ids} ids.
     *
     * @param ids how many ids
     * @return the SQL text; rows of (record id, slot, count)
     */
    public String lockInBucket(int ids) {
        return "SELECT record_id, slot, count FROM " + buckets + " WHERE record_type = ? AND bucket_start = ?"
                + " AND record_id IN (" + SlotStatements.placeholders(ids) + ") ORDER BY record_id, slot FOR UPDATE";
    }

    /**
     * The ids of a bucket's counters held in more than one slot row. Binds the type and the
     * bucket's start.
     *
     * @return the SQL text; rows of ids, ascending
     */
    public String idsInManySlots() {
        return "SELECT record_id FROM " + buckets + " WHERE record_type = ? AND bucket_start = ?"
                + " GROUP BY record_id HAVING COUNT(*) > 1 ORDER BY record_id";
    }

    /**
     * The keys of a type's rows in buckets that start before a time, at most {@code limit}, in key
     * order. Binds the type and the time.
     *
     * @param limit how many rows at most
     * @return the SQL text; rows of (bucket start, record id, slot)
     */
    public String expired(int limit) {
        return "SELECT bucket_start, record_id, slot FROM " + buckets + " WHERE record_type = ?"
                + " AND bucket_start < ? ORDER BY bucket_start, record_id, slot LIMIT " + limit;
    }

    /**
     * Deletes one bucket row by its whole key. Binds type, bucket start, id and slot.
     *
     * @return the SQL text
     */
    public String deleteRow() {
        return "DELETE FROM " + buckets + " WHERE record_type = ? AND bucket_start = ? AND record_id = ?"
                + " AND slot = ?";
    }
}
