package io.slotted.internal.dialect.statements;

import io.slotted.internal.sql.TableName;

/**
 * The statements of the type registry ({@code TypeRegistry}): one row per counter type with an
 * owner column binding, a slot count or limits every process follows. Standard SQL that every supported
 * database takes; a dialect whose database needs other text returns a subclass from
 * {@code Dialect.registryStatements}.
 */
public class RegistryStatements {
    /** The columns of a registration, in the order every read returns them. */
    public static final String COLUMNS =
            "record_type, owner_table, key_column, count_column, owner_mode, slots, bound_ms, rolled_up_ms,"
            + " lower_bound, upper_bound, limit_window, expiring";

    /** The registry table. */
    protected final TableName registry;

    /**
     * The statements of one registry.
     *
     * @param registry the registry table
     */
    public RegistryStatements(TableName registry) {
        this.registry = registry;
    }

    /**
     * Reads every registration, locking nothing.
     *
     * @return the SQL text; rows of {@link #COLUMNS}
     */
    public String selectAll() {
        return "SELECT " + COLUMNS + " FROM " + registry;
    }

    /**
     * Reads one type's row without locking it. Binds the record type.
     *
     * @return the SQL text
     */
    public String selectOne() {
        return "SELECT " + COLUMNS + " FROM " + registry + " WHERE record_type = ?";
    }

    /**
     * Reads one type's registration and locks it until the transaction ends. Binds the type.
     *
     * @param noWait true to fail at once with a lock conflict if another session holds the row
     * @return the SQL text; one row of {@link #COLUMNS}, or none
     */
    public String lock(boolean noWait) {
        return "SELECT " + COLUMNS + " FROM " + registry + " WHERE record_type = ? FOR UPDATE"
                + (noWait ? " NOWAIT" : "");
    }

    /**
     * Changes a type's registration. Binds owner table, key column, count column, owner mode,
     * slots, bound time, rolled-up time, lower and upper bound (null for none), the limits'
     * window (null for the whole total), whether its counters expire (1 or 0) and the type.
     *
     * @return the SQL text
     */
    public String update() {
        return "UPDATE " + registry + " SET owner_table = ?, key_column = ?, count_column = ?,"
                + " owner_mode = ?, slots = ?, bound_ms = ?, rolled_up_ms = ?, lower_bound = ?, upper_bound = ?,"
                + " limit_window = ?, expiring = ? WHERE record_type = ?";
    }

    /**
     * Creates a type's registration. Binds what {@link #update()} binds, in the same order.
     *
     * @return the SQL text
     */
    public String insert() {
        return "INSERT INTO " + registry + " (owner_table, key_column, count_column, owner_mode,"
                + " slots, bound_ms, rolled_up_ms, lower_bound, upper_bound, limit_window, expiring, record_type)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    }

    /**
     * Records when a type's roll-up started. Binds the time and the type.
     *
     * @return the SQL text
     */
    public String rolledUp() {
        return "UPDATE " + registry + " SET rolled_up_ms = ? WHERE record_type = ?";
    }

    /**
     * Deletes a type's registration. Binds the type.
     *
     * @return the SQL text
     */
    public String delete() {
        return "DELETE FROM " + registry + " WHERE record_type = ?";
    }
}
