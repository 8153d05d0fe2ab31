package io.slotted.internal.admin;

import io.slotted.SlottedConfig;
import io.slotted.TimeBuckets;
import io.slotted.Window;
import io.slotted.internal.background.Periodic;
import io.slotted.internal.bucket.BucketWindow;
import io.slotted.internal.dialect.BucketRow;
import io.slotted.internal.dialect.Dialect;
import io.slotted.internal.jdbc.Database;
import io.slotted.internal.jdbc.Retrier;
import io.slotted.internal.jdbc.Transactions;
import io.slotted.internal.sql.BucketKey;
import io.slotted.internal.sql.SlotRange;
import io.slotted.internal.write.BucketRows;
import io.slotted.internal.write.CounterRows;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Looks after the time bucket table in the background: moves the pending rows of closed buckets
 * into the bucket table ({@link PendingMover}), prunes buckets past their retention and folds the
 * slots of closed buckets; and, for the types with limits per window, whose windows are
 * their buckets, prunes every window older than the one before the current one (kept for
 * increments accepted just before its end and written after, and for reads of the last window).
 *
 * <p>Pruning reads the keys of up to {@value #BATCH} expired rows without locking them, then
 * deletes exactly those rows by their full primary key. Deleting by key locks only those rows,
 * never a range or the gaps around it, so an increment creating a row in the current bucket never
 * waits for pruning; and increments never write to buckets that old. A bucket is pruned only once
 * it is a full bucket older than the oldest a read may ask for, so no read sees one half pruned.
 *
 * <p>Folding: a hot counter's bucket has a row per slot while it is current. Once the bucket has
 * closed (its end plus {@link #GRACE}, for increments accepted just before the end and written
 * just after), nothing but a late write touches it again, so each counter's rows in it are summed
 * into one, in a transaction that locks them in key order as writers do. A top-N then reads about
 * one row per counter and bucket. A late write after the fold only adds a row, which is counted
 * like any other and folded in the next pass over that bucket, if there is one; correctness
 * never depends on folding.
 *
 * <p>Every process with buckets configured does this; two doing it at once lock the same rows in
 * the same order and the second finds little left to do.
 */
public final class BucketKeeper implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BucketKeeper.class);
    /** Rows per pruning or folding transaction: short transactions, few round trips. */
    private static final int BATCH = 500;
    /** How long after a bucket's end it is taken as closed. */
    static final Duration GRACE = Duration.ofSeconds(30);
    /** How many closed buckets back a new keeper starts folding. */
    private static final int FOLD_LOOKBACK = 48;
    private static final long TICK_MILLIS = 1_000;
    /**
     * How often the background looks for pending rows of closed buckets when no bucket has closed
     * since it last did: for a flush held up until after its bucket's rows were moved. Those rows
     * are counted wherever they are; looking reads the type's rows of the counter table.
     */
    private static final Duration MOVE_STRAGGLERS = Duration.ofMinutes(1);

    private final Database database;
    private final Retrier retrier;
    private final SlottedConfig config;
    private final PendingMover mover;
    /** Per type, the start of the next bucket to fold; touched only under {@link #running}. */
    private final Map<Integer, Long> nextToFold = new HashMap<>();
    /** Per type, the first bucket left pending by the last move, and when that move was. */
    private final Map<Integer, Moved> moved = new HashMap<>();
    private final ReentrantLock running = new ReentrantLock();
    private Periodic background;

    /**
     * Creates the keeper; starts nothing.
     *
     * @param database where the buckets are
     * @param retrier how failures are retried and reported
     * @param config the types' buckets and the clock
     */
    public BucketKeeper(Database database, Retrier retrier, SlottedConfig config) {
        this.database = database;
        this.retrier = retrier;
        this.config = config;
        this.mover = new PendingMover(database, retrier);
    }

    /** Starts the background work, if any type keeps buckets or has limits per window. */
    public void start() {
        if (config.buckets().isEmpty() && windowed().isEmpty()) {
            return;
        }
        background = Periodic.start("slotted-buckets-" + database.table(), TICK_MILLIS, this::tick);
    }

    /**
     * Prunes and folds every type's buckets now, as of the clock's current time.
     *
     * @return how many rows were pruned and how many were folded away
     */
    public Kept keepNow() {
        return keep(true);
    }

    private Kept keep(boolean moveAnyway) {
        running.lock();
        try {
            Instant now = config.clock().instant();
            long pruned = 0;
            long folded = 0;
            for (Map.Entry<Integer, TimeBuckets> type : config.buckets().entrySet()) {
                movePending(type.getKey(), type.getValue(), now, moveAnyway);
                pruned += prune(type.getKey(), type.getValue(), now);
                folded += fold(type.getKey(), type.getValue(), now);
            }
            for (Map.Entry<Integer, Window> type : windowed().entrySet()) {
                Window window = type.getValue();
                Instant previous = window.startOf(window.startOf(now).minusSeconds(1));
                pruned += prune(type.getKey(), previous.getEpochSecond());
            }
            return new Kept(pruned, folded);
        } finally {
            running.unlock();
        }
    }

    /**
     * What one pass did.
     *
     * @param pruned rows deleted past the retention
     * @param folded rows removed by summing a counter's slots into one row
     */
    public record Kept(long pruned, long folded) {
    }

    private void tick() {
        try {
            keep(false);
        } catch (RuntimeException e) {
            // Passing failures (the database down) are tried again next tick; nothing is lost.
            LOG.warn("time bucket upkeep (moving pending rows, pruning, folding) of {} failed; trying again in"
                    + " {} ms: {}", database.buckets(), TICK_MILLIS, e.getMessage());
        }
    }

    /** The types this process was given limits per window for, with their windows. */
    private Map<Integer, Window> windowed() {
        Map<Integer, Window> windows = new HashMap<>();
        config.limits().forEach((type, limits) -> {
            if (limits.windowed()) {
                windows.put(type, limits.window());
            }
        });
        return windows;
    }

    /**
     * Moves a type's pending rows of the buckets closed by now (their end plus {@link #GRACE}):
     * whenever another bucket has closed, at least every {@link #MOVE_STRAGGLERS}, and when asked.
     */
    private void movePending(int recordType, TimeBuckets buckets, Instant now, boolean anyway) {
        long end = buckets.unit().startOf(now.minus(GRACE)).getEpochSecond();
        Moved last = moved.get(recordType);
        if (!anyway && last != null && last.end() == end
                && now.isBefore(last.at().plus(MOVE_STRAGGLERS))) {
            return;
        }
        mover.moveBefore(recordType, buckets.unit(), end);
        moved.put(recordType, new Moved(end, now));
    }

    /** The first bucket a move left pending, and when it was. */
    private record Moved(long end, Instant at) {
    }

    private long prune(int recordType, TimeBuckets buckets, Instant now) {
        return prune(recordType, BucketWindow.oldestKept(buckets, now).minus(buckets.unit().length()).getEpochSecond());
    }

    /** Deletes a type's bucket rows that start before {@code cutoff}, in batches. */
    private long prune(int recordType, long cutoff) {
        long pruned = 0;
        while (true) {
            int deleted = retrier.write("prune time buckets of record_type " + recordType,
                    (connection, dialect) -> deleteExpired(connection, recordType, cutoff));
            pruned += deleted;
            if (deleted < BATCH) {
                return pruned;
            }
        }
    }

    private int deleteExpired(Connection connection, int recordType, long cutoff) throws SQLException {
        List<RowKey> expired = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement(
                database.bucketStatements().expired(BATCH))) {
            select.setInt(1, recordType);
            select.setLong(2, cutoff);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    expired.add(new RowKey(new BucketKey(recordType, rows.getLong(1), rows.getLong(2)),
                            rows.getInt(3)));
                }
            }
        }
        delete(connection, expired);
        return expired.size();
    }

    /** One bucket slot row's primary key. */
    private record RowKey(BucketKey key, int slot) {
    }

    /** Deletes rows by their full primary key, which locks only those rows. */
    private void delete(Connection connection, List<RowKey> rows) throws SQLException {
        if (rows.isEmpty()) {
            return;
        }
        try (PreparedStatement delete = connection.prepareStatement(database.bucketStatements().deleteRow())) {
            for (RowKey row : rows) {
                delete.setInt(1, row.key().recordType());
                delete.setLong(2, row.key().bucketStart());
                delete.setLong(3, row.key().recordId());
                delete.setInt(4, row.slot());
                delete.addBatch();
            }
            delete.executeBatch();
        }
    }

    /** Folds every closed bucket not folded yet, oldest first. */
    private long fold(int recordType, TimeBuckets buckets, Instant now) {
        long length = buckets.unit().length().getSeconds();
        long oldest = BucketWindow.oldestKept(buckets, now).getEpochSecond();
        long lastClosed = buckets.unit().startOf(now.minus(GRACE)).getEpochSecond() - length;
        long next = Math.max(oldest, nextToFold.getOrDefault(recordType,
                lastClosed - (FOLD_LOOKBACK - 1) * length));
        long folded = 0;
        for (; next <= lastClosed; next += length) {
            folded += foldBucket(recordType, next);
            nextToFold.put(recordType, next + length);
        }
        return folded;
    }

    private long foldBucket(int recordType, long bucketStart) {
        List<Long> spread = retrier.read("find counters to fold in a time bucket of record_type " + recordType,
                (connection, dialect) -> spreadCounters(connection, recordType, bucketStart));
        long folded = 0;
        for (int from = 0; from < spread.size(); from += BATCH) {
            List<Long> ids = spread.subList(from, Math.min(spread.size(), from + BATCH));
            folded += retrier.write("fold the slots of a time bucket of record_type " + recordType,
                    (connection, dialect) -> Transactions.inTransaction(connection, () -> {
                        long removed = foldCounters(connection, dialect, recordType, bucketStart, ids);
                        connection.commit();
                        return removed;
                    }));
        }
        return folded;
    }

    /** The counters with more than one row in a bucket, in id order. */
    private List<Long> spreadCounters(Connection connection, int recordType, long bucketStart)
            throws SQLException {
        List<Long> ids = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement(
                database.bucketStatements().idsInManySlots())) {
            select.setInt(1, recordType);
            select.setLong(2, bucketStart);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    ids.add(rows.getLong(1));
                }
            }
        }
        return ids;
    }

    /**
     * Locks the counters' rows in the bucket, deletes them, and writes each counter's sum back
     * into its lowest slot. A counter whose slots sum beyond what one slot row holds is left as
     * it is.
     *
     * @return how many rows fewer the bucket has
     */
    private long foldCounters(Connection connection, Dialect dialect, int recordType, long bucketStart,
            List<Long> ids) throws SQLException {
        List<RowKey> deleted = new ArrayList<>();
        List<BucketRow> sums = new ArrayList<>();
        for (CounterRows counter : BucketRows.lock(connection, database.bucketStatements(), recordType, bucketStart, ids)) {
            List<Integer> slots = counter.slots();
            if (slots.size() < 2 || counter.overflowed() || !SlotRange.fits(counter.total())) {
                continue; // one row could not hold the sum
            }
            BucketKey key = new BucketKey(recordType, bucketStart, counter.recordId());
            slots.forEach(slot -> deleted.add(new RowKey(key, slot)));
            sums.add(new BucketRow(key, slots.get(0), counter.total()));
        }
        delete(connection, deleted);
        BucketRows.upsert(connection, dialect, database.buckets(), sums);
        return deleted.size() - sums.size();
    }

    /** Stops the background work, letting a pass under way finish. */
    @Override
    public void close() {
        if (background != null) {
            background.close();
        }
    }
}
