package io.slotted.internal.dialect.statements;

import io.slotted.internal.sql.TableName;

/**
 * The statements that read, lock and delete time bucket rows outside the flush: a series, the
 * folding of a bucket's slots and the pruning of expired buckets. Standard SQL that every
 * supported database takes; a dialect whose database needs other text returns a subclass from
 * {@code Dialect.bucketStatements}.
 */
public class BucketStatements {
    /** The bucket table. */
    protected final TableName buckets;

    /**
     * The statements of one bucket table.
     *
     * @param buckets the bucket table
     */
    public BucketStatements(TableName buckets) {
        this.buckets = buckets;
    }

    /**
     * One counter's count per bucket over a window. Binds type, id, the window's start and end.
     *
     * @return the SQL text; rows of (bucket start, count)
     */
    public String series() {
        return "SELECT bucket_start, SUM(count) FROM " + buckets
                + " WHERE record_type = ? AND record_id = ? AND bucket_start >= ? AND bucket_start < ?"
                + " GROUP BY bucket_start";
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
