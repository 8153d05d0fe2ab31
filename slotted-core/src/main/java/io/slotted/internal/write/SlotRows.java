package io.slotted.internal.write;

import io.slotted.CounterOverflowException;
import io.slotted.internal.bucket.PendingSlots;
import io.slotted.internal.dialect.Dialect;
import io.slotted.internal.dialect.Failure;
import io.slotted.internal.dialect.SlotRow;
import io.slotted.internal.dialect.statements.SlotStatements;
import io.slotted.internal.sql.CounterKey;
import io.slotted.internal.sql.SlotRange;
import io.slotted.internal.sql.TableName;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.function.ToIntFunction;

/**
 * The one way slot rows are upserted, locked, zeroed and deleted, for every write path and roll-up.
 *
 * <p>A write sums its increments per counter first, so each counter is one row; rows go to the
 * database in counter order, so that two writes holding some of the same counters take their row
 * locks in the same order and cannot deadlock on each other. A counter whose increments cancelled
 * out is not written at all.
 */
public final class SlotRows {
    /**
     * The lowest slot: rows from it up are all a counter's rows, its bounded counters' allowance
     * rows below slot 0 ({@link BoundedCounters}) and its pending rows far below them
     * ({@link PendingSlots}) included.
     */
    public static final int EVERY_SLOT = Integer.MIN_VALUE;

    /**
     * The lowest slot that is not a pending one: rows from it up are a counter's rows but those
     * holding a bucketed counter's increments not yet in its buckets ({@link PendingSlots}),
     * which a roll-up leaves to the bucket keeper, since its buckets still count them.
     */
    public static final int SETTLED_SLOTS = -SlotRange.MAX_SLOTS;

    /**
     * H2's {@code MERGE} can lose the race to create a new slot row; repeating it finds the row.
     * More losses in a row than this mean something else is wrong.
     */
    private static final int MAX_DUPLICATE_KEY_REPEATS = 10;

    private SlotRows() {
    }

    /**
     * The rows for per-counter sums, in counter order, leaving out sums of 0.
     *
     * @param sums the amount per counter, in counter order
     * @param slotFor the slot each counter's row goes to
     * @return the rows to write
     */
    public static List<SlotRow> of(SortedMap<CounterKey, Long> sums, ToIntFunction<CounterKey> slotFor) {
        List<SlotRow> rows = new ArrayList<>(sums.size());
        for (Map.Entry<CounterKey, Long> sum : sums.entrySet()) {
            if (sum.getValue() != 0) {
                rows.add(new SlotRow(sum.getKey(), slotFor.applyAsInt(sum.getKey()), sum.getValue()));
            }
        }
        return rows;
    }

