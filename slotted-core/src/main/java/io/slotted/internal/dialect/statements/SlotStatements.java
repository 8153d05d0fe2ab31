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
     * Binds the type, the {@code ids} ids and the lowest slot.
     *
     * @param ids how many ids
     * @return the SQL text; rows of (record id, slot, count)
     */
    public String lockFromSlot(int ids) {
        return "SELECT record_id, slot, count FROM " + counters + " WHERE record_type = ? AND record_id IN ("
                + placeholders(ids) + ") AND slot >= ? ORDER BY record_id, slot FOR UPDATE";
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
     * One counter's total over its slots, read by a transaction that holds the lock of the
     * counter's slot 0 row, which every decision of a bounded counter takes first: it must see
     * every increment committed before the lock was granted. Here a plain read: PostgreSQL and H2
     * read in each statement of a read-committed transaction what was committed before it began.
     * Binds the type and the id.
     *
     * @return the SQL text; one row, null when there is nothing
     */
    public String lockedTotal() {
        return total();
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
