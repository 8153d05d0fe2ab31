package io.slotted.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.slotted.db.MariaDbTestDatabase;
import io.slotted.db.PostgresTestDatabase;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@code slotted} command line run in-process: exit statuses, one-line reasons, the happy paths
 * of {@code migrate}, {@code incr} and {@code get} on an H2 file database, and {@code bench}, which
 * only says where the benchmark's own jar is.
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
    void help_isShownForEveryCommand() {
        for (String command : new String[] {"serve", "incr", "get", "migrate"}) {
            Run help = run(command, "--help");
            assertThat(help.status()).isZero();
            assertThat(help.out()).contains("Usage: slotted " + command).contains("--db");
        }
        assertThat(run("serve", "--help").out()).contains("--port", "--bind", "--db-user",
                "--db-password-file", "--tokens", "--types", "--mode", "--slots", "SLOTTED_PORT");
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

        assertThat(bench.status()).isEqualTo(SlottedCommand.USAGE);
        assertThat(bench.err().lines()).as(bench.err()).hasSize(1);
        assertThat(bench.err()).contains("./slotted bench");
        assertThat(bench.out()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "", "bogus", "incr downloads", "incr 1 notanumber", "incr 1 1 --by 0", "incr 1 1 --bogus",
        "incr downloads 1", "get Bad-Type 1", "serve --port notaport", "serve --port 70000",
        "serve --mode fastest", "serve --slots 0", "serve --types downloads", "serve --bind 0.0.0.0",
        "serve --tokens target/no-such-token-file"})
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
            Process serve = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java")
                    .toString(), "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                    "serve", "--port", String.valueOf(taken.getLocalPort()), "--db", h2Url)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            String err = new String(serve.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);

            assertThat(serve.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(serve.exitValue()).as(err).isEqualTo(1);
            assertThat(err.lines()).as(err).hasSize(1);
            assertThat(err).startsWith("slotted serve: cannot listen on 127.0.0.1:" + taken.getLocalPort());
        }
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
