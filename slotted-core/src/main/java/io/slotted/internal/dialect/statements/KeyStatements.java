package io.slotted.internal.dialect.statements;

import io.slotted.internal.sql.TableName;

/**
 * The statements of the idempotency key table ({@code IdempotencyKeys}). Reading and pruning keys
 * are standard SQL that every supported database takes; recording one is each database's own, so
 * each dialect gives a subclass ({@code Dialect.keyStatements}).
 */
public abstract class KeyStatements {
    /** The key table's columns, in the order {@link #insertIfAbsent} binds them. */
    protected static final String COLUMNS = "idempotency_key, fingerprint, flush_ref, created_ms";

    /** The key table. */
    protected final TableName keys;

    /**
     * The statements of one key table.
     *
     * @param keys the key table
     */
    protected KeyStatements(TableName keys) {
        this.keys = keys;
    }

    /**
     * An insert of a key that does nothing, without failing the transaction, when the key exists.
     * Its update count is 1 when the key was inserted and 0 when it was present. Binds the four
     * columns of {@link #COLUMNS} in order.
     *
     * @return the SQL text
     */
    public abstract String insertIfAbsent();

    /**
     * Reads a key's request and flush and locks its row until the transaction ends. Binds the key.
     *
     * @return the SQL text; one row of (fingerprint, flush reference), or none
     */
    public String lock() {
        return "SELECT fingerprint, flush_ref FROM " + keys + " WHERE idempotency_key = ? FOR UPDATE";
    }

    /**
     * Deletes the keys recorded before a time. Binds the time.
     *
     * @return the SQL text
     */
    public String deleteOlderThan() {
        return "DELETE FROM " + keys + " WHERE created_ms < ?";
    }
}
