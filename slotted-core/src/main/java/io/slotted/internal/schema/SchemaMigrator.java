package io.slotted.internal.schema;

import io.slotted.MigrationReport;
import io.slotted.SchemaException;
import io.slotted.internal.dialect.Dialect;
import io.slotted.internal.progress.Steps;
import io.slotted.internal.sql.TableName;
import java.sql.Connection;
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
 * buckets, the name dictionary and the expiry table, are Slotted's alone, so an earlier release's shape is converted: a key column that ignores trailing spaces (MariaDB and
 * MySQL before exact keys) is changed to one that compares keys exactly.
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
    /** The counter table and its six companions. */
    private static final int TABLES = 7;

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
        Optional<TableShape> existing = TableShape.read(connection, dialect, table);
        if (existing.isEmpty()) {
            run(connection, dialect.createTableSql(table));
            actions.add("created table " + table);
        } else {
            warnings.addAll(check(existing.get(), table));
        }
        List<Companion> companions = List.of(
                () -> ledger(connection, dialect, table.withSuffix(LEDGER_SUFFIX)),
                () -> keys(connection, dialect, table.withSuffix(KEYS_SUFFIX)),
                () -> registry(connection, dialect, table.withSuffix(REGISTRY_SUFFIX)),
                () -> buckets(connection, dialect, table.withSuffix(BUCKETS_SUFFIX)),
                () -> names(connection, dialect, table.withSuffix(NAMES_SUFFIX)),
                () -> expiry(connection, dialect, table.withSuffix(EXPIRY_SUFFIX)));
        for (int done = 1; done < TABLES; done++) {
            steps.advance(done);
            int tables = done;
            steps.stopIfAsked(() -> "stopped after " + tables + " of " + TABLES + " tables (" + (actions.isEmpty()
                    ? "nothing needed doing" : String.join("; ", actions)) + "); each change is whole:"
                    + " run the migration again to finish");
            companions.get(done - 1).migrate().ifPresent(actions::add);
        }
        for (TableName hot : List.of(table, table.withSuffix(LEDGER_SUFFIX), table.withSuffix(BUCKETS_SUFFIX))) {
            hotTableParameters(connection, dialect, hot).ifPresent(warnings::add);
        }
        steps.advance(TABLES);
        return new MigrationReport(table.toString(), existing.isEmpty(), actions, warnings);
    }

    /**
     * Checks that an existing table of rows updated over and over has the storage parameters
     * {@link Dialect#hotTableParameters()} gives the tables {@code migrate()} creates; says how to
     * set those it lacks. A parameter the table has set, to any value, is as its owner chose. The
     * table is not altered: it may be the application's own, made by its own DDL.
     */
    private static Optional<String> hotTableParameters(Connection connection, Dialect dialect, TableName table)
            throws SQLException {
        List<String> set = dialect.tableParameters(connection, table).stream().map(SchemaMigrator::name).toList();
        List<String> missing = dialect.hotTableParameters().stream()
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

    /** Creates the flush ledger if it is missing. */
    private static Optional<String> ledger(Connection connection, Dialect dialect, TableName ledger)
            throws SQLException {
        return createIfMissing(connection, dialect, ledger, dialect.createLedgerSql(ledger),
                "the flush ledger that makes group commits exactly-once");
    }

    /** Creates the type registry if it is missing, or adds the limits' columns to an earlier release's. */
    private static Optional<String> registry(Connection connection, Dialect dialect,
            TableName registry) throws SQLException {
        Optional<TableShape> existing = TableShape.read(connection, dialect, registry);
        if (existing.isEmpty()) {
            run(connection, dialect.createRegistrySql(registry));
            return Optional.of("created table " + registry
                    + " (the type registry: owner column bindings, slot counts and limits every process follows)");
        }
        List<String> added = new ArrayList<>();
        if (!existing.get().columns().containsKey("lower_bound")) {
            for (String alter : dialect.registryStatements(registry).addLimitColumns()) {
                run(connection, alter);
            }
            added.add("lower_bound and upper_bound (the types' limits)");
        }
        if (!existing.get().columns().containsKey("limit_window")) {
            run(connection, dialect.registryStatements(registry).addWindowColumn());
            added.add("limit_window (the window of limits per window)");
        }
        if (!existing.get().columns().containsKey("expiring")) {
            run(connection, dialect.registryStatements(registry).addExpiringColumn());
            added.add("expiring (the types whose counters may expire)");
        }
        return added.isEmpty() ? Optional.empty()
                : Optional.of("added to " + registry + " the columns " + String.join(", and ", added));
    }

    /** Creates the name dictionary if it is missing. */
    private static Optional<String> names(Connection connection, Dialect dialect, TableName names)
            throws SQLException {
        return createIfMissing(connection, dialect, names, dialect.createNamesSql(names),
                "the name dictionary: the record_type of each type name and the record_id of each string id");
    }

    /** Creates the expiry table if it is missing. */
    private static Optional<String> expiry(Connection connection, Dialect dialect, TableName expiry)
            throws SQLException {
        return createIfMissing(connection, dialect, expiry, dialect.createExpirySql(expiry),
                "when counters of the expiring types expire");
    }

    private static Optional<String> createIfMissing(Connection connection, Dialect dialect,
            TableName table, String ddl, String purpose) throws SQLException {
        return createIfMissing(connection, dialect, table, List.of(ddl), purpose);
    }

    /** Creates a table, and what goes with it, by statements run in order, if it is missing. */
    private static Optional<String> createIfMissing(Connection connection, Dialect dialect,
            TableName table, List<String> ddl, String purpose) throws SQLException {
        if (TableShape.read(connection, dialect, table).isPresent()) {
            return Optional.empty();
        }
        for (String statement : ddl) {
            run(connection, statement);
        }
        return Optional.of("created table " + table + " (" + purpose + ")");
    }

    /** Creates the time bucket table if it is missing. */
    private static Optional<String> buckets(Connection connection, Dialect dialect, TableName buckets)
            throws SQLException {
        return createIfMissing(connection, dialect, buckets, dialect.createBucketsSql(buckets),
                "counts per time bucket, for the types configured with buckets");
    }

    /** Creates the idempotency key table, or upgrades an earlier release's. */
    private static Optional<String> keys(Connection connection, Dialect dialect, TableName keys)
            throws SQLException {
        Optional<TableShape> existing = TableShape.read(connection, dialect, keys);
        if (existing.isPresent()) {
            return upgradeKeyColumn(connection, dialect, keys, existing.get());
        }
        for (String ddl : dialect.createIdempotencySql(keys)) {
            run(connection, ddl);
        }
        return Optional.of("created table " + keys + " (callers' idempotency keys)");
    }

    private static Optional<String> upgradeKeyColumn(Connection connection, Dialect dialect,
            TableName keys, TableShape shape) throws SQLException {
        TableShape.Column column = shape.columns().get("idempotency_key");
        Optional<String> alter = column == null ? Optional.empty()
                : dialect.exactKeyColumnSql(keys, column.jdbcType());
        if (alter.isEmpty()) {
            return Optional.empty();
        }
        run(connection, alter.get());
        return Optional.of("converted column idempotency_key of table " + keys + " from "
                + column.typeName() + " to a type that compares keys exactly (keys differing only"
                + " in trailing spaces were one key)");
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
