package io.slotted.internal.rollup;

import io.slotted.CounterOverflowException;
import io.slotted.RollUpReport;
import io.slotted.internal.jdbc.Database;
import io.slotted.internal.jdbc.Retrier;
import io.slotted.internal.progress.Steps;
import io.slotted.internal.jdbc.Transactions;
import io.slotted.internal.mutation.Mutation;
import io.slotted.internal.owner.ColumnRange;
import io.slotted.internal.dialect.statements.OwnerStatements;
import io.slotted.internal.registry.Registration;
import io.slotted.internal.sql.SlotRange;
import io.slotted.internal.write.CounterRows;
import io.slotted.internal.write.SlotRows;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One roll-up of one counter type into its owner column.
 *
 * <p>Fold mode touches only counters that changed, and needs no record of which did: a folded
 * counter's slot rows are left at 0 as its sum moves into the column, so the counters with a slot
 * row holding something else are exactly those changed since their last roll-up.
 *
 * <p>The pass lists those counters, then takes them in chunks of up to {@value #CHUNK}, each one
 * transaction. For an unbounded type: lock the chunk's owner rows, read its slot rows without
 * locking them, add to each column the sum of its rows as read, and take out of each row exactly
 * what was read from it, by its whole key. The column gains what the rows lose in one transaction,
 * so every total is the same before and after it, whatever committed in between: an increment that
 * landed on a row since the read stays in the row. The flushers meet the pass only in its last
 * statement, which takes the slot rows' locks for one round trip and the commit, where a pass that
 * locked the rows it read held them for its whole transaction. The owner rows are locked before
 * the slot rows, as an application that updates its row and then increments in one transaction
 * takes them.
 *
 * <p>A bounded type's flushers spend from allowance rows under the counter's lock (its slot-0
 * row), so each of its chunks locks the chunk's slot rows ({@code SELECT … FOR UPDATE}, in key
 * order like every writer), then their owner rows, and zeroes what it read. An increment that
 * commits meanwhile either waited for those row locks and lands after the roll-up, on top of the
 * row's 0, or wrote a slot row the pass never read; it is never moved twice or lost.
 *
 * <p>A pass cut off anywhere leaves every counter either wholly before or wholly after its chunk's
 * transaction, and the next pass takes whatever is left, so roll-ups converge after a crash. Read
 * committed isolation keeps InnoDB from locking the gaps between slot rows, so writers creating
 * new slot rows do not wait for the pass.
 *
 * <p>Leaving the rows at 0 rather than deleting them spares the writers: a hot counter's next
 * increments update rows that exist instead of inserting them again (with the rows deleted, the
 * writers kept 0.64× their throughput without roll-ups; docs/benchmarks.md). Subtracting what was
 * read keeps every increment whether or not the pass holds the row's lock. The rows of
 * counters that stay at 0 are deleted later by {@link ZeroRowSweep}.
 *
 * <p>A counter without an owner row keeps its slots, where reads still find it; a roll-up that
 * would leave the column's range is refused for that counter alone, which also keeps its slots.
 *
 * <p>Copy mode keeps the whole count in the slots, so it compares: one query finds the owner rows
 * whose column differs from their counter's slot sum, and the pass writes just those, a chunk per
 * transaction, touching no slot row.
 *
 * <p>Releasing a copy-mode type must leave the column holding every count and the slots empty, so
 * that the application can go back to plain {@code UPDATE}s of the column; but until the type is
 * unbound its reads come from the slots alone, so a counter whose slots were emptied before that
 * would read 0, and the next roll-up would copy the 0. The release therefore copies first, in
 * chunks that may stop or fail anywhere as a roll-up's may, and then, in the one transaction that
 * unbinds the type, {@link #moveAll} locks every counter's slot rows, brings its column up to their
 * sum (only counters changed since the copy need writing) and deletes them: a failure anywhere
 * leaves every counter wholly in its slots, and running the release again finishes it.
 */
final class RollUpPass {
    /**
     * Counters per transaction. Larger chunks save round trips but hold hot counters' slot rows
     * longer, and the flushers wait on them: in a smoke run 2,000 gave the writers about half the
     * throughput 500 did (Zipf, 64 writers, MariaDB; docs/benchmarks.md).
     */
    static final int CHUNK = 500;

    private final Database database;
    private final Retrier retrier;

    RollUpPass(Database database, Retrier retrier) {
        this.database = database;
        this.retrier = retrier;
    }

    /**
     * Moves every changed counter's slot sum into the owner column, leaving its slot rows at 0.
     *
     * @param registration the bound type, in fold mode
     * @param range what the column can hold as a fold-mode base
     * @param warm where the counters visited are recorded
     * @param steps what follows it, and may stop it between chunks
     * @return what was rolled up
     */
    RollUpReport fold(Registration registration, ColumnRange range, WarmCounters warm, Steps steps) {
        int type = registration.recordType();
        OwnerStatements owner = database.ownerStatements(registration.owner());
        steps.begin("finding the counters to roll up", -1, "statements");
        List<Long> ids = retrier.read("list the changed counters of record_type " + type,
                (connection, dialect) -> ColumnUpdate.ADD.counters(connection, database.slotStatements(), type));
        warm.add(ids);
        boolean bounded = registration.limits().bounded();
        steps.begin("rolling counters up into " + registration.owner(), ids.size(), "counters");
        RollUpReport total = new RollUpReport(1, 0, 0, List.of());
        for (int from = 0; from < ids.size(); from += CHUNK) {
            int done = from;
            steps.stopIfAsked(() -> "stopped after rolling " + done + " of " + ids.size() + " counters of"
                    + " record_type " + type + " into " + registration.owner() + ", as a roll-up does; the type"
                    + " stays bound: run the release again to finish");
            List<Long> chunk = ids.subList(from, Math.min(ids.size(), from + CHUNK));
            total = total.plus(foldChunk(owner, type, chunk, range, bounded));
            steps.advance(Math.min(ids.size(), from + CHUNK));
        }
        return total;
    }

    /** Folds a chunk in one transaction; a counter whose column the database refuses is found and left out. */
    private RollUpReport foldChunk(OwnerStatements owner, int type, List<Long> chunk, ColumnRange range,
            boolean bounded) {
        String operation = "roll up " + chunk.size() + " counters of record_type " + type + " into "
                + owner.owner();
        try {
            return retrier.write(operation, (connection, dialect) -> Transactions.inTransaction(connection,
                    () -> bounded ? foldLocked(connection, owner, type, chunk, range)
                            : foldAsRead(connection, owner, type, chunk, range)));
        } catch (CounterOverflowException e) {
            if (chunk.size() == 1) {
                return new RollUpReport(0, 0, 0, List.of("counter (record_type=" + type
                        + ", record_id=" + chunk.get(0) + "): " + e.getMessage()));
            }
            // The database refused a value its metadata did not rule out: find the counter.
            RollUpReport parts = new RollUpReport(0, 0, 0, List.of());
            for (Long id : chunk) {
                parts = parts.plus(foldChunk(owner, type, List.of(id), range, bounded));
            }
            return parts;
        }
    }

    /**
     * The fold of a chunk of an unbounded type's counters: lock their owner rows, read
     * their slot rows without locking them, add to each column the sum read, and take out of each
     * row what was read from it, by its whole key.
     *
     * <p>Every fold of a counter holds its owner row's lock, so once this one holds it no other
     * fold of the counter is under way, and the read sees the last one's result: a roll-up whose
     * connection was cut at its COMMIT, and whose COMMIT reaches the server late, has either
     * committed or is waited for. What else may change the rows until they are taken from only adds
     * to them (an increment that lands in between stays in its row) or deletes them (a set, a
     * shrink); the column gains exactly what the rows lose, in one transaction, so every total
     * stays what it was. A row deleted since the read cannot give what was read from it: the
     * chunk is rolled back, and its counters are folded by the next roll-up.
     *
     * <p>The flushers meet the fold only in its last statement, which takes the slot rows' locks
     * for one round trip and the commit.
     */
    private RollUpReport foldAsRead(Connection connection, OwnerStatements owner, int type, List<Long> chunk,
            ColumnRange range) throws SQLException {
        Map<Long, Long> columns = lockOwnerRows(connection, owner, chunk);
        Map<Long, CounterRows> sums = SlotRows.read(connection, database.slotStatements(), type, chunk,
                SlotRows.SETTLED_SLOTS);
        Taken taken = writeColumns(connection, owner, type, sums.values(), columns, range, ColumnUpdate.ADD);
        if (!SlotRows.subtract(connection, database.slotStatements(), type, taken.rows())) {
            connection.rollback();
            return new RollUpReport(0, 0, 0, List.of());
        }
        connection.commit();
        return taken.report();
    }

    /**
     * The fold of a chunk of a bounded type's counters, whose allowance rows a flusher spends from
     * under the counter's lock (its slot-0 row, {@code BoundedCounters}): lock the chunk's slot
     * rows, then their owner rows, and zero what was read.
     */
    private RollUpReport foldLocked(Connection connection, OwnerStatements owner, int type, List<Long> chunk,
            ColumnRange range) throws SQLException {
        Taken taken = take(connection, owner, type, chunk, range, ColumnUpdate.ADD);
        SlotRows.zero(connection, database.slotStatements(), type, taken.rows());
        connection.commit();
        return taken.report();
    }

    /**
     * Moves every counter's whole count from its slot rows into the owner column and deletes the
     * rows, all in the caller's transaction, for the release of a copy-mode type: its reads come
     * from the slots alone until the type is unbound, so the rows may go only in the transaction
     * that unbinds it. The chunks are the roll-up's, but none commits: each locks its counters'
     * rows, then their owner rows, sets each column that differs from the rows' sum, and deletes
     * exactly the rows it read. A counter's rows created after its chunk locked them (an increment
     * that waited for the lock, or one in a new slot or a new counter) are not touched, and count
     * in the slots once the type is unbound. A counter without an owner row, or whose count the
     * column cannot hold, keeps its rows.
     *
     * @param connection the caller's connection, in the transaction that unbinds the type
     * @param registration the bound type, in copy mode
     * @param range what the column can hold
     * @param steps what follows it; it does not stop
     * @return what was moved into the column
     * @throws SQLException if a statement fails; the caller rolls back, leaving every row as it was
     */
    RollUpReport moveAll(Connection connection, Registration registration, ColumnRange range, Steps steps)
            throws SQLException {
        int type = registration.recordType();
        OwnerStatements owner = database.ownerStatements(registration.owner());
        List<Long> ids = ColumnUpdate.REPLACE.counters(connection, database.slotStatements(), type);
        steps.begin("moving the slots into " + registration.owner() + ", deleting them, and unbinding",
                ids.size(), "counters");
        RollUpReport total = new RollUpReport(1, 0, 0, List.of());
        for (int from = 0; from < ids.size(); from += CHUNK) {
            List<Long> chunk = ids.subList(from, Math.min(ids.size(), from + CHUNK));
            Taken taken = take(connection, owner, type, chunk, range, ColumnUpdate.REPLACE);
            SlotRows.delete(connection, database.slotStatements(), type, taken.rows());
            total = total.plus(taken.report());
            steps.advance(Math.min(ids.size(), from + CHUNK));
        }
        return total;
    }

    /**
     * The planted bug {@link Mutation#COPY_RELEASE_BY_CHUNK}: moves a copy-mode type's counters
     * into the owner column a chunk per transaction, deleting their slot rows, before the
     * unbinding transaction.
     */
    void moveChunkByChunk(Registration registration, ColumnRange range) {
        int type = registration.recordType();
        OwnerStatements owner = database.ownerStatements(registration.owner());
        List<Long> ids = retrier.read("list the counters of record_type " + type,
                (connection, dialect) -> ColumnUpdate.REPLACE.counters(connection, database.slotStatements(), type));
        for (int from = 0; from < ids.size(); from += CHUNK) {
            List<Long> chunk = ids.subList(from, Math.min(ids.size(), from + CHUNK));
            retrier.write("move " + chunk.size() + " counters of record_type " + type + " into " + owner.owner(),
                    (connection, dialect) -> Transactions.inTransaction(connection, () -> {
                        Taken taken = take(connection, owner, type, chunk, range, ColumnUpdate.REPLACE);
                        SlotRows.delete(connection, database.slotStatements(), type, taken.rows());
                        connection.commit();
                        return null;
                    }));
        }
    }

    /** The slot rows a chunk took into the owner column, and what it did. */
    private record Taken(List<CounterRows> rows, RollUpReport report) {
    }

    /**
     * Locks a chunk's slot rows and owner rows, and writes into each owner column what the update
     * makes of it and the rows' sum; leaves the rows to the caller, which empties those taken.
     */
    private Taken take(Connection connection, OwnerStatements owner, int type, List<Long> chunk,
            ColumnRange range, ColumnUpdate update) throws SQLException {
        Map<Long, CounterRows> sums = SlotRows.lock(connection, database.slotStatements(), type, chunk,
                SlotRows.SETTLED_SLOTS);
        Map<Long, Long> columns = lockOwnerRows(connection, owner, List.copyOf(sums.keySet()));
        return writeColumns(connection, owner, type, sums.values(), columns, range, update);
    }

    /**
     * Writes into each locked owner column what the update makes of it and its counter's rows'
     * sum; returns the rows whose sum went into a column, for the caller to empty.
     */
    private static Taken writeColumns(Connection connection, OwnerStatements owner, int type,
            Collection<CounterRows> sums, Map<Long, Long> columns, ColumnRange range, ColumnUpdate update)
            throws SQLException {
        long rolled = 0;
        long withoutOwner = 0;
        List<String> refused = new ArrayList<>();
        List<CounterRows> taken = new ArrayList<>();
        Map<Long, Long> toSet = new LinkedHashMap<>();
        for (CounterRows sum : sums) {
            long id = sum.recordId();
            if (!columns.containsKey(id)) {
                withoutOwner++;
                continue;
            }
            String problem = newValue(columns.get(id), sum, range, update, toSet, id);
            if (problem != null) {
                refused.add("counter (record_type=" + type + ", record_id=" + id + "): " + problem);
                continue;
            }
            taken.add(sum);
            rolled += toSet.containsKey(id) ? 1 : 0;
        }
        // A column that already holds its new value (a release's copy) is not written again.
        toSet.entrySet().removeIf(value -> value.getValue().equals(columns.get(value.getKey())));
        setColumns(connection, owner, toSet);
        return new Taken(taken, new RollUpReport(0, rolled, withoutOwner, refused));
    }

    /** Puts the column's new value into {@code toSet}; returns why not, or null. */
    private static String newValue(long column, CounterRows sum, ColumnRange range, ColumnUpdate update,
            Map<Long, Long> toSet, long id) {
        if (sum.overflowed()) {
            return "its slots add up to more than 64 bits hold; left in the slots";
        }
        if (sum.total() == 0 && update == ColumnUpdate.ADD) {
            return null;
        }
        try {
            long value = update.apply(column, sum.total());
            if (range.holds(value)) {
                toSet.put(id, value);
                return null;
            }
        } catch (ArithmeticException beyond64Bits) {
            // Beyond every integer column's range too.
        }
        return "the column's " + column + " plus the slots' " + sum.total() + " would not fit what the"
                + " owner column may hold as a fold-mode base, " + range.describe() + "; left in the"
                + " slots, where reads still count it" + (range.max() < SlotRange.COLUMN_MAX
                        ? "; widen the column (BIGINT) to roll it up" : "");
    }

    /**
     * Writes the copy of every differing counter's slot sum into the owner column, leaving the
     * slot rows as they are.
     *
     * @param registration the bound type, in copy mode
     * @param range what the column can hold
     * @param steps what follows it, and may stop it between chunks
     * @return what was rolled up
     */
    RollUpReport copy(Registration registration, ColumnRange range, Steps steps) {
        int type = registration.recordType();
        OwnerStatements owner = database.ownerStatements(registration.owner());
        Map<Long, Long> toSet = new LinkedHashMap<>();
        List<String> refused = new ArrayList<>();
        steps.begin("comparing the slots with " + owner.owner(), -1, "statements");
        long withoutOwner = retrier.read("compare record_type " + type + " with " + owner.owner(),
                (connection, dialect) -> copyDifferences(connection, owner, type, range, toSet, refused));
        List<Long> ids = new ArrayList<>(toSet.keySet());
        Collections.sort(ids);
        steps.begin("copying the slots into " + owner.owner(), ids.size(), "counters");
        for (int from = 0; from < ids.size(); from += CHUNK) {
            int done = from;
            steps.stopIfAsked(() -> "stopped after copying " + done + " of " + ids.size() + " counters of"
                    + " record_type " + type + " into " + owner.owner() + ", as a roll-up does; the type"
                    + " stays bound and its slot rows as they were: run the release again to finish");
            Map<Long, Long> chunk = new LinkedHashMap<>();
            ids.subList(from, Math.min(ids.size(), from + CHUNK)).forEach(id -> chunk.put(id, toSet.get(id)));
            retrier.write("copy " + chunk.size() + " counters of record_type " + type + " into "
                    + owner.owner(), (connection, dialect) -> Transactions.inTransaction(connection, () -> {
                        setColumns(connection, owner, chunk);
                        connection.commit();
                        return null;
                    }));
            steps.advance(Math.min(ids.size(), from + CHUNK));
        }
        return new RollUpReport(1, toSet.size(), withoutOwner, refused);
    }

    private static long copyDifferences(Connection connection, OwnerStatements owner, int type,
            ColumnRange range, Map<Long, Long> toSet, List<String> refused) throws SQLException {
        long withoutOwner = 0;
        try (PreparedStatement select = connection.prepareStatement(owner.copyDifferencesSql())) {
            select.setInt(1, type);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    long id = rows.getLong(1);
                    BigDecimal total = rows.getBigDecimal(2);
                    rows.getLong(3);
                    if (rows.wasNull()) {
                        withoutOwner++;
                    } else if (total.compareTo(BigDecimal.valueOf(range.min())) < 0
                            || total.compareTo(BigDecimal.valueOf(range.max())) > 0) {
                        refused.add("counter (record_type=" + type + ", record_id=" + id + "): its"
                                + " total " + total.toPlainString() + " does not fit the owner column's"
                                + " type " + range.describe() + "; widen the column (BIGINT)");
                    } else {
                        toSet.put(id, total.longValueExact());
                    }
                }
            }
        }
        return withoutOwner;
    }

    private static Map<Long, Long> lockOwnerRows(Connection connection, OwnerStatements owner, List<Long> ids)
            throws SQLException {
        Map<Long, Long> columns = new LinkedHashMap<>();
        if (ids.isEmpty()) {
            return columns;
        }
        try (PreparedStatement select = connection.prepareStatement(owner.lockSql(ids.size()))) {
            for (int i = 0; i < ids.size(); i++) {
                select.setLong(i + 1, ids.get(i));
            }
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    columns.put(rows.getLong(1), rows.getLong(2));
                }
            }
        }
        return columns;
    }

    private static void setColumns(Connection connection, OwnerStatements owner, Map<Long, Long> values)
            throws SQLException {
        if (values.isEmpty()) {
            return;
        }
        try (PreparedStatement update = connection.prepareStatement(owner.setManySql(values))) {
            update.executeUpdate();
        }
    }

}
