package io.slotted.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.slotted.SchemaException;
import io.slotted.SlottedCounters;
import io.slotted.SlottedSchema;
import io.slotted.db.InnoDbTestDatabase;
import io.slotted.db.PostgresTestDatabase;
import io.slotted.db.SchemaCatalog;
import io.slotted.db.TestDatabase;
import io.slotted.internal.schema.SchemaMigrator;
import io.slotted.spring.boot.app.DownloadsApplication;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The schema as teams ship it: a Spring Boot application whose Flyway runs Slotted's file copied
 * into its migrations, or whose Liquibase changelog includes the one in the Slotted jar, as an
 * administrator, then counts exactly as a user that may only read and write rows, with
 * {@code slotted.schema=verify}; the schema each tool made equals, in the catalogs, the one
 * {@code migrate()} makes. Each test works in a schema (a database, in MariaDB's words) of its own.
 */
@ParameterizedClass(name = "[{arguments}]")
@MethodSource("io.slotted.db.TestDatabases#all")
class SchemaToolsSuite {
    private static final String TABLE = SlottedSchema.DEFAULT_TABLE;

    private final TestDatabase db;
    private final String id = Long.toHexString(new Random().nextLong() & 0xffffffL);
    private final String schema = "tools_" + id;
    private final String migrated = "tools_migrate_" + id;
    private final String user = "app_" + id;
    private final HttpClient http = HttpClient.newHttpClient();

    SchemaToolsSuite(TestDatabase db) {
        this.db = db;
    }

    @BeforeEach
    void createSchemas() {
        db.createSchema(schema);
        db.createSchema(migrated);
    }

    @AfterEach
    void dropSchemas() {
        db.dropSchema(schema);
        db.dropSchema(migrated);
        db.dropUser(user);
    }

    @Test
    void flyway_runsTheFileCopiedIntoTheMigrations_thenAnApplicationThatMayOnlyWriteRowsCounts(@TempDir Path migrations)
            throws Exception {
        // The copy step: `slotted schema --db-kind KIND > V2__slotted_counters.sql` in the application's migrations.
        Files.writeString(migrations.resolve("V1__downloads.sql"), downloadsTableDdl() + ";\n");
        Files.writeString(migrations.resolve("V2__slotted_counters.sql"), SlottedSchema.createScript(kind(), TABLE));
        String applicationUrl = db.createLeastPrivilegeUser(user, schema);

        try (ConfigurableApplicationContext app = start(applicationUrl,
                "spring.flyway.url=" + db.jdbcUrlInSchema(schema),
                "spring.flyway.locations=filesystem:" + migrations.toAbsolutePath(),
                "spring.liquibase.enabled=false")) {
            countsExactly(app);
        }

        assertSameSchemaAsMigrateMakes();
    }

    /**
     * The counters are made after Flyway because the starter says so, not because some other bean
     * of the application happens to wait for the migrations: here nothing else does, and the
     * starter's configuration sorts before Flyway's.
     */
    @Test
    void theCountersAreMadeAfterFlyway_evenWhereNothingElseWaitsForIt(@TempDir Path migrations) throws Exception {
        Files.writeString(migrations.resolve("V1__slotted_counters.sql"), SlottedSchema.createScript(kind(), TABLE));

        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                        FlywayAutoConfiguration.class, SlottedAutoConfiguration.class))
                .withPropertyValues("spring.datasource.url=" + db.jdbcUrlInSchema(schema),
                        "spring.flyway.locations=filesystem:" + migrations.toAbsolutePath(), "slotted.schema=verify")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    SlottedCounters counters = context.getBean(SlottedCounters.class);
                    counters.add(1, 1L, 2);
                    assertThat(counters.get(1, 1L)).isEqualTo(2);
                });
    }

    @Test
    void liquibase_includesTheChangelogInTheJar_thenAnApplicationThatMayOnlyWriteRowsCounts() throws Exception {
        String applicationUrl = db.createLeastPrivilegeUser(user, schema);

        try (ConfigurableApplicationContext app = start(applicationUrl,
                "spring.liquibase.url=" + db.jdbcUrlInSchema(schema),
                "spring.liquibase.change-log=classpath:db/changelog/schema-tools-test.xml",
                "spring.liquibase.parameters.downloadsId=" + (db instanceof InnoDbTestDatabase
                        ? "BIGINT AUTO_INCREMENT" : "BIGINT GENERATED BY DEFAULT AS IDENTITY"),
                "spring.flyway.enabled=false")) {
            countsExactly(app);
        }

        assertSameSchemaAsMigrateMakes();
    }

    @Test
    void verify_withTheSchemaNotMade_refusesToStart_namingWhatIsMissingAndTheFile() {
        db.execute("CREATE TABLE " + schema + "." + TABLE + "_downloads (id BIGINT PRIMARY KEY, repository_id BIGINT)");

        assertThatThrownBy(() -> start(db.jdbcUrlInSchema(schema), "spring.flyway.enabled=false",
                "spring.liquibase.enabled=false").close())
                .rootCause().isInstanceOf(SchemaException.class)
                .hasMessageContaining("lacks table " + TABLE)
                .hasMessageContaining(SlottedSchema.resource(kind()) + " in the Slotted jar");
    }

    private ConfigurableApplicationContext start(String applicationUrl, String... properties) {
        return new SpringApplicationBuilder(DownloadsApplication.class)
                .properties("spring.datasource.url=" + applicationUrl,
                        "server.port=0",
                        "server.address=127.0.0.1",
                        "spring.main.banner-mode=off",
                        "slotted.schema=verify")
                .properties(properties)
                .run();
    }

    /** 8 clients × 50 downloads over HTTP, each a row and an increment in one transaction. */
    private void countsExactly(ConfigurableApplicationContext app) throws Exception {
        int port = ((WebServerApplicationContext) app).getWebServer().getPort();
        ExecutorService clients = Executors.newFixedThreadPool(8);
        List<Future<?>> done = new ArrayList<>();
        for (int client = 0; client < 8; client++) {
            long repository = client % 2;
            done.add(clients.submit(() -> {
                for (int i = 0; i < 50; i++) {
                    HttpResponse<String> response = http.send(HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + port + "/repositories/" + repository + "/downloads"))
                            .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
                    assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
                }
                return null;
            }));
        }
        for (Future<?> client : done) {
            client.get();
        }
        clients.shutdown();
        SlottedCounters counters = app.getBean(SlottedCounters.class);
        assertThat(counters.get(DownloadsApplication.DOWNLOADS, 0L)).isEqualTo(200);
        assertThat(counters.get(DownloadsApplication.DOWNLOADS, 1L)).isEqualTo(200);
        assertThat(rows(schema + "." + TABLE + "_downloads")).isEqualTo(400);
    }

    private void assertSameSchemaAsMigrateMakes() throws SQLException {
        try (SlottedCounters counters = SlottedCounters.builder(db.dataSource()).table(migrated + "." + TABLE).build()) {
            counters.migrate();
        }
        for (String suffix : SchemaMigrator.SUFFIXES) {
            assertThat(SchemaCatalog.describe(db, schema, TABLE + suffix)).as(TABLE + suffix)
                    .isNotEmpty()
                    .isEqualTo(SchemaCatalog.describe(db, migrated, TABLE + suffix));
        }
    }

    private long rows(String table) throws SQLException {
        try (Connection connection = db.dataSource().getConnection(); Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SELECT COUNT(*) FROM " + table)) {
            row.next();
            return row.getLong(1);
        }
    }

    private String kind() {
        return db instanceof PostgresTestDatabase ? "postgresql"
                : db instanceof InnoDbTestDatabase ? (db.name().startsWith("MySQL") ? "mysql" : "mariadb") : "h2";
    }

    private String downloadsTableDdl() {
        String id = db instanceof InnoDbTestDatabase ? "BIGINT AUTO_INCREMENT" : "BIGINT GENERATED BY DEFAULT AS IDENTITY";
        return "CREATE TABLE " + TABLE + "_downloads (id " + id + " PRIMARY KEY, repository_id BIGINT NOT NULL)";
    }
}
