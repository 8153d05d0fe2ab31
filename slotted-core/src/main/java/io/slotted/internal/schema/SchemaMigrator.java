package io.slotted.internal.schema;

import io.slotted.MigrationReport;
import io.slotted.SchemaException;
import io.slotted.internal.dialect.Dialect;
import io.slotted.internal.dialect.Failure;
import io.slotted.internal.dialect.schema.SchemaScript;
import io.slotted.internal.progress.Steps;
import io.slotted.internal.sql.TableName;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Creates the counter table when it is missing and checks it when it is not, and creates or
 * upgrades Slotted's own companion tables beside it.
 *
 * <p>An existing counter table is never altered: it belongs to the user, who may have made it
 * from the original pattern's DDL years ago. Slotted needs only the four columns and a unique key over
 * {@code (record_type, record_id, slot)}; a table without them is refused with a message naming
 * what is missing. What works but costs something is reported as a warning: a surrogate
 * auto-increment id (every upsert consumes a value, even when it updates, so an {@code INT} id runs
 * out after about 2.1 billion increments), {@code INT} counts that overflow at 2,147,483,647, and
 * {@code INT} record ids that cannot hold larger ids.
 *
 * <p>The companions, the flush ledger, the idempotency key table, the type registry, the time
 * buckets, the name dictionary, the expiry table and the schema table, are Slotted's alone, so an
 * earlier release's shape is converted: a key column that ignores trailing spaces (MariaDB and
 * MySQL before exact keys) is changed to one that compares keys exactly.
 *
 * <p>Every table is made by the statements of the database's schema file ({@link SchemaScript}),
 * the one Flyway, Liquibase or a person runs instead. The schema table records the version the
 * file installs, last, once every table is there; a schema recorded as newer than this release
 * knows is refused before anything is changed, since this release cannot tell what the newer one
 * relies on.
 */
public final class SchemaMigrator {
    private static final List<String> NEEDED = List.of("record_type", "record_id", "slot", "count");
    private static final Set<String> KEY = Set.of("record_type", "record_id", "slot");
    /** The flush ledger's name is the counter table's plus this. */
    public static final String LEDGER_SUFFIX = "_ledger";
    /** The idempotency key table's name is the counter table's plus this. */
    public static final String KEYS_SUFFIX = "_keys";
    /** The type registry's name is the counter table's plus this. */
    public static final String REGISTRY_SUFFIX = "_types";
    /** The time bucket table's name is the counter table's plus this. */
    public static final String BUCKETS_SUFFIX = "_buckets";
    /** The name dictionary's name is the counter table's plus this. */
    public static final String NAMES_SUFFIX = "_names";
    /** The expiry table's name is the counter table's plus this. */
    public static final String EXPIRY_SUFFIX = "_expiry";
    /** The schema table's name is the counter table's plus this. */
    public static final String SCHEMA_SUFFIX = "_schema";
    /** The counter table's suffix (none) and its companions', in the order {@code migrate()} makes them. */
    public static final List<String> SUFFIXES = List.of("", LEDGER_SUFFIX, KEYS_SUFFIX, REGISTRY_SUFFIX,
            BUCKETS_SUFFIX, NAMES_SUFFIX, EXPIRY_SUFFIX, SCHEMA_SUFFIX);
    /** The counter table and its seven companions. */
    private static final int TABLES = SUFFIXES.size();

    private SchemaMigrator() {
    }

    /**
     * Creates or checks the table.
     *
     * @param connection an open connection
     * @param dialect the database's dialect
     * @param table the counter table
     * @param steps what follows it, one table after another, and may stop it between tables
     * @return what was done and what to look at
     * @throws SQLException if the database fails
     * @throws SchemaException if an existing table cannot be used
     */
    public static MigrationReport migrate(Connection connection, Dialect dialect, TableName table, Steps steps)
            throws SQLException {
        List<String> warnings = new ArrayList<>(dialect.settingsWarnings(connection));
        List<String> actions = new ArrayList<>();
        steps.begin("creating or checking " + table + " and its companion tables", TABLES, "tables");
        SchemaScript script = dialect.schemaScript();
        int recorded = recordedVersion(connection, dialect, table);
        if (recorded > SchemaScript.VERSION) {
            throw newerSchema(table, recorded);
        }
        Optional<TableShape> existing = TableShape.read(connection, dialect, table);
        if (existing.isEmpty()) {
            runAll(connection, dialect, script.statements(table, ""));
            actions.add("created table " + table);
        } else {
            warnings.addAll(check(existing.get(), table));
        }
        List<Companion> companions = List.of(
                () -> createIfMissing(connection, dialect, table, LEDGER_SUFFIX,
                        "the flush ledger that makes group commits exactly-once"),
                () -> keys(connection, dialect, table),
                () -> registry(connection, dialect, table),
                () -> createIfMissing(connection, dialect, table, BUCKETS_SUFFIX,
                        "counts per time bucket, for the types configured with buckets"),
                () -> createIfMissing(connection, dialect, table, NAMES_SUFFIX, "the name dictionary: the"
                        + " record_type of each type name and the record_id of each string id"),
                () -> createIfMissing(connection, dialect, table, EXPIRY_SUFFIX,
                        "when counters of the expiring types expire"),
                () -> version(connection, dialect, table, recorded, warnings));
        for (int done = 1; done < TABLES; done++) {
            steps.advance(done);
            int tables = done;
            steps.stopIfAsked(() -> "stopped after " + tables + " of " + TABLES + " tables (" + (actions.isEmpty()
                    ? "nothing needed doing" : String.join("; ", actions)) + "); each change is whole:"
                    + " run the migration again to finish");
            companions.get(done - 1).migrate().ifPresent(actions::add);
        }
        for (String suffix : List.of("", LEDGER_SUFFIX, BUCKETS_SUFFIX)) {
            storageParameters(connection, dialect, table, suffix).ifPresent(warnings::add);
        }
        steps.advance(TABLES);
        return new MigrationReport(table.toString(), existing.isEmpty(), actions, warnings);
    }

