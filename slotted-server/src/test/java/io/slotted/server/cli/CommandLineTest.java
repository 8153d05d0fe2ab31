package io.slotted.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.slotted.db.MariaDbTestDatabase;
import io.slotted.db.PostgresTestDatabase;
import io.slotted.db.SchemaCatalog;
import io.slotted.db.TestDatabase;
import io.slotted.server.auth.AccessDecision;
import io.slotted.server.auth.AccessTokens;
import io.slotted.server.auth.Scope;
import io.slotted.server.config.DatabaseSettings;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@code slotted} command line run in-process: exit statuses, one-line reasons, the happy paths
 * of {@code migrate}, {@code incr}, {@code get}, {@code set}, {@code adopt}, {@code rollup},
 * {@code release}, {@code recount} and {@code shrink} on an H2 file database, the owner-column
 * commands on MariaDB with {@code rollup} running as a process of its own until SIGTERM,
 * {@code token create} and {@code token hash} with a service that accepts the tokens they write,
 * and {@code bench}, which only says where the benchmark's own jar is.
 */
class CommandLineTest {
    private String h2Url;

    /** What one command printed and returned. */
    record Run(int status, String out, String err) {
    }

    @BeforeEach
    void freshDatabase(TestInfo test) throws Exception {
        Path dir = Path.of("target", "cli-h2", test.getTestMethod().orElseThrow().getName());
        Files.createDirectories(dir);
        try (var files = Files.list(dir)) {
            files.forEach(file -> file.toFile().delete());
        }
        h2Url = "jdbc:h2:file:" + dir.toAbsolutePath().resolve("slotted");
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = SlottedCommand.commandLine(new PrintWriter(out, true), new PrintWriter(err, true))
                .execute(args);
        return new Run(status, out.toString(), err.toString());
    }

    @Test
    void migrate_thenIncr_thenGet_onH2() {
        Run migrate = run("migrate", "--db", h2Url);
        Run again = run("migrate", "--db", h2Url);
        Run incr = run("incr", "downloads", "5", "--by", "3", "--types", "downloads=1", "--db", h2Url);
        Run decr = run("incr", "1", "5", "--by", "-1", "--db", h2Url);
        Run get = run("get", "downloads", "5", "6", "--types", "downloads=1,views=2", "--db", h2Url);

        assertThat(migrate.status()).as(migrate.err()).isZero();
        assertThat(migrate.out()).contains("slotted_counters");
        assertThat(again.out()).contains("exists");
        assertThat(incr.status()).as(incr.err()).isZero();
        assertThat(incr.out()).isEqualTo("downloads 5: 3 (+3)" + System.lineSeparator());
        assertThat(decr.out()).isEqualTo("1 5: 2 (-1)" + System.lineSeparator());
        assertThat(get.status()).as(get.err()).isZero();
        assertThat(get.out().lines()).containsExactly("downloads 5: 2", "downloads 6: 0");
    }

    @Test
    void schema_printsTheFileMigrateRuns_whichRunByHandMakesASchemaThatCounts_andMigrateFindsComplete()
            throws SQLException {
        Run forPostgres = run("schema", "--db-kind", "postgresql", "--table", "app.hits");
        Run forTheDb = run("schema", "--db", h2Url);

        assertThat(forPostgres.status()).as(forPostgres.err()).isZero();
        assertThat(forPostgres.out()).isEqualTo(io.slotted.SlottedSchema.createScript("postgresql", "app.hits")
                + System.lineSeparator());
        assertThat(forTheDb.out()).contains("CREATE TABLE IF NOT EXISTS slotted_counters_buckets (")
                .contains("MERGE INTO slotted_counters_schema");
        try (Connection connection = DriverManager.getConnection(h2Url)) {
            SchemaCatalog.runAsAToolDoes(connection, forTheDb.out());
        }
        Run migrate = run("migrate", "--db", h2Url);
        Run incr = run("incr", "1", "5", "--by", "3", "--db", h2Url);

        assertThat(migrate.out()).as("migrate after the file").contains("exists")
                .doesNotContain("created").doesNotContain("recorded");
        assertThat(incr.out()).isEqualTo("1 5: 3 (+3)" + System.lineSeparator());
    }

    @Test
    void schema_withAnUnknownKindOrVersion_exits2_sayingWhatToGive_andNeverEchoesTheUrlsPassword() {
        Run kind = run("schema", "--db-kind", "oracle");
        Run url = run("schema", "--db", "jdbc:sqlserver://db:1433;password=s3cret");
        Run newer = run("schema", "--from", "2");
        Run unversioned = run("schema", "--from", "0");
        Run negative = run("schema", "--from", "-1");
        Run current = run("schema", "--from", "1");
        Run table = run("schema", "--table", "no-dashes");

        assertThat(kind.status()).isEqualTo(ExitStatus.USAGE);
        assertThat(kind.err()).contains("--db-kind must be one of mariadb, mysql, postgresql, h2, not 'oracle'");
        assertThat(url.status()).isEqualTo(ExitStatus.USAGE);
        assertThat(url.err()).contains("give --db-kind").contains("'jdbc:sqlserver:'").doesNotContain("s3cret");
        assertThat(newer.status()).isEqualTo(ExitStatus.USAGE);
        assertThat(newer.err()).contains("knows schema versions up to 1");
        assertThat(unversioned.status()).as(unversioned.err()).isZero();
        assertThat(unversioned.out()).contains("ALTER TABLE slotted_counters_types ADD IF NOT EXISTS lower_bound BIGINT;");
        assertThat(negative.status()).isEqualTo(ExitStatus.USAGE);
        assertThat(negative.err()).contains("0 where there is no such table");
        assertThat(current.status()).isZero();
        assertThat(current.out()).contains("nothing to run");
        assertThat(table.status()).isEqualTo(ExitStatus.USAGE);
        assertThat(table.err()).contains("--table: table must be an identifier");
    }

