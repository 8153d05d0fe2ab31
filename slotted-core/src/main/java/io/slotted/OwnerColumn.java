package io.slotted;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A column of the owning row that a counter type is rolled up into, such as
 * {@code repositories.id.downloads_count}: the owner table, its key column (the counter's
 * {@code record_id}, unique in the table) and the count column.
 *
 * <p>Names are plain identifiers, written into SQL unquoted, so that the database folds their case
 * as it folded the user's own DDL.
 *
 * @param table the owner table, optionally qualified by a schema ({@code app.repositories})
 * @param keyColumn the column holding the counter's {@code record_id}
 * @param countColumn the integer column the counter is rolled up into
 */
public record OwnerColumn(String table, String keyColumn, String countColumn) {
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,63}");
    private static final Pattern TABLE_PART = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,47}");
    private static final Pattern TABLE = Pattern.compile(TABLE_PART + "(\\." + TABLE_PART + ")?");

    /**
     * Checks the names.
     *
     * @throws IllegalArgumentException if a name is not a plain identifier
     */
    public OwnerColumn {
        check("owner table", table, TABLE, 48);
        check("owner key column", keyColumn, IDENTIFIER, 64);
        check("owner count column", countColumn, IDENTIFIER, 64);
    }

    /**
     * Reads {@code TABLE.KEY.COLUMN} or {@code SCHEMA.TABLE.KEY.COLUMN}.
     *
     * @param spec the owner column as the command line writes it
     * @return the owner column
     * @throws IllegalArgumentException if {@code spec} has not three or four dot-separated
     *     identifiers
     */
    public static OwnerColumn parse(String spec) {
        Objects.requireNonNull(spec, "owner must not be null");
        String[] parts = spec.split("\\.", -1);
        if (parts.length != 3 && parts.length != 4) {
            throw new IllegalArgumentException("owner must be TABLE.KEY.COLUMN, such as"
                    + " repositories.id.downloads_count, but was '" + spec + "'");
        }
        int n = parts.length;
        String table = n == 4 ? parts[0] + "." + parts[1] : parts[0];
        return new OwnerColumn(table, parts[n - 2], parts[n - 1]);
    }

    private static void check(String what, String name, Pattern rule, int longest) {
        if (name == null || !rule.matcher(name).matches()) {
            throw new IllegalArgumentException(what + " must be an identifier of letters, digits and"
                    + " underscores (at most " + longest + ", not starting with a digit), but was '"
                    + name + "'");
        }
    }

    /** The owner column as {@link #parse} reads it: {@code table.key.column}. */
    @Override
    public String toString() {
        return table + "." + keyColumn + "." + countColumn;
    }
}