    /**
     * Checks the schema without changing anything, for a schema made by Flyway, Liquibase or by
     * hand from the schema file: every table there, each companion with every column the file
     * gives it, the counter table with what Slotted needs, and this release's version recorded.
     *
     * @param connection an open connection
     * @param dialect the database's dialect
     * @param table the counter table
     * @return the report: nothing done, and what to look at
     * @throws SQLException if the database fails
     * @throws SchemaException naming everything missing and the file that makes it
     */
    public static MigrationReport verify(Connection connection, Dialect dialect, TableName table) throws SQLException {
        SchemaScript script = dialect.schemaScript();
        int recorded = recordedVersion(connection, dialect, table);
        if (recorded > SchemaScript.VERSION) {
            throw newerSchema(table, recorded);
        }
        List<String> warnings = new ArrayList<>(dialect.settingsWarnings(connection));
        List<String> missing = new ArrayList<>();
        for (String suffix : SUFFIXES) {
            TableName companion = table.withSuffix(suffix);
            Optional<TableShape> shape = TableShape.read(connection, dialect, companion);
            if (shape.isEmpty()) {
                missing.add("table " + companion);
            } else if (suffix.isEmpty()) {
                warnings.addAll(check(shape.get(), table)); // the counter table may be the application's own
            } else {
                List<String> lacking = script.columns(suffix).stream()
                        .filter(column -> !shape.get().columns().containsKey(column)).toList();
                if (!lacking.isEmpty()) {
                    missing.add("column" + (lacking.size() > 1 ? "s " : " ") + String.join(", ", lacking) + " of table "
                            + companion);
                }
            }
        }
        if (missing.isEmpty() && recorded < SchemaScript.VERSION) {
            missing.add("schema version " + SchemaScript.VERSION + " recorded in table " + table.withSuffix(SCHEMA_SUFFIX));
        }
        if (!missing.isEmpty()) {
            throw new SchemaException("the schema of " + table + " lacks " + String.join("; ", missing) + ". "
                    + script.resource() + " in the Slotted jar makes it for the default table (`slotted schema"
                    + " --db-kind " + dialect.schemaDatabase() + " --table " + table + "` prints it for this one):"
                    + " run it with the application's migrations, or let Slotted make it (migrate)");
        }
        for (String suffix : List.of("", LEDGER_SUFFIX, BUCKETS_SUFFIX)) {
            storageParameters(connection, dialect, table, suffix).ifPresent(warnings::add);
        }
        return new MigrationReport(table.toString(), false, List.of(), warnings);
    }

    private static SchemaException newerSchema(TableName table, int recorded) {
        return new SchemaException("the schema of " + table + " is version " + recorded + " (table " + table
                + SCHEMA_SUFFIX + "), newer than this release of Slotted knows (version " + SchemaScript.VERSION
                + "); it changes nothing: run the release that made it, or a newer one");
    }