    @Test
    void incrAndGet_ofStringKeys_recordTheNamesOnce_andServeRefusesTypesTheDictionaryMapsElsewhere() {
        Run first = run("incr", "likes", "post:8f3a", "--by", "2", "--db", h2Url);
        Run second = run("incr", "likes", "post:8f3a", "--db", h2Url);
        Run get = run("get", "likes", "post:8f3a", "nobody", "7", "--db", h2Url);
        Run unknownType = run("get", "nosuch", "1", "--db", h2Url);
        Run pinnedElsewhere = run("serve", "--port", "0", "--types", "likes=5", "--db", h2Url);

        assertThat(first.out()).as(first.err()).isEqualTo("likes post:8f3a: 2 (+2)" + System.lineSeparator());
        assertThat(second.out()).isEqualTo("likes post:8f3a: 3 (+1)" + System.lineSeparator());
        assertThat(get.out().lines()).as(get.err()).containsExactly("likes post:8f3a: 3", "likes nobody: 0", "likes 7: 0");
        assertThat(unknownType.out()).isEqualTo("nosuch 1: 0" + System.lineSeparator());
        assertThat(pinnedElsewhere.status()).isEqualTo(2);
        assertThat(pinnedElsewhere.err().lines()).hasSize(1);
        assertThat(pinnedElsewhere.err()).contains("types likes=5").contains("maps it to");
    }

    @Test
    void adopt_thenIncr_rollupOnce_set_andRelease_onH2() {
        h2("CREATE TABLE repos (id BIGINT PRIMARY KEY, downloads_count BIGINT DEFAULT 0 NOT NULL)",
                "INSERT INTO repos (id, downloads_count) VALUES (5, 0), (6, 100)");
        run("incr", "downloads", "5", "--by", "3", "--types", "downloads=1", "--db", h2Url);

        Run adopt = run("adopt", "downloads", "--owner", "repos.id.downloads_count", "--types",
                "downloads=1", "--db", h2Url);
        Run incr = run("incr", "1", "6", "--by", "2", "--db", h2Url);
        Run rollup = run("rollup", "--once", "--db", h2Url);
        long[] rolledUp = {h2Long("SELECT downloads_count FROM repos WHERE id = 5"),
            h2Long("SELECT downloads_count FROM repos WHERE id = 6")};
        Run set = run("set", "1", "6", "1000", "--db", h2Url);
        Run incrAfterSet = run("incr", "1", "6", "--by", "-1", "--db", h2Url);
        Run release = run("release", "1", "--db", h2Url);

        assertThat(adopt.status()).as(adopt.err()).isZero();
        assertThat(adopt.out().lines()).startsWith(
                "bound downloads to repos.id.downloads_count in fold mode", "column type: BIGINT",
                "largest value: 100", "limit: " + ((1L << 62) - 1),
                "headroom: " + ((1L << 62) - 1 - 100));
        assertThat(incr.out()).as("reads add the column to the slots").isEqualTo("1 6: 102 (+2)"
                + System.lineSeparator());
        assertThat(rollup.status()).as(rollup.err()).isZero();
        assertThat(rollup.out().lines()).containsExactly("rolled up 1 bound counter type",
                "counters written into owner columns: 2");
        assertThat(rolledUp).containsExactly(3, 102);
        assertThat(set.status()).as(set.err()).isZero();
        assertThat(set.out()).isEqualTo("1 6: 1000 (set)" + System.lineSeparator());
        assertThat(incrAfterSet.out()).isEqualTo("1 6: 999 (-1)" + System.lineSeparator());
        assertThat(release.status()).as(release.err()).isZero();
        assertThat(release.out()).startsWith("released 1: ")
                .contains("counters written into owner columns: 1");
        assertThat(h2Long("SELECT downloads_count FROM repos WHERE id = 6")).isEqualTo(999);
    }

    @Test
    void incrWithBuckets_thenSeriesAndTop_printEveryBucket_andBadWindowsExit2() {
        String[] options = {"--types", "downloads=1", "--buckets", "downloads=hour:2d", "--db", h2Url};
        Instant hour = Instant.now().truncatedTo(ChronoUnit.HOURS);
        run(concat(new String[] {"incr", "downloads", "5", "--by", "3"}, options));
        run(concat(new String[] {"incr", "downloads", "6", "--by", "5"}, options));
        Run incr = run(concat(new String[] {"incr", "downloads", "5", "--by", "4"}, options));
        String from = hour.minus(1, ChronoUnit.HOURS).toString();
        String to = hour.plus(2, ChronoUnit.HOURS).toString();
        String today = LocalDate.now(ZoneOffset.UTC).toString();
        String later = LocalDate.now(ZoneOffset.UTC).plusDays(2).toString();

        Run series = run(concat(new String[] {"series", "downloads", "5", "--from", from, "--to", to}, options));
        Run top = run(concat(new String[] {"top", "downloads", "--from", today, "--to", later, "-n", "2"},
                options));
        Run withoutBuckets = run("series", "1", "5", "--from", from, "--to", to, "--db", h2Url);
        Run garbled = run(concat(new String[] {"series", "1", "5", "--from", "yesterday", "--to", to}, options));
        Run backwards = run(concat(new String[] {"top", "1", "--from", to, "--to", from}, options));
        Run badN = run(concat(new String[] {"top", "1", "--from", from, "--to", to, "-n", "0"}, options));

        assertThat(incr.status()).as(incr.err()).isZero();
        assertThat(series.status()).as(series.err()).isZero();
        assertThat(series.out().lines()).hasSize(3).first().isEqualTo(from + " 0");
        assertThat(series.out().lines().mapToLong(line -> Long.parseLong(line.split(" ")[1])).sum())
                .isEqualTo(7);
        assertThat(top.status()).as(top.err()).isZero();
        assertThat(top.out().lines()).containsExactly("5 7", "6 5");
        assertThat(withoutBuckets.status()).isEqualTo(ExitStatus.USAGE);
        assertThat(withoutBuckets.err()).contains("keeps no time buckets here").contains("--buckets 1=hour:30d");
        assertThat(garbled.status()).isEqualTo(ExitStatus.USAGE);
        assertThat(garbled.err()).contains("--from 'yesterday' is neither an ISO-8601 instant");
        assertThat(backwards.status()).isEqualTo(ExitStatus.USAGE);
        assertThat(backwards.err()).contains("must be after from");
        assertThat(badN.status()).isEqualTo(ExitStatus.USAGE);
        assertThat(badN.err()).contains("n must be between 1 and 1000, but was 0");
    }

