package io.slotted.db;

import static org.assertj.core.api.Assertions.assertThat;

import io.slotted.internal.dialect.Dialect;
import io.slotted.internal.dialect.Dialects;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A schema made one way against one made another: a script run as a migration tool runs it, and a
 * table as the database's catalogs describe it (its columns, primary key and indexes, by their
 * columns since some databases name the indexes behind keys themselves, and its storage engine or
 * parameters).
 */
public final class SchemaCatalog {
    private SchemaCatalog() {
    }

    /**
     * Describes a table.
     *
     * @param db the database
     * @param schema the schema (a database, in MariaDB's words) the table is in
     * @param table the table's unqualified name
     * @return the description; empty if there is no such table
     */
    public static Map<String, String> describe(TestDatabase db, String schema, String table) throws SQLException {
        Map<String, String> description = new TreeMap<>();
        try (Connection connection = db.dataSource().getConnection()) {
            DatabaseMetaData meta = connection.getMetaData();
            Dialect dialect = Dialects.detect(connection);
            String s = meta.storesUpperCaseIdentifiers() ? schema.toUpperCase(Locale.ROOT) : schema;
            String t = meta.storesUpperCaseIdentifiers() ? table.toUpperCase(Locale.ROOT) : table;
            String catalog = dialect.catalogsAreSchemas() ? s : null;
            String schemaPattern = dialect.catalogsAreSchemas() ? null : s;
            try (ResultSet columns = meta.getColumns(catalog, schemaPattern, t, null)) {
                while (columns.next()) {
                    description.put("column " + columns.getString("COLUMN_NAME").toLowerCase(Locale.ROOT),
                            columns.getString("TYPE_NAME") + "(" + columns.getInt("COLUMN_SIZE") + ") nullable="
                                    + columns.getInt("NULLABLE"));
                }
            }
            if (description.isEmpty()) {
                return description;
            }
            Map<Integer, String> key = new TreeMap<>();
            try (ResultSet columns = meta.getPrimaryKeys(catalog, schemaPattern, t)) {
                while (columns.next()) {
                    key.put(columns.getInt("KEY_SEQ"), columns.getString("COLUMN_NAME").toLowerCase(Locale.ROOT));
                }
            }
            description.put("primary key", key.values().toString());
            Map<String, Map<Integer, String>> indexes = new TreeMap<>();
            Map<String, Boolean> unique = new TreeMap<>();
            try (ResultSet columns = meta.getIndexInfo(catalog, schemaPattern, t, false, false)) {
                while (columns.next()) {
                    String name = columns.getString("INDEX_NAME");
                    if (name == null) {
                        continue;
                    }
                    indexes.computeIfAbsent(name, n -> new TreeMap<>()).put((int) columns.getShort("ORDINAL_POSITION"),
                            columns.getString("COLUMN_NAME").toLowerCase(Locale.ROOT));
                    unique.put(name, !columns.getBoolean("NON_UNIQUE"));
                }
            }
            description.put("indexes", indexes.entrySet().stream()
                    .map(index -> (unique.get(index.getKey()) ? "unique " : "") + index.getValue().values())
                    .sorted().toList().toString());
            description.put("storage", storage(db, connection, s, t));
        }
        return description;
    }

    /**
     * Runs a schema script statement by statement, split at the semicolons that end its lines, as
     * migration tools split one; comment lines are left out.
     *
     * @param connection where to run it
     * @param script the script, as {@code slotted schema} prints it
     */
    public static void runAsAToolDoes(Connection connection, String script) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            StringBuilder sql = new StringBuilder();
            for (String line : script.split("\\R")) {
                if (line.startsWith("--")) {
                    continue;
                }
                sql.append(line).append('\n');
                if (line.endsWith(";")) {
                    statement.execute(sql.substring(0, sql.lastIndexOf(";")));
                    sql.setLength(0);
                }
            }
            assertThat(sql.toString().strip()).as("text after the last statement").isEmpty();
        }
    }

    private static String storage(TestDatabase db, Connection connection, String schema, String table)
            throws SQLException {
        String sql = db instanceof PostgresTestDatabase
                ? "SELECT array_to_string(reloptions, ',') FROM pg_class WHERE oid = to_regclass(? || '.' || ?)"
                : db instanceof InnoDbTestDatabase
                        ? "SELECT ENGINE FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?"
                        : "SELECT TABLE_TYPE FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?";
        try (PreparedStatement select = connection.prepareStatement(sql)) {
            select.setString(1, schema);
            select.setString(2, table);
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? String.valueOf(row.getString(1)) : "none";
            }
        }
    }
}