    /**
     * Checks that an existing table of rows updated over and over has the storage parameters the
     * schema file gives it; says how to set those it lacks. A parameter the table has set, to any
     * value, is as its owner chose. The table is not altered: it may be the application's own,
     * made by its own DDL.
     */
    private static Optional<String> storageParameters(Connection connection, Dialect dialect, TableName counters,
            String suffix) throws SQLException {
        TableName table = counters.withSuffix(suffix);
        List<String> set = dialect.tableParameters(connection, table).stream().map(SchemaMigrator::name).toList();
        List<String> missing = dialect.schemaScript().storageParameters(suffix).stream()
                .filter(parameter -> !set.contains(name(parameter))).toList();
        if (missing.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("table " + table + " lacks the storage parameters " + String.join(", ", missing)
                + ", which keep the updates of its rows on their page and have autovacuum visit it sooner: "
                + dialect.setTableParametersSql(table, missing) + "; pages already full take the fillfactor"
                + " once the table is rewritten (VACUUM FULL, or pg_repack without locking it)");
    }

    private static String name(String parameter) {
        return parameter.substring(0, parameter.indexOf('='));
    }

    /** Creates or upgrades one companion table; says what it did, if anything. */
    @FunctionalInterface
    private interface Companion {
        Optional<String> migrate() throws SQLException;
    }

    /** Creates the type registry if it is missing, or adds the limits' columns to an earlier release's. */
    private static Optional<String> registry(Connection connection, Dialect dialect, TableName counters)
            throws SQLException {
        TableName registry = counters.withSuffix(REGISTRY_SUFFIX);
        Optional<TableShape> existing = TableShape.read(connection, dialect, registry);
        if (existing.isEmpty()) {
            runAll(connection, dialect, dialect.schemaScript().statements(counters, REGISTRY_SUFFIX));
            return Optional.of("created table " + registry
                    + " (the type registry: owner column bindings, slot counts and limits every process follows)");
        }
        List<String> added = new ArrayList<>();
        if (!existing.get().columns().containsKey("lower_bound")) {
            addColumns(connection, dialect, counters, REGISTRY_SUFFIX, "lower_bound", "upper_bound");
            added.add("lower_bound and upper_bound (the types' limits)");
        }
        if (!existing.get().columns().containsKey("limit_window")) {
            addColumns(connection, dialect, counters, REGISTRY_SUFFIX, "limit_window");
            added.add("limit_window (the window of limits per window)");
        }
        if (!existing.get().columns().containsKey("expiring")) {
            addColumns(connection, dialect, counters, REGISTRY_SUFFIX, "expiring");
            added.add("expiring (the types whose counters may expire)");
        }
        return added.isEmpty() ? Optional.empty()
                : Optional.of("added to " + registry + " the columns " + String.join(", and ", added));
    }

    /** Runs the statements of the file upgrading an unversioned schema that add or change these columns. */
    private static void addColumns(Connection connection, Dialect dialect, TableName counters, String suffix,
            String... columns) throws SQLException {
        SchemaScript upgrade = dialect.schemaUpgradeFromUnversioned();
        for (String column : columns) {
            runAll(connection, dialect, List.of(upgrade.alteringColumn(counters, suffix, column).orElseThrow(() ->
                    new IllegalStateException(upgrade.resource() + " does not add column " + column))));
        }
    }

    /** Creates a companion, and what goes with it, by its statements of the schema file, if it is missing. */
    private static Optional<String> createIfMissing(Connection connection, Dialect dialect, TableName counters,
            String suffix, String purpose) throws SQLException {
        TableName table = counters.withSuffix(suffix);
        if (TableShape.read(connection, dialect, table).isPresent()) {
            return Optional.empty();
        }
        runAll(connection, dialect, dialect.schemaScript().statements(counters, suffix));
        return Optional.of("created table " + table + " (" + purpose + ")");
    }

    /**
     * The schema version recorded beside the counter table: 0 when none is, as for a schema made
     * before versions were recorded.
     */
    private static int recordedVersion(Connection connection, Dialect dialect, TableName counters)
            throws SQLException {
        TableName schema = counters.withSuffix(SCHEMA_SUFFIX);
        if (TableShape.read(connection, dialect, schema).isEmpty()) {
            return 0;
        }
        try (Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery(dialect.schemaVersionSql(schema))) {
            return row.next() ? row.getInt(1) : 0;
        }
    }

    /**
     * Records the version once every table is there: creates the schema table if it is missing
     * and adds the version's row, which its statements leave alone when it is there already. A
     * user that may not create the table, whose other tables an earlier release made, is warned
     * and goes on: its tables are complete, only the record of their version is missing.
     */
    private static Optional<String> version(Connection connection, Dialect dialect, TableName counters,
            int recorded, List<String> warnings) throws SQLException {
        if (recorded == SchemaScript.VERSION) {
            return Optional.empty();
        }
        TableName schema = counters.withSuffix(SCHEMA_SUFFIX);
        try {
            runAll(connection, dialect, dialect.schemaScript().statements(counters, SCHEMA_SUFFIX));
        } catch (NotPermitted e) {
            warnings.add("schema version " + SchemaScript.VERSION + " is not recorded in table " + schema + ", which"
                    + " this database user may not make or write (" + e.getCause().getMessage() + "); the tables are"
                    + " complete: run " + dialect.schemaScript().resource() + " from the Slotted jar, or slotted migrate,"
                    + " as a user that may create tables, so that releases to come know the schema's version");
            return Optional.empty();
        }
        return Optional.of("recorded schema version " + SchemaScript.VERSION + " in table " + schema);
    }

    /** A statement of the schema file the database user may not run. */
    private static final class NotPermitted extends SchemaException {
        NotPermitted(String message, SQLException cause) {
            super(message, cause);
        }
    }

    /** Creates the idempotency key table, or upgrades an earlier release's. */
    private static Optional<String> keys(Connection connection, Dialect dialect, TableName counters)
            throws SQLException {
        TableName keys = counters.withSuffix(KEYS_SUFFIX);
        Optional<TableShape> existing = TableShape.read(connection, dialect, keys);
        if (existing.isPresent()) {
            return upgradeKeyColumn(connection, dialect, counters, keys, existing.get());
        }
        runAll(connection, dialect, dialect.schemaScript().statements(counters, KEYS_SUFFIX));
        return Optional.of("created table " + keys + " (callers' idempotency keys)");
    }

    private static Optional<String> upgradeKeyColumn(Connection connection, Dialect dialect,
            TableName counters, TableName keys, TableShape shape) throws SQLException {
        TableShape.Column column = shape.columns().get("idempotency_key");
        if (column == null || dialect.keyColumnComparesExactly(column.jdbcType())) {
            return Optional.empty();
        }
        addColumns(connection, dialect, counters, KEYS_SUFFIX, "idempotency_key");
        return Optional.of("converted column idempotency_key of table " + keys + " from "
                + column.typeName() + " to a type that compares keys exactly (keys differing only"
                + " in trailing spaces were one key)");
    }

    /**
     * Runs a table's statements of the schema file. A user that may not create tables is told how
     * the schema is made without it: by a user that may, from the file, after which this user
     * needs only to read and write rows.
     */
    private static void runAll(Connection connection, Dialect dialect, List<String> ddl) throws SQLException {
        for (String statement : ddl) {
            try {
                run(connection, statement);
            } catch (SQLException e) {
                if (dialect.classify(e) != Failure.NOT_PERMITTED) {
                    throw e;
                }
                throw new NotPermitted("the database user may not make Slotted's tables (" + e.getMessage()
                        + "): run " + dialect.schemaScript().resource() + " from the Slotted jar (`slotted schema`"
                        + " prints it for another table name) as a user that may create tables, or through the"
                        + " application's Flyway or Liquibase; this user then needs only the privileges"
                        + " SELECT, INSERT, UPDATE and DELETE on them, and verifySchema() (slotted.schema=verify)"
                        + " checks them", e);
            }
        }
    }

    private static void run(Connection connection, String ddl) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(ddl);
        }
        if (!connection.getAutoCommit()) {
            connection.commit();
        }
    }

    private static List<String> check(TableShape shape, TableName table) {
        Map<String, TableShape.Column> columns = shape.columns();
        for (String needed : NEEDED) {
            if (!columns.containsKey(needed)) {
                throw new SchemaException("table " + table + " has no column '" + needed + "'; Slotted"
                        + " needs record_type, record_id, slot and count (found " + columns.keySet()
                        + "). Point Slotted at another table or add the column.");
            }
        }
        if (shape.uniqueKeys().stream().noneMatch(KEY::equals)) {
            throw new SchemaException("table " + table + " has no unique key over exactly (record_type,"
                    + " record_id, slot), which the upsert needs to find a slot row; add one, for"
                    + " example: ALTER TABLE " + table + " ADD UNIQUE (record_type, record_id, slot)");
        }
        List<String> warnings = new ArrayList<>();
        for (TableShape.Column column : columns.values()) {
            warnings.addAll(warningsFor(column, table));
        }
        return warnings;
    }

    private static List<String> warningsFor(TableShape.Column column, TableName table) {
        String name = column.name();
        if (column.autoIncrement()) {
            return List.of("column " + name + " is auto-increment: every upsert consumes a value even"
                    + " when it updates an existing row, so a 32-bit id runs out after about 2.1"
                    + " billion increments; Slotted does not use it, and a primary key of (record_type,"
                    + " record_id, slot) without it avoids the problem");
        }
        if (column.requiredWithoutDefault() && !NEEDED.contains(name.toLowerCase(java.util.Locale.ROOT))) {
            throw new SchemaException("table " + table + " has column " + name + " that is NOT NULL"
                    + " without a default; Slotted's inserts would fail. Give it a default or allow NULL.");
        }
        if (name.equalsIgnoreCase("count") && column.isInt()) {
            return List.of("column count is " + column.typeName() + ": a slot overflows at 2147483647"
                    + " and increments into it then fail; change it to BIGINT");
        }
        if (name.equalsIgnoreCase("record_id") && column.isInt()) {
            return List.of("column record_id is " + column.typeName() + ": record ids above 2147483647"
                    + " cannot be counted; change it to BIGINT");
        }
        return List.of();
    }
}
