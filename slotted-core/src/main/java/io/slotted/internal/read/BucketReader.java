package io.slotted.internal.read;

import io.slotted.BucketCount;
import io.slotted.BucketUnit;
import io.slotted.RankedCounter;
import io.slotted.internal.bucket.BucketWindow;
import io.slotted.internal.bucket.PendingSlots;
import io.slotted.internal.jdbc.Database;
import io.slotted.internal.jdbc.Retrier;
import io.slotted.internal.mutation.Mutation;
import io.slotted.internal.sql.CounterKey;
import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads time buckets: one counter's series, and the top counters of a window. A bucket's count is
 * its rows in the bucket table and its pending rows in the counter table ({@code PendingSlots}),
 * read in one statement.
 *
 * <p>A series reads the counter's rows through the bucket table's per-counter index and fills in
 * the buckets without rows as zeros. A top-N sums, per counter, every row of the window's buckets
 * in one range of the primary key, which begins with the bucket; the database sorts the sums.
 * Closed buckets have had their slots folded into one row per counter (see
 * {@code BucketKeeper}), so a window of closed buckets reads about one row per counter and bucket.
 */
public final class BucketReader {
    private final Database database;
    private final Retrier retrier;

    /**
     * Creates the reader.
     *
     * @param database where to read
     * @param retrier how failures are reported
     */
    public BucketReader(Database database, Retrier retrier) {
        this.database = database;
        this.retrier = retrier;
    }

    /**
     * Reads one counter's buckets.
     *
     * @param key the counter
     * @param window the buckets to read
     * @return one entry per bucket of the window, oldest first, zeros included
     */
    public List<BucketCount> series(CounterKey key, BucketWindow window) {
        BucketUnit unit = window.buckets().unit();
        PendingSlots.Range pending = pendingSlots(window);
        Map<Long, Long> found = retrier.read("read the series of counter " + key, (connection, dialect) -> {
            Map<Long, BigDecimal> sums = new HashMap<>();
            try (PreparedStatement select = connection.prepareStatement(database.bucketStatements().series())) {
                select.setInt(1, key.recordType());
                select.setLong(2, key.recordId());
                select.setLong(3, window.firstStart());
                select.setLong(4, window.end());
                select.setInt(5, key.recordType());
                select.setLong(6, key.recordId());
                select.setInt(7, pending.low());
                select.setInt(8, pending.high());
                try (ResultSet rows = select.executeQuery()) {
                    while (rows.next()) {
                        int slot = rows.getInt(3);
                        long start = slot == 0 ? rows.getLong(1) : PendingSlots.bucketStart(slot, unit);
                        sums.merge(start, rows.getBigDecimal(2), BigDecimal::add);
                    }
                }
            }
            Map<Long, Long> counts = new HashMap<>();
            sums.forEach((start, sum) -> counts.put(start, CounterReader.toLong(sum, key)));
            return counts;
        });
        List<BucketCount> series = new ArrayList<>(window.count());
        for (long start : window.starts()) {
            series.add(new BucketCount(Instant.ofEpochSecond(start), found.getOrDefault(start, 0L)));
        }
        return series;
    }

    /**
     * Reads the counters of a type with the highest sums over a window.
     *
     * @param recordType the type
     * @param window the buckets to sum
     * @param n how many counters, at most
     * @return up to {@code n} counters with a non-zero sum, highest first, ties by id
     */
    public List<RankedCounter> top(int recordType, BucketWindow window, int n) {
        PendingSlots.Range pending = pendingSlots(window);
        return retrier.read("read the top " + n + " counters of record_type " + recordType,
                (connection, dialect) -> {
                    List<RankedCounter> top = new ArrayList<>(n);
                    try (PreparedStatement select = connection.prepareStatement(database.bucketStatements().top())) {
                        select.setInt(1, recordType);
                        select.setLong(2, window.firstStart());
                        select.setLong(3, window.end());
                        select.setInt(4, recordType);
                        select.setInt(5, pending.low());
                        select.setInt(6, pending.high());
                        select.setInt(7, n);
                        try (ResultSet rows = select.executeQuery()) {
                            while (rows.next()) {
                                long id = rows.getLong(1);
                                top.add(new RankedCounter(id, CounterReader.toLong(rows.getBigDecimal(2),
                                        new CounterKey(recordType, id))));
                            }
                        }
                    }
                    return top;
                });
    }

    /** The pending slots of a window's buckets. */
    private static PendingSlots.Range pendingSlots(BucketWindow window) {
        if (Mutation.BUCKET_READ_WITHOUT_PENDING.planted()) {
            return new PendingSlots.Range(PendingSlots.TOP, PendingSlots.TOP - 1);
        }
        return PendingSlots.range(window.firstStart(), window.end(), window.buckets().unit());
    }
}
