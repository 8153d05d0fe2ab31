package io.slotted.internal.owner;

import io.slotted.internal.dialect.Dialect;
import io.slotted.OwnerColumn;
import io.slotted.internal.schema.TableShape;
import io.slotted.internal.sql.TableName;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import java.util.Set;

/**
 * Checks an owner table against what a binding needs, and gives the count column's range: the
 * table exists, the key column is an integer column that is unique on its own (a roll-up writes
 * exactly one row per counter), and the count column is an integer column.
 */
public final class OwnerShape {
    private OwnerShape() {
    }

    /**
     * Reads and checks the owner table.
     *
     * @param connection an open connection
     * @param dialect the database's dialect
     * @param owner the owner column
     * @return the count column's range
     * @throws IllegalArgumentException naming what is missing or wrong, and what to do
     * @throws SQLException if the metadata cannot be read
     */
    public static ColumnRange check(Connection connection, Dialect dialect, OwnerColumn owner)
            throws SQLException {
        TableShape shape = TableShape.read(connection, dialect, TableName.parse(owner.table()))
                .orElseThrow(() -> new IllegalArgumentException("owner table " + owner.table()
                        + " does not exist; name an existing table as TABLE.KEY.COLUMN"));
        TableShape.Column key = column(shape, owner, owner.keyColumn(), "key");
        if (ColumnRange.of(key).isEmpty()) {
            throw new IllegalArgumentException("owner key column " + owner.table() + "."
                    + owner.keyColumn() + " is " + key.typeName() + ", not an integer type; the key"
                    + " column holds the counter's record_id, so it must be an integer column");
        }
        String keyName = owner.keyColumn().toLowerCase(Locale.ROOT);
        if (shape.uniqueKeys().stream().noneMatch(Set.of(keyName)::equals)) {
            throw new IllegalArgumentException("owner key column " + owner.table() + "."
                    + owner.keyColumn() + " is not unique on its own (no primary key or unique index"
                    + " of just that column); a roll-up must write exactly one row per counter");
        }
        TableShape.Column count = column(shape, owner, owner.countColumn(), "count");
        return ColumnRange.of(count).orElseThrow(() -> new IllegalArgumentException(
                "owner count column " + owner.table() + "." + owner.countColumn() + " is "
                        + count.typeName() + ", not an integer type; bind an integer column"
                        + " (BIGINT is best)"));
    }

    private static TableShape.Column column(TableShape shape, OwnerColumn owner, String name,
            String role) {
        TableShape.Column column = shape.columns().get(name.toLowerCase(Locale.ROOT));
        if (column == null) {
            throw new IllegalArgumentException("owner table " + owner.table() + " has no " + role
                    + " column '" + name + "' (it has " + shape.columns().keySet() + ")");
        }
        return column;
    }
}
