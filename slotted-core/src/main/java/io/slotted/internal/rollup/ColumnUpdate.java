package io.slotted.internal.rollup;

import io.slotted.internal.dialect.statements.SlotStatements;
import io.slotted.internal.write.SlotRows;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * What a roll-up writes into the owner column, given the column and the slots it takes, and so
 * which counters it has to visit.
 */
enum ColumnUpdate {
    /**
     * Fold: the slots' sum is added to the column's base. Slot rows at 0 add nothing, so only
     * counters with a non-zero row are visited.
     */
    ADD {
        @Override
        long apply(long column, long slots) {
            return Math.addExact(column, slots);
        }

        @Override
        List<Long> counters(Connection connection, SlotStatements sql, int recordType) throws SQLException {
            return SlotRows.changedIds(connection, sql, recordType);
        }
    },
    /**
     * Release of a copy-mode type: the column was a copy of the slots, which become the column.
     * A counter whose rows came back to 0 still sets its column to 0, so every counter with slot
     * rows is visited.
     */
    REPLACE {
        @Override
        long apply(long column, long slots) {
            return slots;
        }

        @Override
        List<Long> counters(Connection connection, SlotStatements sql, int recordType) throws SQLException {
            return SlotRows.ids(connection, sql, recordType, SlotRows.SETTLED_SLOTS);
        }
    };

    /**
     * The column's new value.
     *
     * @throws ArithmeticException if it leaves the 64-bit range
     */
    abstract long apply(long column, long slots);

    /**
     * The counters of a type this update has to visit, ascending, locking nothing.
     *
     * @throws SQLException if the read fails
     */
    abstract List<Long> counters(Connection connection, SlotStatements sql, int recordType) throws SQLException;
}
