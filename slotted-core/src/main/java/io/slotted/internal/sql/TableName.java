package io.slotted.internal.sql;

import java.util.regex.Pattern;

/**
 * A counter table's name, checked once so that it can be placed in SQL text safely.
 *
 * <p>The name is the one value Slotted ever writes into SQL text rather than binding as a
 * parameter, so it is held to a plain identifier: letters, digits and underscores, optionally
 * qualified by a schema. It is written unquoted on purpose: every database then folds its case
 * exactly as it folded the user's own {@code CREATE TABLE}, so {@code slotted_counters} names the
 * same table in Slotted as in the user's SQL on H2 (which folds to upper case) and PostgreSQL
 * (lower case) alike.
 */
public final class TableName {
    private static final Pattern PART = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,47}");

    private final String schema;
    private final String table;

    private TableName(String schema, String table) {
        this.schema = schema;
        this.table = table;
    }

    /**
     * Checks and splits a table name.
     *
     * @param name {@code table} or {@code schema.table}
     * @return the checked name
     * @throws IllegalArgumentException if a part is not a plain identifier
     */
    public static TableName parse(String name) {
        if (name == null) {
            throw new IllegalArgumentException("table must not be null");
        }
        String[] parts = name.split("\\.", -1);
        for (String part : parts) {
            if (parts.length > 2 || !PART.matcher(part).matches()) {
                throw new IllegalArgumentException("table must be an identifier of letters, digits and"
                        + " underscores (at most 48, not starting with a digit), optionally"
                        + " qualified as schema.table, but was '" + name + "'");
            }
        }
        return parts.length == 2 ? new TableName(parts[0], parts[1]) : new TableName(null, parts[0]);
    }

    /**
     * A companion table beside this one, in the same schema: {@code slotted_counters_ledger} for
     * {@code slotted_counters}. Table names are held to 48 characters so that the suffix fits
     * every database's identifier limit.
     *
     * @param suffix appended to the table part
     * @return the companion's name
     */
    public TableName withSuffix(String suffix) {
        return new TableName(schema, table + suffix);
    }

    /**
     * The schema part, if the name was qualified.
     *
     * @return the schema, or null
     */
    public String schema() {
        return schema;
    }

    /**
     * The table part.
     *
     * @return the unqualified table name
     */
    public String table() {
        return table;
    }

    /** The name as it appears in SQL text. */
    @Override
    public String toString() {
        return schema == null ? table : schema + "." + table;
    }
}
