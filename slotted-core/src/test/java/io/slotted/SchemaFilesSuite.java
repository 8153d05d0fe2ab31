package io.slotted;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.slotted.db.SchemaCatalog;
import io.slotted.db.TestDatabase;
import io.slotted.internal.dialect.Dialects;
import io.slotted.internal.dialect.schema.SchemaScript;
import io.slotted.internal.registry.TypeRegistry;
import io.slotted.internal.schema.SchemaMigrator;
import io.slotted.internal.sql.TableName;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The schema files in the jar are what {@code migrate()} runs: a schema made by running a file as
 * a migration tool does equals, in the database's catalogs, one that {@code migrate()} made; the
 * version is recorded once; and a schema newer than this release is refused before anything is
 * changed. Each test works in schemas of its own (databases, in MariaDB's words), dropped after.
 */
@ParameterizedClass(name = "[{arguments}]")
@MethodSource("io.slotted.db.TestDatabases#all")
class SchemaFilesSuite {
    private static final AtomicInteger SCHEMAS = new AtomicInteger();

    private final TestDatabase db;
    private final List<String> schemas = new ArrayList<>();
    private final List<String> users = new ArrayList<>();

    SchemaFilesSuite(TestDatabase db) {
        this.db = db;
    }

    @AfterEach
    void dropSchemas() {
        schemas.forEach(db::dropSchema);
        users.forEach(db::dropUser);
    }

    private String newSchema() {
        String schema = "sf_" + ProcessHandle.current().pid() + "_" + SCHEMAS.incrementAndGet();
        db.createSchema(schema);
        schemas.add(schema);
        return schema;
    }

    @Test
    void aUserThatMayOnlyWriteRows_isToldHowTheSchemaIsMade_andOnceItIsCountsExactly() throws Exception {
        String schema = newSchema();
        String user = "lp_" + schema;
        users.add(user);
        String url = db.createLeastPrivilegeUser(user, schema);
        SlottedCounters counters = SlottedCounters.builder(new DriverManagerDataSource(url)).build();

        assertThatThrownBy(counters::migrate).isInstanceOf(SchemaException.class)
                .hasMessageContaining("the database user may not make Slotted's tables")
                .hasMessageContaining("run " + script().resource() + " from the Slotted jar")
                .hasMessageContaining("the privileges SELECT, INSERT, UPDATE and DELETE");
        runAsAToolDoes(script().text(TableName.parse(schema + ".slotted_counters")));
        assertThat(counters.migrate().actions()).as("migrate once the tables are there").isEmpty();
        assertThat(counters.verifySchema().warnings()).noneMatch(w -> w.contains(schema));
        ExecutorService threads = Executors.newFixedThreadPool(8);
        List<Future<?>> done = new ArrayList<>();
        for (int thread = 0; thread < 8; thread++) {
            done.add(threads.submit(() -> {
                for (int i = 0; i < 200; i++) {
                    counters.add(1, i % 4, 3);
                }
                return null;
            }));
        }
        for (Future<?> thread : done) {
            thread.get();
        }
        threads.shutdown();
        assertThat(counters.add(2, 1L, 5, "once")).isTrue();
        assertThat(counters.add(2, 1L, 5, "once")).as("the same key again").isFalse();
        long total = 0;
        for (long id = 0; id < 4; id++) {
            total += counters.get(1, id);
        }
        assertThat(total).isEqualTo(8 * 200 * 3);
        assertThat(counters.get(2, 1L)).isEqualTo(5);
        counters.close();
    }

    @Test
    void theFileRunAsAMigrationToolRunsIt_makesTheSchemaMigrateMakes() throws SQLException {
        String byFile = newSchema();
        String byMigrate = newSchema();
        String script = script().text(TableName.parse(byFile + ".slotted_counters"));

        runAsAToolDoes(script);
        MigrationReport report = SlottedCounters.builder(db.dataSource()).table(byMigrate + ".slotted_counters")
                .build().migrate();

        assertThat(report.created()).isTrue();
        assertThat(report.warnings()).as("warnings of a fresh schema").noneMatch(w -> w.contains(byMigrate));
        for (String suffix : SchemaMigrator.SUFFIXES) {
            assertThat(describe(byFile, "slotted_counters" + suffix)).as("slotted_counters" + suffix)
                    .isNotEmpty()
                    .isEqualTo(describe(byMigrate, "slotted_counters" + suffix));
        }
        assertThat(versions(byFile + ".slotted_counters")).containsExactly(SchemaScript.VERSION);
        assertThat(versions(byMigrate + ".slotted_counters")).containsExactly(SchemaScript.VERSION);
    }

    /**
     * An earlier release made every table but the schema table, and the application's user may not
     * create tables: this release warns that the version is not recorded and counts on.
     */
    @Test
    void anEarlierReleasesSchema_withAUserThatMayOnlyWriteRows_isWarnedAboutTheVersion_andCounts() throws SQLException {
        String schema = newSchema();
        String user = "lp_" + schema;
        users.add(user);
        runAsAToolDoes(script().text(TableName.parse(schema + ".slotted_counters")));
        db.execute("DROP TABLE " + schema + ".slotted_counters_schema");
        SlottedCounters counters = SlottedCounters.builder(
                new DriverManagerDataSource(db.createLeastPrivilegeUser(user, schema))).build();

        MigrationReport report = counters.migrate();
        counters.add(1, 1L, 4);

        assertThat(report.actions()).isEmpty();
        assertThat(report.warnings()).anySatisfy(warning -> assertThat(warning)
                .contains("schema version " + SchemaScript.VERSION + " is not recorded in table slotted_counters_schema")
                .contains("run " + script().resource()));
        assertThat(counters.get(1, 1L)).isEqualTo(4);
        assertThatThrownBy(counters::verifySchema).isInstanceOf(SchemaException.class)
                .hasMessageContaining("lacks table slotted_counters_schema");
        counters.close();
    }

    /**
     * A schema made before versions were recorded, upgraded by hand as the files say (the upgrade
     * file, then the create file), is the schema this release verifies; and migrate() upgrades
     * such a schema the same way, by the statements of the same file.
     */
    @Test
    void anUnversionedSchema_upgradedByTheFilesByHandOrByMigrate_isVerified() throws SQLException {
        String fresh = newSchema();
        runAsAToolDoes(script().text(TableName.parse(fresh + ".slotted_counters")));
        for (boolean byHand : List.of(true, false)) {
            String schema = newSchema();
            String table = schema + ".slotted_counters";
            runAsAToolDoes(script().text(TableName.parse(table)));
            for (String column : List.of("lower_bound", "upper_bound", "limit_window", "expiring")) {
                db.execute("ALTER TABLE " + table + "_types DROP COLUMN " + column);
            }
            db.execute("DROP TABLE " + table + "_schema");
            SlottedCounters counters = SlottedCounters.builder(db.dataSource()).table(table).build();
            assertThatThrownBy(counters::verifySchema).isInstanceOf(SchemaException.class)
                    .hasMessageContaining("lacks columns lower_bound, upper_bound, limit_window, expiring of table");

            if (byHand) {
                runAsAToolDoes(SlottedSchema.upgradeScript(database(), table, 0));
                runAsAToolDoes(SlottedSchema.createScript(database(), table));
            } else {
                assertThat(counters.migrate().actions()).contains("added to " + table + "_types the columns"
                        + " lower_bound and upper_bound (the types' limits), and limit_window (the window of limits"
                        + " per window), and expiring (the types whose counters may expire)");
            }

            assertThat(counters.verifySchema().created()).as(byHand ? "by hand" : "by migrate").isFalse();
            assertThat(describe(schema, "slotted_counters_types")).isEqualTo(describe(fresh, "slotted_counters_types"));
            counters.close();
        }
    }

    @Test
    void verifySchema_passesOnTheFilesSchema_andNamesEverythingMissingAndTheFile_changingNothing() throws SQLException {
        String schema = newSchema();
        String table = schema + ".slotted_counters";
        runAsAToolDoes(script().text(TableName.parse(table)));
        SlottedCounters counters = SlottedCounters.builder(db.dataSource()).table(table).build();

        MigrationReport complete = counters.verifySchema();
        db.execute("DROP TABLE " + table + "_expiry");
        db.execute("ALTER TABLE " + table + "_types DROP COLUMN expiring");
        db.execute("ALTER TABLE " + table + "_types DROP COLUMN limit_window");

        assertThat(complete.created()).isFalse();
        assertThat(complete.actions()).isEmpty();
        assertThat(complete.warnings()).noneMatch(w -> w.contains(schema));
        assertThatThrownBy(counters::verifySchema).isInstanceOf(SchemaException.class)
                .hasMessageContaining("lacks columns limit_window, expiring of table " + table + "_types; table "
                        + table + "_expiry.")
                .hasMessageContaining(script().resource() + " in the Slotted jar")
                .hasMessageContaining("slotted schema --db-kind ")
                .hasMessageContaining("--table " + table);
        assertThat(describe(schema, "slotted_counters_expiry")).as("nothing made").isEmpty();
        runAsAToolDoes(script().text(TableName.parse(table)));
        db.execute("ALTER TABLE " + table + "_types ADD limit_window VARCHAR(64)");
        db.execute("ALTER TABLE " + table + "_types ADD expiring SMALLINT");
        db.execute("DELETE FROM " + table + "_schema");
        assertThatThrownBy(counters::verifySchema).isInstanceOf(SchemaException.class)
                .hasMessageContaining("lacks schema version " + SchemaScript.VERSION + " recorded in table " + table
                        + "_schema");
        db.execute("INSERT INTO " + table + "_schema (version, description) VALUES (" + (SchemaScript.VERSION + 1)
                + ", 'a later release')");
        assertThatThrownBy(counters::verifySchema).isInstanceOf(SchemaException.class)
                .hasMessageContaining("newer than this release of Slotted knows");
        counters.close();
    }

    @Test
    void theFileAsShipped_isTheScriptForTheDefaultTable_andAnotherTableRenamesEveryName() throws IOException {
        String shipped;
        try (InputStream in = getClass().getClassLoader().getResourceAsStream(
                script().resource())) {
            shipped = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }

        assertThat(script().text(TableName.parse("slotted_counters"))).isEqualTo(shipped);
        String renamed = script().text(TableName.parse("app.hits"));
        assertThat(renamed.lines().filter(line -> !line.startsWith("--")))
                .noneMatch(line -> line.contains("slotted_counters"));
        assertThat(renamed).contains("app.hits_buckets (").doesNotContain("app.hits_buckets_counter");
    }

    @Test
    void migrate_recordsTheVersionOnce_andAnEarlierUnversionedSchemaIsGivenIt() throws SQLException {
        String table = newSchema() + ".slotted_counters";
        SlottedCounters counters = SlottedCounters.builder(db.dataSource()).table(table).build();

        assertThat(counters.migrate().actions()).contains("recorded schema version " + SchemaScript.VERSION
                + " in table " + table + "_schema");
        assertThat(counters.migrate().actions()).as("a second migrate").isEmpty();
        db.execute("DROP TABLE " + table + "_schema");
        counters.add(1, 7L, 5);

        assertThat(counters.migrate().actions()).as("a schema made before versions were recorded")
                .containsExactly("recorded schema version " + SchemaScript.VERSION + " in table " + table + "_schema");
        assertThat(versions(table)).containsExactly(SchemaScript.VERSION);
        assertThat(counters.get(1, 7L)).isEqualTo(5);
        counters.close();
    }

    @Test
    void aSchemaNewerThanThisRelease_isRefusedBeforeAnythingIsChanged() throws SQLException {
        String table = newSchema() + ".slotted_counters";
        SlottedCounters counters = SlottedCounters.builder(db.dataSource()).table(table).build();
        counters.migrate();
        db.execute("INSERT INTO " + table + "_schema (version, description) VALUES (" + (SchemaScript.VERSION + 1)
                + ", 'a later release')");
        db.execute("DROP TABLE " + table + "_expiry");

        assertThatThrownBy(counters::migrate).isInstanceOf(SchemaException.class)
                .hasMessageContaining("is version " + (SchemaScript.VERSION + 1))
                .hasMessageContaining("newer than this release of Slotted knows (version " + SchemaScript.VERSION + ")");
        assertThat(describe(table.substring(0, table.indexOf('.')), "slotted_counters_expiry"))
                .as("the missing table, not made").isEmpty();
        counters.close();
    }

    @Test
    void aProcessStillRunningWhenANewerReleaseUpgradesTheSchema_refusesEveryWrite_andReadsGoOn() throws Exception {
        String table = newSchema() + ".slotted_counters";
        SlottedCounters grouped = SlottedCounters.builder(db.dataSource()).table(table).build();
        SlottedCounters direct = SlottedCounters.builder(db.dataSource()).table(table).writeMode(WriteMode.DIRECT)
                .build();
        try {
            grouped.migrate();
            grouped.add(1, 7L, 5);
            direct.add(1, 7L, 5);

            db.execute("INSERT INTO " + table + "_schema (version, description) VALUES ("
                    + (SchemaScript.VERSION + 1) + ", 'a later release')");
            long applied = 10;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            boolean refused = false;
            while (!refused && System.nanoTime() < deadline) {
                try {
                    grouped.add(1, 7L, 1);
                    applied++;
                } catch (SchemaException e) {
                    refused = true;
                }
            }
            assertThat(refused).as("refused within the second the registry's view is kept").isTrue();
            Thread.sleep(TypeRegistry.REFRESH.toMillis() + 100);

            String newer = "is now version " + (SchemaScript.VERSION + 1);
            assertThatThrownBy(() -> grouped.add(1, 7L, 1)).isInstanceOf(SchemaException.class)
                    .hasMessageContaining(newer).hasMessageContaining("Nothing was applied");
            assertThatThrownBy(() -> grouped.addAndGet(1, 7L, 1)).isInstanceOf(SchemaException.class);
            assertThatThrownBy(() -> direct.add(1, 7L, 1)).isInstanceOf(SchemaException.class)
                    .hasMessageContaining(newer);
            assertThatThrownBy(() -> direct.addAndGet(1, 7L, 1)).isInstanceOf(SchemaException.class);
            assertThatThrownBy(() -> grouped.addAll(List.of(new Increment(1, 7L, 1), new Increment(1, 8L, 1))))
                    .isInstanceOf(SchemaException.class);
            assertThatThrownBy(() -> grouped.add(1, 7L, 1, "key-1")).isInstanceOf(SchemaException.class);
            assertThatThrownBy(() -> grouped.admin().set(1, 7L, 0)).isInstanceOf(SchemaException.class);
            try (Connection own = db.dataSource().getConnection()) {
                own.setAutoCommit(false);
                assertThatThrownBy(() -> direct.add(own, 1, 7L, 1)).as("inside the caller's transaction")
                        .isInstanceOf(SchemaException.class);
                own.rollback();
            }

            assertThat(grouped.get(1, 7L)).as("reads go on, and nothing refused was applied").isEqualTo(applied);
            assertThat(direct.getAll(1, List.of(7L, 8L))).containsEntry(7L, applied);
        } finally {
            grouped.close();
            direct.close();
        }
    }

    private String database() {
        return script().resource().split("/")[3];
    }

    private SchemaScript script() {
        try (Connection connection = db.dataSource().getConnection()) {
            return Dialects.detect(connection).schemaScript();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private void runAsAToolDoes(String script) throws SQLException {
        try (Connection connection = db.dataSource().getConnection()) {
            SchemaCatalog.runAsAToolDoes(connection, script);
        }
    }

    private List<Integer> versions(String table) throws SQLException {
        List<Integer> versions = new ArrayList<>();
        try (Connection connection = db.dataSource().getConnection(); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT version FROM " + table + "_schema ORDER BY version")) {
            while (rows.next()) {
                versions.add(rows.getInt(1));
            }
        }
        return versions;
    }

    private Map<String, String> describe(String schema, String table) throws SQLException {
        return SchemaCatalog.describe(db, schema, table);
    }
}
