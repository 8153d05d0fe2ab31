package io.slotted.internal.admin;

import io.slotted.BucketUnit;
import io.slotted.CounterOverflowException;
import io.slotted.internal.bucket.PendingSlots;
import io.slotted.internal.dialect.BucketRow;
import io.slotted.internal.dialect.Dialect;
import io.slotted.internal.dialect.SlotRow;
import io.slotted.internal.jdbc.Database;
import io.slotted.internal.jdbc.Retrier;
import io.slotted.internal.jdbc.Transactions;
import io.slotted.internal.sql.BucketKey;
import io.slotted.internal.sql.CounterKey;
import io.slotted.internal.write.BucketRows;
import io.slotted.internal.write.SlotRows;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves the pending rows of closed buckets ({@link PendingSlots}) into the counter's slot row and
 * its bucket row, so that the pending rows a read of buckets adds stay those of the last bucket
 * or two.
 *
 * <p>Each chunk of counters is one transaction: lock their pending rows (in key order), add each
 * row's count to the counter's slot row of the same share and to its bucket row, and delete the
 * pending row by its whole key. The total (the counter's rows) and the bucket (its bucket rows
 * plus its pending rows) are the same before and after every commit. A flush held up on its way
 * that lands after the move writes its pending row again; it is counted like any other and moved
 * by a later pass. Rows are locked as every writer takes them: counter rows before bucket rows.
 */
final class PendingMover {
    private static final Logger LOG = LoggerFactory.getLogger(PendingMover.class);
    /** Counters per transaction. */
    private static final int CHUNK = 500;

    private final Database database;
    private final Retrier retrier;

    PendingMover(Database database, Retrier retrier) {
        this.database = database;
        this.retrier = retrier;
    }

    /**
     * Moves a type's pending rows of every bucket that starts before a time.
     *
     * @param recordType the type
     * @param unit its bucket length
     * @param end the start of the first bucket left pending, in epoch seconds
     * @return how many pending rows were moved
     */
    long moveBefore(int recordType, BucketUnit unit, long end) {
        PendingSlots.Range range = PendingSlots.before(end, unit);
        if (range.low() > range.high()) {
            return 0;
        }
        List<Long> ids = retrier.read("find the pending bucket rows of record_type " + recordType,
                (connection, dialect) -> idsPending(connection, recordType, range));
        long moved = 0;
        for (int from = 0; from < ids.size(); from += CHUNK) {
            moved += moveChunk(recordType, unit, range, ids.subList(from, Math.min(ids.size(), from + CHUNK)));
        }
        return moved;
    }

    /**
     * Moves a chunk in one transaction. A counter whose slot row has no room for what its pending
     * row holds (its slots near what they hold, {@code SlotRange}) is found and left pending, where
     * totals and buckets still count it, as a roll-up leaves a counter its column cannot hold.
     */
    private long moveChunk(int recordType, BucketUnit unit, PendingSlots.Range range, List<Long> chunk) {
        try {
            return retrier.write("move the pending bucket rows of " + chunk.size() + " counters of record_type "
                    + recordType, (connection, dialect) -> Transactions.inTransaction(connection, () -> {
                        long rows = move(connection, dialect, recordType, unit, range, chunk);
                        connection.commit();
                        return rows;
                    }));
        } catch (CounterOverflowException e) {
            if (chunk.size() == 1) {
                LOG.warn("left the pending rows of counter (record_type={}, record_id={}) where they are, still"
                        + " counted in its total and its buckets: {}", recordType, chunk.get(0), e.getMessage());
                return 0;
            }
            long moved = 0;
            for (Long id : chunk) {
                moved += moveChunk(recordType, unit, range, List.of(id));
            }
            return moved;
        }
    }

    private List<Long> idsPending(Connection connection, int recordType, PendingSlots.Range range)
            throws SQLException {
        List<Long> ids = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement(database.bucketStatements().idsPending())) {
            select.setInt(1, recordType);
            select.setInt(2, range.low());
            select.setInt(3, range.high());
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    ids.add(rows.getLong(1));
                }
            }
        }
        return ids;
    }

    private long move(Connection connection, Dialect dialect, int recordType, BucketUnit unit,
            PendingSlots.Range range, List<Long> ids) throws SQLException {
        Map<SlotKey, Long> settled = new TreeMap<>();
        Map<BucketSlot, Long> buckets = new TreeMap<>();
        List<SlotKey> pending = new ArrayList<>();
        String sql = database.bucketStatements().lockPending(ids.size());
        try (PreparedStatement lock = connection.prepareStatement(sql)) {
            lock.setInt(1, recordType);
            lock.setInt(2, range.low());
            lock.setInt(3, range.high());
            for (int i = 0; i < ids.size(); i++) {
                lock.setLong(i + 4, ids.get(i));
            }
            try (ResultSet rows = lock.executeQuery()) {
                while (rows.next()) {
                    CounterKey key = new CounterKey(recordType, rows.getLong(1));
                    int slot = rows.getInt(2);
                    long count = rows.getLong(3);
                    pending.add(new SlotKey(key, slot));
                    int share = PendingSlots.share(slot);
                    settled.merge(new SlotKey(key, share), count, Math::addExact);
                    buckets.merge(new BucketSlot(new BucketKey(recordType, PendingSlots.bucketStart(slot, unit),
                            key.recordId()), share), count, Math::addExact);
                }
            }
        }
        List<SlotRow> slotRows = new ArrayList<>();
        settled.forEach((at, count) -> {
            if (count != 0) {
                slotRows.add(new SlotRow(at.key(), at.slot(), count));
            }
        });
        List<BucketRow> bucketRows = new ArrayList<>();
        buckets.forEach((at, count) -> {
            if (count != 0) {
                bucketRows.add(new BucketRow(at.key(), at.slot(), count));
            }
        });
        SlotRows.upsert(connection, dialect, database.table(), slotRows);
        BucketRows.upsert(connection, dialect, database.buckets(), bucketRows);
        try (PreparedStatement delete = connection.prepareStatement(database.slotStatements().deleteSlot())) {
            for (SlotKey row : pending) {
                delete.setInt(1, row.key().recordType());
                delete.setLong(2, row.key().recordId());
                delete.setInt(3, row.slot());
                delete.addBatch();
            }
            delete.executeBatch();
        }
        return pending.size();
    }

    /** A slot row's key, in lock order. */
    private record SlotKey(CounterKey key, int slot) implements Comparable<SlotKey> {
        @Override
        public int compareTo(SlotKey other) {
            int byKey = key.compareTo(other.key);
            return byKey != 0 ? byKey : Integer.compare(slot, other.slot);
        }
    }

    /** A bucket row's key, in lock order. */
    private record BucketSlot(BucketKey key, int slot) implements Comparable<BucketSlot> {
        @Override
        public int compareTo(BucketSlot other) {
            int byKey = key.compareTo(other.key);
            return byKey != 0 ? byKey : Integer.compare(slot, other.slot);
        }
    }
}
