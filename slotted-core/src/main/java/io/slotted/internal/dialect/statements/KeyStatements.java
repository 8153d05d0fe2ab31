package io.slotted.internal.dialect.statements;

import io.slotted.internal.sql.TableName;

/**
 * The statements of the idempotency key table ({@code IdempotencyKeys}) besides recording a key,
 * which differs by database ({@code Dialect.insertKeyIfAbsentSql}). Standard SQL that every
 * supported database takes; a dialect whose database needs other text returns a subclass from
 * {@code Dialect.keyStatements}.
 */
public class KeyStatements {
    /** The key table. */
    protected final TableName keys;

    /**
     * The statements of one key table.
     *
     * @param keys the key table
     */
    public KeyStatements(TableName keys) {
        this.keys = keys;
    }

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