    /**
     * Upserts rows in the caller's transaction, one prepared statement sent as one batch.
     *
     * @param connection the connection, in the caller's transaction or auto-commit
     * @param dialect the database's dialect
     * @param table the counter table
     * @param rows the rows, in the order their locks are to be taken
     * @throws SQLException if a row fails; the caller rolls back and classifies
     */
    public static void upsert(Connection connection, Dialect dialect, TableName table,
            List<SlotRow> rows) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(dialect.upsertSql(table))) {
            for (SlotRow row : rows) {
                dialect.bindUpsert(statement, row);
                statement.addBatch();
            }
            statement.executeBatch();
        }
    }

    /**
     * An amount as rows of at most {@link SlotRange#MAX_DELTA} each, in slots 0, 1, 2 and on,
     * for writing a total that may be more than one slot row holds (a set, a shrink's moved rows).
     *
     * @param key the counter
     * @param amount the amount, not 0
     * @param slots how many slots the counter has
     * @return the rows, in slot order
     * @throws CounterOverflowException if the amount needs more than {@code slots} rows
     */
    public static List<SlotRow> spread(CounterKey key, long amount, int slots) {
        List<SlotRow> rows = new ArrayList<>();
        long left = amount;
        for (int slot = 0; left != 0; slot++) {
            if (slot == slots) {
                throw new CounterOverflowException("counter " + key + " cannot hold " + amount + " in "
                        + slots + " slots: each slot row holds at most " + SlotRange.MAX_DELTA
                        + " either way, so " + slots + " slots hold at most " + SlotRange.capacity(slots)
                        + "; nothing was changed");
            }
            long part = Math.max(-SlotRange.MAX_DELTA, Math.min(SlotRange.MAX_DELTA, left));
            rows.add(new SlotRow(key, slot, part));
            left -= part;
        }
        return rows;
    }

    /**
     * Upserts one row. On H2 a {@code MERGE} that lost the race to create a new slot row is
     * repeated at once: the losing statement applied nothing and the row now exists. H2 rolls
     * back only the failed statement, so this is safe inside a caller's transaction too.
     *
     * @param connection the connection
     * @param dialect the database's dialect
     * @param table the counter table
     * @param row the row
     * @param onRepeat told of each repeat, for statistics
     * @throws SQLException if the upsert fails for another reason, or keeps losing the race
     */
    public static void upsertOne(Connection connection, Dialect dialect, TableName table, SlotRow row,
            Runnable onRepeat) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(dialect.upsertSql(table))) {
            dialect.bindUpsert(statement, row);
            for (int attempt = 1; ; attempt++) {
                try {
                    statement.executeUpdate();
                    return;
                } catch (SQLException e) {
                    if (dialect.classify(e) != Failure.DUPLICATE_KEY
                            || attempt >= MAX_DUPLICATE_KEY_REPEATS) {
                        throw e;
                    }
                    onRepeat.run();
                }
            }
        }
    }

    /**
     * The ids of a type's counters that have slot rows in a slot or above, without locking them.
     *
     * @param connection an open connection
     * @param sql the counter table's statements
     * @param recordType the type
     * @param fromSlot only rows in this slot or above count
     * @return the ids, ascending
     * @throws SQLException if the read fails
     */
    public static List<Long> ids(Connection connection, SlotStatements sql, int recordType, int fromSlot)
            throws SQLException {
        return ids(connection, sql.idsFromSlot(), recordType, fromSlot);
    }

    /**
     * The ids of a type's counters that have a slot row holding something other than 0, without
     * locking them.
     *
     * @param connection an open connection
     * @param sql the counter table's statements
     * @param recordType the type
     * @return the ids, ascending
     * @throws SQLException if the read fails
     */
    public static List<Long> changedIds(Connection connection, SlotStatements sql, int recordType)
            throws SQLException {
        return ids(connection, sql.changedIds(), recordType);
    }

    /**
     * The ids of a type's counters whose slot rows all hold 0, without locking them.
     *
     * @param connection an open connection
     * @param sql the counter table's statements
     * @param recordType the type
     * @return the ids, ascending
     * @throws SQLException if the read fails
     */
    public static List<Long> zeroIds(Connection connection, SlotStatements sql, int recordType)
            throws SQLException {
        return ids(connection, sql.zeroIds(), recordType);
    }

    /** The ids a query returns, given its integer parameters. */
    private static List<Long> ids(Connection connection, String sql, int... parameters) throws SQLException {
        List<Long> ids = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                select.setInt(i + 1, parameters[i]);
            }
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    ids.add(rows.getLong(1));
                }
            }
        }
        return ids;
    }

    /**
     * Reads and locks slot rows of some counters of one type until the caller's transaction ends,
     * in key order, like every writer takes them.
     *
     * @param connection a connection in a transaction
     * @param sql the counter table's statements
     * @param recordType the type
     * @param ids the counters' ids, at most a few thousand
     * @param fromSlot only rows in this slot or above
     * @return each counter that has such rows, in id order, with its rows and their sum
     * @throws SQLException if the read fails
     */
    public static Map<Long, CounterRows> lock(Connection connection, SlotStatements sql, int recordType,
            List<Long> ids, int fromSlot) throws SQLException {
        return read(connection, sql.lockFromSlot(ids.size()), recordType, ids, fromSlot);
    }

    /**
     * Reads slot rows of some counters of one type, in key order, locking nothing: each row as
     * last committed.
     *
     * @param connection an open connection
     * @param sql the counter table's statements
     * @param recordType the type
     * @param ids the counters' ids, at most a few thousand
     * @param fromSlot only rows in this slot or above
     * @return each counter that has such rows, in id order, with its rows and their sum
     * @throws SQLException if the read fails
     */
    public static Map<Long, CounterRows> read(Connection connection, SlotStatements sql, int recordType,
            List<Long> ids, int fromSlot) throws SQLException {
        return read(connection, sql.readFromSlot(ids.size()), recordType, ids, fromSlot);
    }

    private static Map<Long, CounterRows> read(Connection connection, String statement, int recordType,
            List<Long> ids, int fromSlot) throws SQLException {
        Map<Long, CounterRows> read = new LinkedHashMap<>();
        if (ids.isEmpty()) {
            return read;
        }
        try (PreparedStatement select = connection.prepareStatement(statement)) {
            int at = 1;
            select.setInt(at++, recordType);
            select.setLong(at++, Collections.min(ids));
            select.setLong(at++, Collections.max(ids));
            for (Long id : ids) {
                select.setLong(at++, id);
            }
            select.setInt(at, fromSlot);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    read.computeIfAbsent(rows.getLong(1), CounterRows::new)
                            .add(rows.getInt(2), rows.getLong(3));
                }
            }
        }
        return read;
    }

    /**
     * Deletes exactly the slot rows a transaction locked with {@link #lock}: rows created since by
     * other writers are not touched. Allowance rows (below slot 0) are set to 0 instead, as
     * {@link #zero} does: they are never deleted, since a flusher spends from one it has seen
     * without taking the counter's lock ({@link BoundedCounters}), and counts on finding it.
     * Pending rows ({@link PendingSlots}) are left as they are: their buckets still count them, so
     * a caller that took them into account (a set) writes its total beside them.
     *
     * @param connection the connection holding the locks
     * @param sql the counter table's statements
     * @param recordType the type
     * @param locked the locked rows to delete
     * @throws SQLException if the delete fails
     */
    public static void delete(Connection connection, SlotStatements sql, int recordType,
            Collection<CounterRows> locked) throws SQLException {
        if (locked.isEmpty()) {
            return;
        }
        // A batch of single-row deletes by the full key: each is a point lookup of a row this
        // transaction holds. One statement naming every row instead let InnoDB scan the type's
        // range and wait on rows the flushers had locked, which deadlocked with them.
        List<CounterRows> allowances = new ArrayList<>();
        try (PreparedStatement delete = connection.prepareStatement(sql.deleteSlot())) {
            for (CounterRows rows : locked) {
                allowances.add(rows.allowances());
                for (int slot : rows.slots()) {
                    if (slot >= 0) {
                        bindKey(delete, 1, recordType, rows.recordId(), slot);
                        delete.addBatch();
                    }
                }
            }
            delete.executeBatch();
        }
        zero(connection, sql, recordType, allowances);
    }

    /**
     * Takes out of each locked row exactly what {@link #lock} read from it, leaving it at 0, so
     * that the counter's next increment updates the row rather than inserting it again. Under the
     * lock the row still holds what was read, so this is the same as setting it to 0; subtracting
     * keeps every increment even where it would not be. Rows read as 0 are not written.
     *
     * @param connection the connection holding the locks
     * @param sql the counter table's statements
     * @param recordType the type
     * @param locked the locked rows to zero
     * @throws SQLException if an update fails
     */
    public static void zero(Connection connection, SlotStatements sql, int recordType,
            Collection<CounterRows> locked) throws SQLException {
        subtract(connection, sql, recordType, locked);
    }

    /**
     * Takes out of each row what a read found in it, by its whole key, whether or not the read
     * locked it: whatever increments landed on a row since the read stay in it. Rows read as 0 are
     * not written. A row deleted since the read cannot be taken from; the caller learns so and
     * rolls back, or the amount it moves elsewhere would be counted twice.
     *
     * @param connection the connection, in the caller's transaction
     * @param sql the counter table's statements
     * @param recordType the type
     * @param read the rows as read, with what to take from each
     * @return true if every row was there and was written, false if one was missing
     * @throws SQLException if an update fails
     */
    public static boolean subtract(Connection connection, SlotStatements sql, int recordType,
            Collection<CounterRows> read) throws SQLException {
        List<long[]> taken = new ArrayList<>();
        for (CounterRows counter : read) {
            List<Integer> slots = counter.slots();
            List<Long> counts = counter.counts();
            for (int i = 0; i < slots.size(); i++) {
                if (counts.get(i) != 0) {
                    taken.add(new long[] {counter.recordId(), slots.get(i), counts.get(i)});
                }
            }
        }
        if (taken.isEmpty()) {
            return true;
        }
        if (sql.subtractFromSlots(1) != null) { // else the dialect sends a batch
            return subtractAtOnce(connection, sql, recordType, taken);
        }
        int[] updated;
        try (PreparedStatement update = connection.prepareStatement(sql.subtractFromSlot())) {
            for (long[] row : taken) {
                update.setLong(1, row[2]);
                bindKey(update, 2, recordType, row[0], (int) row[1]);
                update.addBatch();
            }
            updated = update.executeBatch();
        }
        boolean unknown = false;
        for (int count : updated) {
            if (count == 0) {
                return false;
            }
            unknown |= count == Statement.SUCCESS_NO_INFO;
        }
        // A driver sending the batch in bulk (MariaDB's useBulkStmts) does not say which rows it
        // updated; the rows this transaction now holds say whether each was there.
        return !unknown || stillThere(connection, sql, recordType, read);
    }

    /** {@link #subtract} where the dialect takes many rows in one statement: every row must be found. */
    private static boolean subtractAtOnce(Connection connection, SlotStatements sql, int recordType,
            List<long[]> taken) throws SQLException {
        for (int from = 0; from < taken.size(); from += SlotStatements.SUBTRACTED_AT_ONCE) {
            List<long[]> part = taken.subList(from, Math.min(taken.size(), from + SlotStatements.SUBTRACTED_AT_ONCE));
            try (PreparedStatement update = connection.prepareStatement(sql.subtractFromSlots(part.size()))) {
                int index = 1;
                for (long[] row : part) {
                    update.setLong(index++, row[0]);
                    update.setInt(index++, (int) row[1]);
                    update.setLong(index++, row[2]);
                }
                update.setInt(index, recordType);
                if (update.executeUpdate() != part.size()) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean stillThere(Connection connection, SlotStatements sql, int recordType,
            Collection<CounterRows> read) throws SQLException {
        List<Long> ids = read.stream().map(CounterRows::recordId).toList();
        Map<Long, CounterRows> held = lock(connection, sql, recordType, ids, EVERY_SLOT);
        for (CounterRows counter : read) {
            CounterRows now = held.get(counter.recordId());
            List<Integer> slots = counter.slots();
            for (int i = 0; i < slots.size(); i++) {
                if (counter.counts().get(i) != 0 && (now == null || !now.slots().contains(slots.get(i)))) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Deletes the locked rows that hold 0, each by its whole key and only if it still holds 0;
     * never an allowance row (below slot 0), as {@link #delete} says.
     *
     * @param connection the connection holding the locks
     * @param sql the counter table's statements
     * @param recordType the type
     * @param locked the locked rows, read as 0
     * @return how many rows were deleted
     * @throws SQLException if a delete fails
     */
    public static long deleteZeros(Connection connection, SlotStatements sql, int recordType,
            Collection<CounterRows> locked) throws SQLException {
        if (locked.isEmpty()) {
            return 0;
        }
        try (PreparedStatement delete = connection.prepareStatement(sql.deleteZeroSlot())) {
            for (CounterRows counter : locked) {
                for (int slot : counter.slots()) {
                    if (slot >= 0) {
                        bindKey(delete, 1, recordType, counter.recordId(), slot);
                        delete.addBatch();
                    }
                }
            }
            long deleted = 0;
            for (int count : delete.executeBatch()) {
                deleted += Math.max(0, count);
            }
            return deleted;
        }
    }

    /** Binds a slot row's whole key from parameter {@code at} on. */
    private static void bindKey(PreparedStatement statement, int at, int recordType, long recordId, int slot)
            throws SQLException {
        statement.setInt(at, recordType);
        statement.setLong(at + 1, recordId);
        statement.setInt(at + 2, slot);
    }
}
