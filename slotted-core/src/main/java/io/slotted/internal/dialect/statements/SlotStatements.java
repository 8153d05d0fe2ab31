package io.slotted.internal.dialect.statements;

import io.slotted.internal.sql.TableName;
import java.util.Collections;

/**
 * The statements that read, lock, zero and delete a counter table's slot rows outside the flush:
 * the roll-up and its sweep, a set, a shrink, a recount and a single read. Standard SQL that every
 * supported database takes; a dialect whose database needs other text returns a subclass from
 * {@code Dialect.slotStatements}. Locking reads take rows in key order, as every writer does, and
 * every write names one row by its whole key, so that it is a point lookup of a row the
 * transaction already holds and can never scan into rows a flusher has locked.
 */
public class SlotStatements {
    /** The counter table. */
    protected final TableName counters;

    /**
     * The statements of one counter table.
     *
     * @param counters the counter table
     */
    public SlotStatements(TableName counters) {
        this.counters = counters;
    }

    /**
     * The ids of a type's counters that have rows in a slot or above, locking nothing. Binds the
     * type and the lowest slot.
     *
     * @return the SQL text; rows of ids, ascending
     */
    public String idsFromSlot() {
        return "SELECT DISTINCT record_id FROM " + counters + " WHERE record_type = ? AND slot >= ?"
                + " ORDER BY record_id";
    }

    /**
     * The ids of a type's counters that have a slot row holding something other than 0, locking
     * nothing: the counters a fold-mode roll-up has to visit, since it leaves the rows it folds at
     * 0. It reads the type's range of the primary key, zero rows included; the sweep keeps those
     * few. Binds the type.
     *
     * @return the SQL text; rows of ids, ascending
     */
    public String changedIds() {
        return "SELECT DISTINCT record_id FROM " + counters + " WHERE record_type = ? AND count <> 0"
                + " ORDER BY record_id";
    }

    /**
     * The ids of a type's counters whose slot rows all hold 0, locking nothing: what the sweep
     * may delete. Binds the type.
     *
     * @return the SQL text; rows of ids, ascending
     */
    public String zeroIds() {
        return "SELECT record_id FROM " + counters + " WHERE record_type = ? GROUP BY record_id"
                + " HAVING MIN(count) = 0 AND MAX(count) = 0 ORDER BY record_id";
    }

    /**
     * Reads and locks the slot rows of some counters of one type, in a slot or above, in key order.
     * Binds the type, the smallest and the largest id, the {@code ids} ids and the lowest slot.
     *
     * <p>The range repeats what the list says, for H2: it reads an {@code IN} list on the key's
     * second column by scanning every row of the type, where the range lets it seek (docs/
     * benchmarks.md: a shrink on H2 went from 125 to 43,700 counters a second). MariaDB and
     * PostgreSQL use the list.
     *
     * @param ids how many ids
     * @return the SQL text; rows of (record id, slot, count)
     */
    public String lockFromSlot(int ids) {
        return readFromSlot(ids) + " FOR UPDATE";
    }

    /**
     * Reads the slot rows of some counters of one type, in a slot or above, in key order, locking
     * nothing: each row as last committed. Binds as {@link #lockFromSlot}.
     *
     * @param ids how many ids
     * @return the SQL text; rows of (record id, slot, count)
     */
    public String readFromSlot(int ids) {
        return "SELECT record_id, slot, count FROM " + counters + " WHERE record_type = ?"
                + " AND record_id BETWEEN ? AND ? AND record_id IN (" + placeholders(ids) + ") AND slot >= ?"
                + " ORDER BY record_id, slot";
    }

    /**
     * Deletes one slot row by its whole key. Binds type, id and slot.
     *
     * @return the SQL text
     */
    public String deleteSlot() {
        return "DELETE FROM " + counters + " WHERE record_type = ? AND record_id = ? AND slot = ?";
    }

    /**
     * Takes an amount out of one slot row by its whole key: a roll-up takes what it read from a
     * row it holds locked, which leaves the row at 0 for the next increment to update. Binds the
     * amount, then type, id and slot.
     *
     * @return the SQL text
     */
    public String subtractFromSlot() {
        return "UPDATE " + counters + " SET count = count - ? WHERE record_type = ? AND record_id = ? AND slot = ?";
    }

    /**
     * Takes an amount out of each of some slot rows, each by its whole key, in one statement; or
     * null where the rows go as a batch of {@link #subtractFromSlot()}, which is as cheap where the
     * database plans a prepared statement once and the driver sends the batch in one round trip.
     * Binds (id, slot, amount) for each row, in the order the rows are to be locked, then the type.
     *
     * @param rows how many rows, at most {@link #SUBTRACTED_AT_ONCE}
     * @return the SQL text, whose update count is the number of rows it found, or null
     */
    public String subtractFromSlots(int rows) {
        return null;
    }

    /** The most rows {@link #subtractFromSlots} takes from in one statement. */
    public static final int SUBTRACTED_AT_ONCE = 1_000;

    /**
     * Deletes one slot row by its whole key if it holds 0. Binds type, id and slot.
     *
     * @return the SQL text
     */
    public String deleteZeroSlot() {
        return "DELETE FROM " + counters + " WHERE record_type = ? AND record_id = ? AND slot = ? AND count = 0";
    }

    /**
     * One counter's total over its slots. Binds the type and the id.
     *
     * @return the SQL text; one row, null when there is nothing
     */
    public String total() {
        return "SELECT SUM(count) FROM " + counters + " WHERE record_type = ? AND record_id = ?";
    }

    /**
     * Reads and locks every row of one counter, allowance rows included, in key order: what a
     * decision of a bounded counter reads once it holds the counter's lock, its slot 0 row. A
     * locking read returns each row as last committed, waiting for a writer that holds it, on
     * every database, whatever a transaction's snapshot. Binds the type and the id.
     *
     * @return the SQL text; rows of (slot, count)
     */
    public String lockCounter() {
        return "SELECT slot, count FROM " + counters + " WHERE record_type = ? AND record_id = ? ORDER BY slot"
                + " FOR UPDATE";
    }

    /**
     * Spends from an allowance row of a bounded counter without its lock: adds the amount only if
     * the row holds a count within a range, the counts that cover every prefix of the increments
     * summed in the amount. The database checks the range on the row under its lock, so two
     * writers of one row cannot both spend its last unit. Binds the amount, then type, id and
     * slot, then the range's ends.
     *
     * @return the SQL text; one row updated if the allowance covered the amount, else none
     */
    public String spendAllowance() {
        return "UPDATE " + counters + " SET count = count + ? WHERE record_type = ? AND record_id = ? AND slot = ?"
                + " AND count BETWEEN ? AND ?";
    }

    /**
     * Every counter's total over its slots, for one type. Binds the type.
     *
     * @return the SQL text; rows of (record id, total)
     */
    public String totalsOfType() {
        return "SELECT record_id, SUM(count) FROM " + counters + " WHERE record_type = ? GROUP BY record_id";
    }

    /**
     * {@code n} comma-separated parameters.
     *
     * @param n how many
     * @return such as {@code ?, ?, ?}
     */
    static String placeholders(int n) {
        return String.join(", ", Collections.nCopies(n, "?"));
    }
}
