package io.slotted.internal.dialect.statements;

import io.slotted.internal.sql.TableName;
import java.util.Collections;

/**
 * The statements of the expiry table ({@code ExpiringCounters}). Times are epoch milliseconds; a
 * null {@code expires_ms} is a counter that never expires. Standard SQL that every supported
 * database takes, but for creating missing rows, which is each database's own: each dialect gives
 * a subclass ({@code Dialect.expiryStatements}).
 */
public abstract class ExpiryStatements {
    /** The expiry table. */
    protected final TableName expiry;
    /** The counter table. */
    protected final TableName counters;

    /**
     * The statements of one expiry table.
     *
     * @param expiry the expiry table
     * @param counters the counter table beside it
     */
    protected ExpiryStatements(TableName expiry, TableName counters) {
        this.expiry = expiry;
        this.counters = counters;
    }

    /**
     * One statement that creates counters' missing rows in the expiry table, without an expiry,
     * and leaves the rows that exist alone; a row another transaction is creating is waited for,
     * or, where the database fails the statement with a duplicate key instead (H2), the statement
     * is repeated. Binds per counter: record type, record id.
     *
     * @param count how many counters are bound, from 1 to {@link #rowsPerInsert()}
     * @return the SQL text
     */
    public abstract String insertMissing(int count);

    /**
     * How many counters one {@link #insertMissing} statement may create.
     *
     * @return at least 1
     */
    public int rowsPerInsert() {
        return 200;
    }

    /**
     * The totals of some counters of an expiring type, reading a counter whose expiry has passed
     * as 0: rows of {@code (record_id, total)}, counters without rows left out. Binds the time now
     * (epoch milliseconds), the record type, then each id.
     *
     * @param ids how many ids are bound
     * @return the SQL text
     */
    public String readTotalsUnlessExpired(int ids) {
        return "SELECT c.record_id, SUM(c.count) FROM " + counters + " c WHERE NOT EXISTS (SELECT 1 FROM "
                + expiry + " e WHERE e.record_type = c.record_type AND e.record_id = c.record_id"
                + " AND e.expires_ms <= ?) AND c.record_type = ? AND c.record_id IN ("
                + String.join(", ", Collections.nCopies(ids, "?")) + ") GROUP BY c.record_id";
    }

    /**
     * Locks the rows of some counters of one type that exist, in id order, and reads their
     * expiries. A locking read returns each row as last committed, waiting for a writer that
     * holds it, on every database. Binds the type, then each id.
     *
     * @param ids how many ids are bound
     * @return the SQL text; rows of (record_id, expires_ms), for the counters that have a row
     */
    public String lockExpiries(int ids) {
        return expiries(ids) + " ORDER BY record_id FOR UPDATE";
    }

    /**
     * The expiries of some counters of one type. Binds the type, then each id.
     *
     * @param ids how many ids are bound
     * @return the SQL text; rows of (record_id, expires_ms), for the counters that have a row
     */
    public String expiries(int ids) {
        return "SELECT record_id, expires_ms FROM " + expiry + " WHERE record_type = ? AND record_id IN ("
                + String.join(", ", Collections.nCopies(ids, "?")) + ")";
    }

    /**
     * Sets or clears one counter's expiry. Binds the time (null for never), the type and the id.
     *
     * @return the SQL text
     */
    public String setExpiry() {
        return "UPDATE " + expiry + " SET expires_ms = ? WHERE record_type = ? AND record_id = ?";
    }

    /**
     * Deletes every slot row of one counter: an expired counter's, under its expiry row's lock.
     * Binds the type and the id.
     *
     * @return the SQL text
     */
    public String deleteSlots() {
        return "DELETE FROM " + counters + " WHERE record_type = ? AND record_id = ?";
    }

    /**
     * The counters whose expiry has passed, soonest expired first, without locking them. Binds the
     * time now.
     *
     * @return the SQL text; rows of (record_type, record_id)
     */
    public String due() {
        return "SELECT record_type, record_id FROM " + expiry + " WHERE expires_ms <= ? ORDER BY expires_ms";
    }

    /**
     * Reads one counter's expiry and locks its row. Binds the type and the id.
     *
     * @return the SQL text; one row of (expires_ms), or none
     */
    public String lockOne() {
        return "SELECT expires_ms FROM " + expiry + " WHERE record_type = ? AND record_id = ? FOR UPDATE";
    }

    /**
     * Deletes one counter's expiry row. Binds the type and the id.
     *
     * @return the SQL text
     */
    public String deleteOne() {
        return "DELETE FROM " + expiry + " WHERE record_type = ? AND record_id = ?";
    }
}
