package io.slotted;

import io.slotted.internal.dialect.schema.SchemaScript;
import io.slotted.internal.schema.SchemaMigrator;
import io.slotted.internal.sql.TableName;
import java.util.List;

/**
 * Slotted's schema as files in this jar, one per database: the DDL of the counter table and its
 * companions, for teams whose migrations go through Flyway, Liquibase or review instead of
 * {@link SlottedCounters#migrate()}, which runs the same files (docs/schema.md).
 *
 * <p>Each file, {@code io/slotted/schema/<database>/1-create.sql}, is written for the default
 * table, {@value #DEFAULT_TABLE}, and ends by recording the schema version in the table of that
 * name plus {@code _schema}; every statement may be run again. {@link #createScript} gives it for
 * another table name.
 */
public final class SlottedSchema {
    /** The schema version this release creates and knows. */
    public static final int VERSION = SchemaScript.VERSION;
    /** The counter table the files are written for. */
    public static final String DEFAULT_TABLE = SchemaScript.DEFAULT_TABLE;
    /** The databases with a schema file, as the files' folders are named. */
    public static final List<String> DATABASES = SchemaScript.DATABASES;

    private SlottedSchema() {
    }

    /**
     * The tables of a counter table: itself and its companions, named after it, in the order the
     * schema file makes them. The application's database user needs {@code SELECT},
     * {@code INSERT}, {@code UPDATE} and {@code DELETE} on each.
     *
     * @param table the counter table, {@code table} or {@code schema.table}
     * @return the names, the counter table's first
     * @throws IllegalArgumentException if the name is not a plain identifier
     */
    public static List<String> tables(String table) {
        TableName name = TableName.parse(table);
        return SchemaMigrator.SUFFIXES.stream().map(suffix -> name.withSuffix(suffix).toString()).toList();
    }

    /**
     * Where a database's schema file is, as a class path resource: what a migration tool is pointed at.
     *
     * @param database one of {@link #DATABASES}
     * @return the resource path, without a leading slash
     * @throws IllegalArgumentException if there is no file for the database
     */
    public static String resource(String database) {
        return SchemaScript.of(database).resource();
    }

    /**
     * The schema file for a counter table: every name of the default table and its companions
     * changed to the given table's, as {@code migrate()} would run it; the file itself for the
     * default table.
     *
     * @param database one of {@link #DATABASES}
     * @param table the counter table, {@code table} or {@code schema.table}
     * @return the script, with its comments
     * @throws IllegalArgumentException if there is no file for the database or the name is not a
     *     plain identifier
     */
    public static String createScript(String database, String table) {
        return SchemaScript.of(database).text(TableName.parse(table));
    }

    /**
     * What upgrades a schema recorded at a version to this release's, for a counter table: for 0,
     * a schema made before versions were recorded (no {@code _schema} table), the columns added
     * since, to be followed by {@link #createScript}, whose statements leave what exists alone and
     * record the version; for this release's version, nothing.
     *
     * @param database one of {@link #DATABASES}
     * @param table the counter table, {@code table} or {@code schema.table}
     * @param from the version recorded, 0 for none
     * @return the script, with its comments; empty when there is nothing to run
     * @throws IllegalArgumentException if there is no file for the database, the name is not a
     *     plain identifier, or the version is not one this release knows
     */
    public static String upgradeScript(String database, String table, int from) {
        if (from < 0 || from > VERSION) {
            throw new IllegalArgumentException("schema version " + from + " is not one this release knows (0, for a"
                    + " schema made before versions were recorded, to " + VERSION + ")");
        }
        return from == VERSION ? "" : SchemaScript.fromUnversioned(database).text(TableName.parse(table));
    }
}