    private static String[] concat(String[] first, String[] second) {
        String[] all = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, all, first.length, second.length);
        return all;
    }

    @Test
    void rollupOnce_withNothingBound_saysSo() {
        run("migrate", "--db", h2Url);

        Run rollup = run("rollup", "--once", "--db", h2Url);

        assertThat(rollup.status()).as(rollup.err()).isZero();
        assertThat(rollup.out()).startsWith("no counter type is bound to an owner column");
    }

    @Test
    void set_negativeCounts_andTypesByName() {
        Run set = run("set", "views", "-4", "-17", "--types", "downloads=1,views=2", "--db", h2Url);
        Run get = run("get", "2", "-4", "--db", h2Url);

        assertThat(set.status()).as(set.err()).isZero();
        assertThat(set.out()).isEqualTo("views -4: -17 (set)" + System.lineSeparator());
        assertThat(get.out()).isEqualTo("2 -4: -17" + System.lineSeparator());
    }

    @Test
    void recount_printsTheDifferences_exits3_thenFixesThem_andExits0() {
        run("incr", "1", "5", "--by", "3", "--db", h2Url);
        run("incr", "1", "6", "--by", "10", "--db", h2Url);
        h2("CREATE TABLE events (repo_id BIGINT NOT NULL)",
                "INSERT INTO events (repo_id) VALUES (5), (5), (5), (5), (6), (7)");
        String source = "SELECT repo_id, COUNT(*) FROM events GROUP BY repo_id";

        Run found = run("recount", "1", "--source", source, "--db", h2Url);
        Run fixed = run("recount", "1", "--source", source, "--fix", "--db", h2Url);
        Run after = run("recount", "1", "--source", source, "--db", h2Url);

        assertThat(found.status()).as(found.err()).isEqualTo(ExitStatus.FINDINGS);
        assertThat(found.out().lines()).containsExactly(
                "checked 3 counters of 1: 3 differ, 0 fixed, 0 unsettled",
                "largest differences:",
                "  ID  SOURCE  COUNTER  DIFFERENCE",
                "   6       1       10          -9",
                "   5       4        3          +1",
                "   7       1        0          +1",
                "run with --fix to repair them");
        assertThat(fixed.status()).as(fixed.out() + fixed.err()).isZero();
        assertThat(fixed.out()).startsWith("checked 3 counters of 1: 3 differ, 3 fixed, 0 unsettled");
        assertThat(after.status()).isZero();
        assertThat(after.out().lines()).containsExactly("checked 3 counters of 1: 0 differ, 0 fixed,"
                + " 0 unsettled");
        assertThat(run("get", "1", "5", "6", "7", "--db", h2Url).out().lines())
                .containsExactly("1 5: 4", "1 6: 1", "1 7: 1");
    }

    @Test
    void shrink_movesATypeOntoFewerSlots_andKeepsItsCounts() {
        run("migrate", "--db", h2Url);
        h2("INSERT INTO slotted_counters (record_type, record_id, slot, count)"
                + " VALUES (2, 9, 0, 5), (2, 9, 3, 6), (2, 9, 7, 7), (2, 9, 12, 8)");

        Run shrink = run("shrink", "2", "--slots", "2", "--db", h2Url);
        Run incr = run("incr", "2", "9", "--db", h2Url);

        assertThat(shrink.status()).as(shrink.err()).isZero();
        assertThat(shrink.out()).isEqualTo("2 now has 2 slots per counter: moved 3 slot rows"
                + System.lineSeparator());
        assertThat(incr.out()).isEqualTo("2 9: 27 (+1)" + System.lineSeparator());
        assertThat(h2Long("SELECT MAX(slot) FROM slotted_counters WHERE record_type = 2")).isLessThan(2);
    }

    @Test
    void ownerCommands_badInput_exitsAsDocumented_withOneLineSayingWhy() {
        h2("CREATE TABLE repos (id BIGINT PRIMARY KEY, downloads_count BIGINT DEFAULT 0 NOT NULL)",
                "CREATE TABLE small (id BIGINT PRIMARY KEY, n INT DEFAULT 0 NOT NULL)",
                "INSERT INTO small (id, n) VALUES (1, 0)");
        run("adopt", "2", "--owner", "small.id.n", "--db", h2Url);
        Run tooLarge = run("set", "2", "1", "3000000000", "--db", h2Url);
        Run unknownOwner = run("adopt", "1", "--owner", "no_such_repos.id.downloads_count", "--db", h2Url);
        Run badColumn = run("adopt", "1", "--owner", "repos.id.no_such_column", "--db", h2Url);
        Run unbound = run("release", "1", "--db", h2Url);
        Run adopt = run("adopt", "1", "--owner", "repos.id.downloads_count", "--mode", "copy", "--db", h2Url);
        Run twice = run("adopt", "1", "--owner", "repos.id.downloads_count", "--db", h2Url);
        Run noSlots = run("shrink", "1", "--slots", "0", "--db", h2Url);
        Run badQuery = run("recount", "1", "--source", "SELECT nope FROM nowhere_at_all", "--db", h2Url);
        Run oneColumn = run("recount", "1", "--source", "SELECT 1", "--db", h2Url);

        assertThat(tooLarge.status()).as("%s", tooLarge).isEqualTo(ExitStatus.USAGE);
        assertThat(tooLarge.err()).contains("3000000000");
        assertThat(h2Long("SELECT n FROM small WHERE id = 1")).isZero();
        assertThat(unknownOwner.status()).as("%s", unknownOwner).isEqualTo(ExitStatus.USAGE);
        assertThat(unknownOwner.err()).contains("does not exist");
        assertThat(badColumn.status()).as("%s", badColumn).isEqualTo(ExitStatus.USAGE);
        assertThat(badColumn.err()).contains("no_such_column");
        assertThat(unbound.status()).as("%s", unbound).isEqualTo(ExitStatus.FAILURE);
        assertThat(unbound.err()).contains("is not bound");
        assertThat(adopt.status()).as("%s", adopt).isZero();
        assertThat(adopt.out()).startsWith("bound 1 to repos.id.downloads_count in copy mode");
        assertThat(twice.status()).as("%s", twice).isEqualTo(ExitStatus.FAILURE);
        assertThat(twice.err()).contains("already bound to repos.id.downloads_count in copy mode");
        assertThat(noSlots.status()).as("%s", noSlots).isEqualTo(ExitStatus.USAGE);
        assertThat(noSlots.err()).contains("slots must be between 1 and 1024, but was 0");
        assertThat(badQuery.status()).as("%s", badQuery).isEqualTo(ExitStatus.USAGE);
        assertThat(badQuery.err()).contains("source query failed");
        assertThat(oneColumn.status()).as("%s", oneColumn).isEqualTo(ExitStatus.USAGE);
        for (Run refused : List.of(tooLarge, unknownOwner, badColumn, unbound, twice, noSlots, badQuery,
                oneColumn)) {
            assertThat(refused.err().lines()).as(refused.err()).hasSize(1);
            assertThat(refused.err()).startsWith("slotted ");
            assertThat(refused.out()).isEmpty();
        }
    }

    @Test
    void adopt_rollup_andRelease_throughTheCommandLine_onMariaDb() throws Exception {
        TestDatabase mariaDb = MariaDbTestDatabase.instance();
        String schema = "slotted_cli_" + ProcessHandle.current().pid();
        String url = mariaDb.jdbcUrl().replaceFirst("(//[^/]+/)[^?;]*", "$1" + schema);
        String owner = schema + ".repos";
        mariaDb.execute("DROP DATABASE IF EXISTS " + schema);
        mariaDb.execute("CREATE DATABASE " + schema);
        try {
            mariaDb.execute("CREATE TABLE " + owner + " (id BIGINT PRIMARY KEY,"
                    + " downloads_count BIGINT DEFAULT 0 NOT NULL)");
            mariaDb.execute("INSERT INTO " + owner + " (id, downloads_count) VALUES (5, 0), (6, 100)");
            run("incr", "downloads", "5", "--by", "3", "--types", "downloads=1", "--db", url);

            Run adopt = run("adopt", "downloads", "--owner", "repos.id.downloads_count", "--types",
                    "downloads=1", "--db", url);
            run("incr", "1", "6", "--by", "2", "--db", url);
            Path log = Path.of("target", "cli-rollup-" + schema + ".log");
            Process rollup = slotted(log, "rollup", "--every", "100ms", "--db", url);
            try {
                await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(
                        columns(mariaDb, owner)).containsEntry(5L, 3L).containsEntry(6L, 102L));
            } finally {
                rollup.destroy();
            }
            assertThat(rollup.waitFor(60, TimeUnit.SECONDS)).isTrue();
            String rollupLog = Files.readString(log, StandardCharsets.UTF_8);
            run("incr", "1", "6", "--by", "5", "--db", url);
            Run release = run("release", "1", "--db", url);
            Run again = run("release", "1", "--db", url);

            assertThat(adopt.status()).as(adopt.err()).isZero();
            assertThat(adopt.out()).contains("bound downloads to repos.id.downloads_count in fold mode");
            assertThat(rollup.exitValue()).as(rollupLog).isZero();
            assertThat(rollupLog).contains("rolling up the counter types bound to owner columns",
                    "stopped");
            assertThat(release.status()).as(release.err()).isZero();
            assertThat(release.out()).contains("counters written into owner columns: 1");
            assertThat(columns(mariaDb, owner)).containsEntry(5L, 3L).containsEntry(6L, 107L);
            assertThat(again.status()).isEqualTo(ExitStatus.FAILURE);
            assertThat(again.err()).contains("is not bound");
        } finally {
            mariaDb.execute("DROP DATABASE IF EXISTS " + schema);
        }
    }

    /**
     * Runs a command in a process of its own, as {@code java -jar slotted.jar} would, its standard
     * error (the log) going to a file: {@link Process#destroy()} closes the pipes.
     */
    private static Process slotted(Path log, String... args) throws IOException {
        return slottedProcess(args).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(log.toFile()).start();
    }

    /** A command to be run in a process of its own, on this test's class path. */
    private static ProcessBuilder slottedProcess(String... args) {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        command.addAll(List.of(args));
        return new ProcessBuilder(command);
    }

    private static Map<Long, Long> columns(TestDatabase db, String owner) throws SQLException {
        Map<Long, Long> columns = new HashMap<>();
        try (Connection c = db.dataSource().getConnection();
                Statement select = c.createStatement();
                ResultSet rows = select.executeQuery("SELECT id, downloads_count FROM " + owner)) {
            while (rows.next()) {
                columns.put(rows.getLong(1), rows.getLong(2));
            }
        }
        return columns;
    }

    /** Runs statements on the test's H2 database, as the commands open it. */
    private void h2(String... statements) {
        try (Connection c = DriverManager.getConnection(new DatabaseSettings(h2Url, null, null).jdbcUrl());
                Statement statement = c.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private long h2Long(String query) {
        try (Connection c = DriverManager.getConnection(new DatabaseSettings(h2Url, null, null).jdbcUrl());
                Statement statement = c.createStatement();
                ResultSet row = statement.executeQuery(query)) {
            row.next();
            return row.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void help_isShownForEveryCommand() {
        for (String command : new String[] {"serve", "incr", "get", "set", "migrate", "adopt",
            "release", "rollup", "recount", "shrink"}) {
            Run help = run(command, "--help");
            assertThat(help.status()).isZero();
            assertThat(help.out()).contains("Usage: slotted " + command).contains("--db");
        }
        assertThat(run("serve", "--help").out()).contains("--port", "--bind", "--db-user",
                "--db-password-file", "--tokens", "--types", "--mode", "--slots", "SLOTTED_PORT",
                "--rollup-every", "SLOTTED_ROLLUP_EVERY");
        assertThat(run("adopt", "--help").out()).contains("--owner", "SLOTTED_OWNER", "--mode",
                "SLOTTED_OWNER_MODE", "--types");
        assertThat(run("rollup", "--help").out()).contains("--once", "--every", "SLOTTED_ROLLUP_EVERY");
        assertThat(run("recount", "--help").out()).contains("--source", "--fix", "SLOTTED_RECOUNT_SOURCE");
        assertThat(run("shrink", "--help").out()).contains("--slots", "SLOTTED_SHRINK_SLOTS");
    }

    @Test
    void help_listsBench() {
        Run help = run("--help");

        assertThat(help.status()).isZero();
        assertThat(help.out()).contains("bench", "contention benchmark");
    }

    @Test
    void bench_isAUsageError_sayingWhereTheBenchmarkIs() {
        Run bench = run("bench", "--writers", "2");

        assertThat(bench.status()).isEqualTo(ExitStatus.USAGE);
        assertThat(bench.err().lines()).as(bench.err()).hasSize(1);
        assertThat(bench.err()).contains("./slotted bench");
        assertThat(bench.out()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "", "bogus", "incr downloads", "incr 1 -9223372036854775808", "incr 1 1 --by 0", "incr 1 1 --bogus",
        "incr Bad-Type 1", "get Bad-Type 1", "serve --port notaport", "serve --port 70000",
        "serve --mode fastest", "serve --slots 0", "serve --types downloads", "serve --bind 0.0.0.0",
        "serve --tokens target/no-such-token-file", "serve --rollup-every 5ms",
        "serve --tls-cert target/no-such-cert.pem --tls-key target/no-such-key.pem",
        "serve --tls-cert target/no-such-cert.pem", "serve --tls-key target/no-such-key.pem",
        "serve --tls-client-ca target/no-such-ca.pem",
        "serve --plaintext --tls-cert target/no-such-cert.pem --tls-key target/no-such-key.pem",
        "serve --rollup-every soon", "serve --limits stock", "serve --limits 1=..", "serve --limits 1=5..3",
        "serve --limits 1=0..,1=..9", "serve --limits 1=few..many", "serve --limits nosuchtype=0..", "adopt 1", "adopt 1 --owner repos.downloads_count",
        "adopt 1 --owner repos.id.downloads_count --mode sideways", "adopt downloads --owner a.b.c",
        "release", "rollup --every 0", "rollup --every -1s", "set 1 1", "set 1 1 many",
        "set 1 1 9223372036854775808", "recount 1", "recount 1 --source", "shrink 1",
        "shrink 1 --slots many", "token", "token bogus", "token create", "token create ci",
        "token create ci --scope fly", "token create c/i --scope read",
        "token hash extra"})
    void usageError_exits2_withOneLine(String args) {
        Run run = run(args.isEmpty() ? new String[0] : args.split(" "));

        assertThat(run.status()).as("%s", run).isEqualTo(2);
        assertThat(run.err().lines()).as(run.err()).hasSize(1);
        assertThat(run.err()).startsWith("slotted");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void serve_onANonLoopbackAddressWithoutTokens_refusesToStart() {
        Run run = run("serve", "--bind", "0.0.0.0", "--port", "0", "--db", h2Url);

        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).contains("refusing to listen on 0.0.0.0 without --tokens");
    }

    @Test
    void serve_onANonLoopbackAddressWithoutTls_refusesToStart_namingTheFlags() throws Exception {
        Path tokens = Files.writeString(Files.createDirectories(Path.of("target", "tokens"))
                .resolve("cli-tls.txt"), "some-token write\n");

        Run run = run("serve", "--bind", "0.0.0.0", "--port", "0", "--tokens", tokens.toString(),
                "--db", h2Url);

        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err().lines()).hasSize(1);
        assertThat(run.err()).contains("refusing to listen on 0.0.0.0 without TLS",
                "give --tls-cert FILE --tls-key FILE, or --plaintext when TLS ends in front of the service");
    }

    @Test
    void unreachableDatabase_exits1_namingIt() {
        for (String url : new String[] {MariaDbTestDatabase.UNREACHABLE_URL,
                PostgresTestDatabase.UNREACHABLE_URL}) {
            Run run = run("get", "1", "1", "--db", url);

            assertThat(run.status()).as("%s", run).isEqualTo(1);
            assertThat(run.err().lines()).hasSize(1);
            assertThat(run.err()).contains("cannot reach the database at " + url);
        }
    }

    @Test
    void passwordInTheUrl_isNeverPrinted_evenWhereTheDriverQuotesIt() {
        for (String url : new String[] {"jdbc:mariadb://root:secret123@127.0.0.1:1/x",
                "jdbc:postgresql://root:secret123@127.0.0.1:1/x",
                "jdbc:mariadb://127.0.0.1:1/x?user=root&password=secret123&connectTimeout=2000"}) {
            Run run = run("get", "1", "1", "--db", url);

            assertThat(run.status()).as("%s", run).isEqualTo(1);
            assertThat(run.err().lines()).hasSize(1);
            assertThat(run.err()).doesNotContain("secret123");
        }
    }

    @Test
    void wrongLogin_isReportedAsARefusedLogin_notAsAnUnreachableDatabase() throws Exception {
        // PostgreSQL refuses a role that does not exist, on the machine's server and the embedded
        // one alike (the embedded MariaDB accepted root with a wrong password when tried).
        Path file = Files.writeString(Path.of("target", "cli-wrong-password.txt"), "not-the-password\n");

        Run run = run("get", "1", "1", "--db", withoutUser(PostgresTestDatabase.instance().jdbcUrl()),
                "--db-user", "no_such_slotted_user", "--db-password-file", file.toString());

        assertThat(run.status()).as("%s", run).isEqualTo(1);
        assertThat(run.err().lines()).hasSize(1);
        assertThat(run.err()).contains("refused the login").doesNotContain("not-the-password")
                .doesNotContain("cannot reach");
    }

    private static String withoutUser(String url) {
        return url.replaceAll("([?&])user=[^&]*&?", "$1").replaceAll("[?&]$", "");
    }

    @Test
    void serve_onAPortInUse_exits1_withOneLineAndNothingElse() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Process serve = slottedProcess("serve", "--port", String.valueOf(taken.getLocalPort()),
                    "--db", h2Url).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            String err = new String(serve.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);

            assertThat(serve.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(serve.exitValue()).as(err).isEqualTo(1);
            assertThat(err.lines()).as(err).hasSize(1);
            assertThat(err).startsWith("slotted serve: cannot listen on 127.0.0.1:" + taken.getLocalPort());
        }
    }

    @Test
    void doctor_exits0WithNothingToFix_3WithFindings_andPrintsJsonOnRequest() {
        assertThat(run("migrate", "--db", h2Url).status()).isZero();
        Run clean = run("doctor", "--watch", "0s", "--db", h2Url);
        h2("INSERT INTO slotted_counters_ledger (flusher_id, flush_seq, updated_ms) VALUES ('gone', 1, 0)");
        Run found = run("doctor", "--watch", "0s", "--db", h2Url);
        Run json = run("doctor", "--watch", "0s", "--json", "--db", h2Url);
        Run badWatch = run("doctor", "--watch", "11m", "--db", h2Url);

        assertThat(clean.status()).as(clean.out() + clean.err()).isZero();
        assertThat(clean.out()).contains("No hot rows").contains("Nothing to fix.");
        assertThat(found.status()).as(found.out()).isEqualTo(3);
        assertThat(found.out()).contains("FIX  slotted_counters_ledger: abandoned flusher rows: 1 untouched");
        assertThat(json.status()).isEqualTo(3);
        assertThat(json.out()).contains("\"checks\"").contains("\"missing_grants\"").doesNotContain("Nothing to fix");
        assertThat(badWatch.status()).isEqualTo(2);
        assertThat(badWatch.err().lines()).hasSize(1);
        assertThat(badWatch.err()).contains("the watch window must be between 0s and 10m");
    }

    @Test
    void incrAndGet_whileServeHasTheH2FileOpen_goThroughTheService() throws Exception {
        Process serve = serveInItsOwnProcess();
        try {
            Path addressFile = Path.of(h2Url.substring("jdbc:h2:file:".length()) + ".server");
            await().atMost(Duration.ofSeconds(60)).until(() -> Files.exists(addressFile) || !serve.isAlive());
            assertThat(serve.isAlive()).as("slotted serve is running").isTrue();

            Run incr = run("incr", "1", "7", "--by", "5", "--db", h2Url);
            Run get = run("get", "1", "7", "--db", h2Url);

            assertThat(incr.status()).as(incr.err()).isZero();
            assertThat(incr.out()).isEqualTo("1 7: 5 (+5)" + System.lineSeparator());
            assertThat(get.out()).isEqualTo("1 7: 5" + System.lineSeparator());
            stop(serve);
            assertThat(addressFile).as("removed when the service stops").doesNotExist();
            assertThat(run("get", "1", "7", "--db", h2Url).out())
                    .as("the increment is in the file, which the command line now opens itself")
                    .isEqualTo("1 7: 5" + System.lineSeparator());
        } finally {
            serve.destroyForcibly();
        }
    }

    @Test
    void incr_whileServeWithTokensHasTheH2FileOpen_saysWhatToDo() throws Exception {
        Path tokens = Files.writeString(Path.of("target", "cli-tokens.txt"), "t0ken write\n");
        Process serve = serveInItsOwnProcess("--tokens", tokens.toString());
        try {
            // Until the service has opened the file, an increment goes into it directly.
            AtomicReference<Run> last = new AtomicReference<>();
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                last.set(run("incr", "1", "7", "--db", h2Url));
                return last.get().status() != 0 || !serve.isAlive();
            });
            Run incr = last.get();

            assertThat(serve.isAlive()).as("slotted serve is running").isTrue();
            assertThat(incr.status()).isEqualTo(1);
            assertThat(incr.err().lines()).hasSize(1);
            assertThat(incr.err()).contains("is open in another process")
                    .contains("started with --tokens, it does not share the file");
        } finally {
            stop(serve);
        }
    }

    /**
     * What a newcomer sees after typing {@code slotted serve} in an empty directory: the default
     * embedded database made, where to send requests, and nothing that asks them to do what serve
     * does itself. The roll-up ticks every 5 ms, so it reads before the tables are made.
     */
    @Test
    void serve_inAnEmptyDirectory_saysWhatItMadeAndWhereToSendRequests() throws Exception {
        Path directory = Path.of("target", "cli-fresh-serve").toAbsolutePath();
        deleteRecursively(directory);
        Files.createDirectories(directory);
        int port = freePort();
        Path output = directory.resolve("serve.log");
        Process serve = slottedProcess("serve", "--port", String.valueOf(port), "--rollup-every", "20ms")
                .directory(directory.toFile()).redirectErrorStream(true).redirectOutput(output.toFile())
                .start();
        try {
            await().atMost(Duration.ofSeconds(60)).until(() -> Files.readString(output).contains("try: curl"));
            Thread.sleep(500); // roll-up ticks after the start, whose lines must not advise either

            String screen = Files.readString(output);
            assertThat(serve.isAlive()).as(screen).isTrue();
            assertThat(screen).as("nothing asks to migrate: serve has done it").doesNotContainIgnoringCase("migrate")
                    .doesNotContain("WARN", "ERROR", "Exception");
            assertThat(screen).contains("schema: created table slotted_counters" + System.lineSeparator(),
                    "slotted listening on http://127.0.0.1:" + port
                            + " with the database jdbc:h2:file:./slotted-data/slotted (GROUPED mode)",
                    "try: curl -s -X POST http://127.0.0.1:" + port + "/v1/counters/1/456/increment");
            assertThat(directory.resolve("slotted-data")).isDirectory();
        } finally {
            stop(serve);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket free = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            return free.getLocalPort();
        }
    }

    private static void deleteRecursively(Path root) throws IOException {
        if (Files.exists(root)) {
            try (Stream<Path> paths = Files.walk(root)) {
                paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    /** {@code slotted serve} on this test's H2 file, as a process of its own. */
    private Process serveInItsOwnProcess(String... options) throws IOException {
        return serveInItsOwnProcess(freePort(), options);
    }

    /** {@code slotted serve} on this test's H2 file and the given port, as a process of its own. */
    private Process serveInItsOwnProcess(int port, String... options) throws IOException {
        return slottedProcess(concat(new String[] {"serve", "--port", String.valueOf(port), "--db", h2Url},
                options)).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    }

    private static void stop(Process process) throws InterruptedException {
        process.destroy();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("stopped on SIGTERM").isTrue();
    }

    @Test
    void tokenCreate_printsTheTokenOnce_andAppendsOnlyItsHash(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("tokens");

        Run create = run("token", "create", "ci", "--scope", "write,read", "--tokens", file.toString());

        assertThat(create.status()).as(create.err()).isZero();
        assertThat(create.out()).matches("slt_[A-Za-z0-9_-]{43}" + System.lineSeparator());
        String token = create.out().strip();
        assertThat(create.err().lines()).as(create.err()).hasSize(1);
        assertThat(create.err()).contains("appended the hash of the token ci to " + file.toAbsolutePath(),
                "stored nowhere", "copy it now");
        assertThat(Files.readString(file)).startsWith("ci sha256:").endsWith(" read,write\n")
                .doesNotContain(token);
        assertThat(AccessTokens.read(file).check(token, Scope.WRITE)).isEqualTo(AccessDecision.GRANTED);
    }

    @Test
    void tokenCreate_writesTheFileOfSlottedTokens_elseSlottedTokensInTheWorkingDirectory(@TempDir Path dir)
            throws Exception {
        Path fromVariable = dir.resolve("from-variable");

        Run inWorkingDirectory = tokenCreateIn(dir, null);
        Run named = tokenCreateIn(dir, fromVariable.toString());

        assertThat(inWorkingDirectory.status()).as(inWorkingDirectory.err()).isZero();
        assertThat(AccessTokens.read(dir.resolve("slotted-tokens")).nameOf(inWorkingDirectory.out().strip()))
                .hasValue("ci");
        assertThat(named.status()).as(named.err()).isZero();
        assertThat(AccessTokens.read(fromVariable).nameOf(named.out().strip())).hasValue("ci");
        assertThat(AccessTokens.read(dir.resolve("slotted-tokens")).size()).isEqualTo(1);
    }

    /**
     * {@code slotted token create ci --scope write} as a process of its own in a directory, with
     * {@code SLOTTED_TOKENS} set to a file or, given null, not set at all.
     */
    private static Run tokenCreateIn(Path directory, String tokensVariable) throws Exception {
        ProcessBuilder builder = slottedProcess("token", "create", "ci", "--scope", "write")
                .directory(directory.toFile());
        builder.environment().remove("SLOTTED_TOKENS");
        if (tokensVariable != null) {
            builder.environment().put("SLOTTED_TOKENS", tokensVariable);
        }
        Process process = builder.redirectError(directory.resolve("stderr.txt").toFile()).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Run(process.exitValue(), out, Files.readString(directory.resolve("stderr.txt")));
    }

    @Test
    void tokenHash_convertsAFilesPlainTokens_sayingHowMany(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("tokens"), "# ops\nplain-one read\nplain-two write\n");

        Run hash = run("token", "hash", "--tokens", file.toString());
        Run again = run("token", "hash", "--tokens", file.toString());

        assertThat(hash.status()).as(hash.err()).isZero();
        assertThat(hash.out()).startsWith("hashed 2 plain tokens in " + file).contains("keep working");
        assertThat(again.status()).as(again.err()).isZero();
        assertThat(again.out()).startsWith("no plain tokens in " + file);
        AccessTokens tokens = AccessTokens.read(file);
        assertThat(tokens.plainTokenLines()).isEmpty();
        assertThat(tokens.check("plain-one", Scope.READ)).isEqualTo(AccessDecision.GRANTED);
        assertThat(tokens.check("plain-two", Scope.WRITE)).isEqualTo(AccessDecision.GRANTED);
        assertThat(Files.readString(file)).startsWith("# ops\n").doesNotContain("plain-one", "plain-two");
    }

    @Test
    void tokenCommands_refusals_exitAsDocumented_withOneLineSayingWhy(@TempDir Path dir) throws Exception {
        String file = dir.resolve("tokens").toString();
        run("token", "create", "ci", "--scope", "read", "--tokens", file);
        String malformed = Files.writeString(dir.resolve("malformed"), "secret-token read,fly\n").toString();

        Run taken = run("token", "create", "ci", "--scope", "admin", "--tokens", file);
        Run badName = run("token", "create", "c/i", "--scope", "read", "--tokens", file);
        Run badScope = run("token", "create", "ops", "--scope", "read,fly", "--tokens", file);
        Run noScope = run("token", "create", "ops", "--tokens", file);
        Run createInMalformed = run("token", "create", "ops", "--scope", "read", "--tokens", malformed);
        Run hashMalformed = run("token", "hash", "--tokens", malformed);
        Run hashMissing = run("token", "hash", "--tokens", dir.resolve("nowhere").toString());
        Run cannotWrite = run("token", "create", "ops", "--scope", "read", "--tokens",
                dir.resolve("no-such-directory").resolve("tokens").toString());

        assertThat(taken.status()).as("%s", taken).isEqualTo(ExitStatus.USAGE);
        assertThat(taken.err()).contains("the token name 'ci' is taken by line 1");
        assertThat(badName.status()).as("%s", badName).isEqualTo(ExitStatus.USAGE);
        assertThat(badName.err()).contains("[A-Za-z0-9][A-Za-z0-9._-]{0,63}", "but was 'c/i'");
        assertThat(badScope.status()).as("%s", badScope).isEqualTo(ExitStatus.USAGE);
        assertThat(badScope.err()).contains("unknown scope 'fly'");
        assertThat(noScope.status()).as("%s", noScope).isEqualTo(ExitStatus.USAGE);
        assertThat(noScope.err()).contains("--scope");
        assertThat(createInMalformed.status()).as("%s", createInMalformed).isEqualTo(ExitStatus.USAGE);
        assertThat(createInMalformed.err()).contains(malformed + " line 1: unknown scope 'fly'");
        assertThat(hashMalformed.status()).as("%s", hashMalformed).isEqualTo(ExitStatus.USAGE);
        assertThat(hashMalformed.err()).contains(malformed + " line 1");
        assertThat(hashMissing.status()).as("%s", hashMissing).isEqualTo(ExitStatus.USAGE);
        assertThat(hashMissing.err()).contains("does not exist");
        assertThat(cannotWrite.status()).as("%s", cannotWrite).isEqualTo(ExitStatus.FAILURE);
        assertThat(cannotWrite.err()).contains("cannot write the token file");
        for (Run refused : List.of(taken, badName, badScope, noScope, createInMalformed, hashMalformed,
                hashMissing, cannotWrite)) {
            assertThat(refused.err().lines()).as(refused.err()).hasSize(1);
            assertThat(refused.err()).startsWith("slotted token ").doesNotContain("secret-token");
            assertThat(refused.out()).isEmpty();
        }
        assertThat(AccessTokens.read(Path.of(file)).names()).containsExactly("ci");
        assertThat(Files.readString(Path.of(malformed))).isEqualTo("secret-token read,fly\n");
    }

    @Test
    void serve_withCreatedTokens_letsTheWriteTokenIncrement_andAnswersTheReadToken403(@TempDir Path dir)
            throws Exception {
        String file = dir.resolve("tokens").toString();
        String writer = run("token", "create", "writer", "--scope", "write", "--tokens", file).out().strip();
        String reader = run("token", "create", "reader", "--scope", "read", "--tokens", file).out().strip();
        int port = freePort();
        Process serve = serveInItsOwnProcess(port, "--tokens", file);
        try {
            HttpClient client = HttpClient.newHttpClient();
            String counter = "http://127.0.0.1:" + port + "/v1/counters/1/7";
            await().atMost(Duration.ofSeconds(60)).until(() -> !serve.isAlive() || answers(client,
                    "http://127.0.0.1:" + port + "/healthz"));
            assertThat(serve.isAlive()).as("slotted serve is running").isTrue();

            HttpResponse<String> byWriter = send(client, HttpRequest.newBuilder(URI.create(counter
                    + "/increment")).POST(HttpRequest.BodyPublishers.noBody()), writer);
            HttpResponse<String> byReader = send(client, HttpRequest.newBuilder(URI.create(counter
                    + "/increment")).POST(HttpRequest.BodyPublishers.noBody()), reader);
            HttpResponse<String> byStranger = send(client, HttpRequest.newBuilder(URI.create(counter
                    + "/increment")).POST(HttpRequest.BodyPublishers.noBody()), "slt_" + "x".repeat(43));
            HttpResponse<String> read = send(client, HttpRequest.newBuilder(URI.create(counter)), reader);

            assertThat(byWriter.statusCode()).as(byWriter.body()).isEqualTo(200);
            assertThat(byReader.statusCode()).as(byReader.body()).isEqualTo(403);
            assertThat(byStranger.statusCode()).as(byStranger.body()).isEqualTo(401);
            assertThat(read.statusCode()).as(read.body()).isEqualTo(200);
            assertThat(read.body()).contains("\"count\":1");
        } finally {
            stop(serve);
        }
    }

    /**
     * A file of plain tokens still serves, with a warning that names the lines and the command
     * that converts them, never a token; once converted, the same file starts without it.
     */
    @Test
    void serve_withPlainTokens_warnsNamingTheLines_andNotAfterTokenHash(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("tokens");
        run("token", "create", "dashboard", "--scope", "read", "--tokens", file.toString());
        Files.writeString(file, "plain-secret-token write\n", java.nio.file.StandardOpenOption.APPEND);

        String plain = startupScreen(dir.resolve("plain.log"), "--tokens", file.toString());
        Run hash = run("token", "hash", "--tokens", file.toString());
        String hashed = startupScreen(dir.resolve("hashed.log"), "--tokens", file.toString());

        assertThat(plain).contains("accepting 2 token(s) from the token file " + file + ": dashboard, line 2",
                "WARN", "holds plain tokens on lines [2]", "slotted token hash --tokens " + file)
                .doesNotContain("plain-secret-token");
        assertThat(hash.status()).as(hash.err()).isZero();
        assertThat(hashed).contains("accepting 2 token(s)").doesNotContain("plain tokens", "WARN");
        assertThat(AccessTokens.read(file).check("plain-secret-token", Scope.WRITE))
                .isEqualTo(AccessDecision.GRANTED);
    }

    /** What {@code slotted serve} writes until it says where to send requests; then it is stopped. */
    private String startupScreen(Path output, String... options) throws Exception {
        Process serve = slottedProcess(concat(new String[] {"serve", "--port", String.valueOf(freePort()),
                "--db", h2Url}, options)).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        try {
            await().atMost(Duration.ofSeconds(60)).until(() -> !serve.isAlive()
                    || Files.readString(output).contains("accepting"));
            return Files.readString(output);
        } finally {
            stop(serve);
        }
    }

    private static boolean answers(HttpClient client, String url) throws InterruptedException {
        try {
            return client.send(HttpRequest.newBuilder(URI.create(url)).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        }
    }

    private static HttpResponse<String> send(HttpClient client, HttpRequest.Builder request, String token)
            throws IOException, InterruptedException {
        return client.send(request.header("Authorization", "Bearer " + token).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void help_ofTheTokenCommands_namesTheTokenFileAndItsDefault() {
        Run create = run("token", "create", "--help");
        Run hash = run("token", "hash", "--help");

        assertThat(run("--help").out()).contains("token");
        assertThat(create.status()).isZero();
        assertThat(create.out()).contains("Usage: slotted token create", "NAME", "--scope", "--tokens",
                "slotted-tokens in the working directory", "SLOTTED_TOKENS");
        assertThat(hash.status()).isZero();
        assertThat(hash.out()).contains("Usage: slotted token hash", "--tokens",
                "slotted-tokens in the working directory", "SLOTTED_TOKENS");
    }

    @Test
    void passwordFile_isRead_andNeverPrinted() throws Exception {
        Path file = Files.writeString(Path.of("target", "cli-password.txt"), "s3cret-pw\n");

        Run run = run("get", "1", "1", "--db", "jdbc:mariadb://127.0.0.1:1/test?connectTimeout=2000",
                "--db-user", "nobody", "--db-password-file", file.toString());
        Run missing = run("get", "1", "1", "--db-password-file", "target/no-such-password-file");

        assertThat(run.status()).isEqualTo(1);
        assertThat(run.err()).doesNotContain("s3cret-pw");
        assertThat(missing.status()).isEqualTo(2);
        assertThat(missing.err()).contains("cannot read --db-password-file");
    }
}
