package io.slotted.internal.dialect.statements;

import io.slotted.internal.sql.TableName;

/**
 * The statements of the flush ledger ({@code FlushLedger}): each flusher's row in the ledger table,
 * and its mark, a reserved row of the counter table. Standard SQL that every supported database
 * takes; a dialect whose database needs other text returns a subclass from
 * {@code Dialect.ledgerStatements}.
 */
public class LedgerStatements {
    /** The counter table, which holds the marks. */
    protected final TableName counters;
    /** The ledger table. */
    protected final TableName ledger;

    /**
     * The statements of one ledger.
     *
     * @param counters the counter table
     * @param ledger the ledger table beside it
     */
    public LedgerStatements(TableName counters, TableName ledger) {
        this.counters = counters;
        this.ledger = ledger;
    }

    /**
     * Reads a mark and locks it until the transaction ends. Binds the mark's record type, record id
     * and slot.
     *
     * @return the SQL text; one row of the mark's count, or none
     */
    public String lockMark() {
        return "SELECT count FROM " + counters + " WHERE record_type = ? AND record_id = ? AND slot = ?"
                + " FOR UPDATE";
    }

    /**
     * Creates a mark. Binds its record type, record id, slot and value.
     *
     * @return the SQL text
     */
    public String insertMark() {
        return "INSERT INTO " + counters + " (record_type, record_id, slot, count) VALUES (?, ?, ?, ?)";
    }

    /**
     * Sets a mark's value. Binds the value, then its record type, record id and slot.
     *
     * @return the SQL text
     */
    public String setMark() {
        return "UPDATE " + counters + " SET count = ? WHERE record_type = ? AND record_id = ? AND slot = ?";
    }

    /**
     * Deletes a mark. Binds its record type, record id and slot.
     *
     * @return the SQL text
     */
    public String deleteMark() {
        return "DELETE FROM " + counters + " WHERE record_type = ? AND record_id = ? AND slot = ?";
    }

    /**
     * Records that a flusher is alive. Binds the time and the flusher's id.
     *
     * @return the SQL text
     */
    public String touch() {
        return "UPDATE " + ledger + " SET updated_ms = ? WHERE flusher_id = ?";
    }

    /**
     * Lists the flushers that have not written since a time, locking nothing. Binds the time.
     *
     * @return the SQL text; rows of flusher ids
     */
    public String abandoned() {
        return "SELECT flusher_id FROM " + ledger + " WHERE updated_ms < ?";
    }

    /**
     * Deletes one flusher's row if it is still abandoned. Binds the flusher's id and the time.
     *
     * @return the SQL text
     */
    public String deleteAbandoned() {
        return "DELETE FROM " + ledger + " WHERE flusher_id = ? AND updated_ms < ?";
    }

    /**
     * Claims a flush's number by moving the flusher's row up to it. Binds the number, the time,
     * the flusher's id and the number again.
     *
     * @return the SQL text; one row changed when the claim succeeded
     */
    public String advance() {
        return "UPDATE " + ledger + " SET flush_seq = ?, updated_ms = ? WHERE flusher_id = ? AND flush_seq < ?";
    }

    /**
     * Reads a flusher's number and locks its row until the transaction ends. Binds its id.
     *
     * @return the SQL text; one row of the number, or none
     */
    public String lockCurrent() {
        return "SELECT flush_seq FROM " + ledger + " WHERE flusher_id = ? FOR UPDATE";
    }

    /**
     * Creates a flusher's row. Binds its id, number and the time.
     *
     * @return the SQL text
     */
    public String insertFlusher() {
        return "INSERT INTO " + ledger + " (flusher_id, flush_seq, updated_ms) VALUES (?, ?, ?)";
    }
}
