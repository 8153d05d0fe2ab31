package io.slotted.internal.write;

import io.slotted.internal.dialect.Dialect;
import io.slotted.internal.dialect.Failure;
import io.slotted.internal.dialect.SlotRow;
import io.slotted.internal.sql.CounterKey;
import io.slotted.internal.sql.TableName;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.function.ToIntFunction;

/**
 * The one way slot rows are upserted, for every write path.
 *
 * <p>A write sums its increments per counter first, so each counter is one row; rows go to the
 * database in counter order, so that two writes holding some of the same counters take their row
 * locks in the same order and cannot deadlock on each other. A counter whose increments cancelled
 * out is not written at all.
 */
public final class SlotRows {
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
}
