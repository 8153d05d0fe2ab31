package io.slotted.internal.schema;

import io.slotted.internal.dialect.Dialect;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import io.slotted.internal.sql.TableName;

/**
 * An existing table's columns and unique keys, read from JDBC metadata.
 *
 * <p>Names are compared in lower case. Metadata lookups take patterns in which {@code _} is a
 * wildcard, so rows are filtered to the exact table name afterwards.
 *
 * @param columns column name (lower case) to its description
 * @param uniqueKeys the column sets (lower case) of every unique index, the primary key included
 */
public record TableShape(Map<String, Column> columns, List<Set<String>> uniqueKeys) {

    /**
     * One column.
     *
     * @param name the column's name as the database reports it
     * @param jdbcType a {@link Types} constant
     * @param typeName the database's type name
     * @param autoIncrement whether the database fills it from a sequence
     * @param requiredWithoutDefault NOT NULL and neither defaulted nor generated
     */
    public record Column(String name, int jdbcType, String typeName, boolean autoIncrement,
            boolean requiredWithoutDefault) {

        public boolean isInt() {
            return jdbcType == Types.INTEGER || jdbcType == Types.SMALLINT || jdbcType == Types.TINYINT;
        }
    }

    /**
     * Reads a table's shape.
     *
     * @param connection an open connection
     * @param dialect the database's dialect, which says where its metadata keeps schemas
     * @param table the table
     * @return its shape, or empty if no such table exists
     * @throws SQLException if the metadata cannot be read
     */
    public static Optional<TableShape> read(Connection connection, Dialect dialect, TableName table)
            throws SQLException {
        DatabaseMetaData metadata = connection.getMetaData();
        String name = fold(metadata, table.table());
        String schema = table.schema() == null ? null : fold(metadata, table.schema());
        boolean catalogsAreSchemas = metadata.getSchemaTerm().isEmpty() || dialect.catalogsAreSchemas();
        String catalog = catalogsAreSchemas ? (schema != null ? schema : connection.getCatalog()) : null;
        String schemaPattern = catalogsAreSchemas ? null : (schema != null ? schema : connection.getSchema());
        Map<String, Column> columns = columns(metadata, catalog, schemaPattern, name);
        if (columns.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new TableShape(columns, uniqueKeys(metadata, catalog, schemaPattern, name)));
    }

    private static Map<String, Column> columns(DatabaseMetaData metadata, String catalog,
            String schema, String table) throws SQLException {
        Map<String, Column> columns = new LinkedHashMap<>();
        try (ResultSet rows = metadata.getColumns(catalog, schema, table, null)) {
            while (rows.next()) {
                if (!table.equals(rows.getString("TABLE_NAME"))) {
                    continue;
                }
                String column = rows.getString("COLUMN_NAME");
                boolean autoIncrement = "YES".equals(rows.getString("IS_AUTOINCREMENT"));
                boolean generated = "YES".equals(safeString(rows, "IS_GENERATEDCOLUMN"));
                boolean required = "NO".equals(rows.getString("IS_NULLABLE"))
                        && rows.getString("COLUMN_DEF") == null && !autoIncrement && !generated;
                columns.put(column.toLowerCase(Locale.ROOT), new Column(column, rows.getInt("DATA_TYPE"),
                        rows.getString("TYPE_NAME"), autoIncrement, required));
            }
        }
        return columns;
    }

    private static List<Set<String>> uniqueKeys(DatabaseMetaData metadata, String catalog,
            String schema, String table) throws SQLException {
        Map<String, Set<String>> byIndex = new HashMap<>();
        try (ResultSet rows = metadata.getIndexInfo(catalog, schema, table, true, false)) {
            while (rows.next()) {
                String index = rows.getString("INDEX_NAME");
                String column = rows.getString("COLUMN_NAME");
                if (index != null && column != null && !rows.getBoolean("NON_UNIQUE")) {
                    byIndex.computeIfAbsent(index, i -> new HashSet<>())
                            .add(column.toLowerCase(Locale.ROOT));
                }
            }
        }
        return new ArrayList<>(byIndex.values());
    }

    private static String safeString(ResultSet rows, String column) {
        try {
            return rows.getString(column);
        } catch (SQLException absentInOlderDrivers) {
            return null;
        }
    }

    /** Folds an unquoted identifier's case the way the database stored it. */
    private static String fold(DatabaseMetaData metadata, String identifier) throws SQLException {
        if (metadata.storesUpperCaseIdentifiers()) {
            return identifier.toUpperCase(Locale.ROOT);
        }
        if (metadata.storesLowerCaseIdentifiers()) {
            return identifier.toLowerCase(Locale.ROOT);
        }
        return identifier;
    }
}
