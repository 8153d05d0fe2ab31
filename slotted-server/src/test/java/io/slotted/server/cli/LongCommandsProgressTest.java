package io.slotted.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * {@code recount} and {@code shrink} on 1,000,000 counters in an H2 file, each run as a process of
 * its own: under a pseudo-terminal ({@code script}) they draw a progress bar; piped, they print
 * plain lines; stopped by {@code Ctrl-C} — the byte a terminal sends, through {@code script}'s
 * pseudo-terminal, or SIGINT sent to a piped process — they exit with 130, say where they stopped,
 * and leave every counter exact.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LongCommandsProgressTest {
    private static final int COUNTERS = 1_000_000;
    /** Counters whose source of truth says 2 where they hold 1. */
    private static final int WRONG = 1_000;
    private static final String SOURCE = "SELECT id, n FROM truth";
    private static final Duration PATIENCE = Duration.ofMinutes(3);
    private static Path directory;
    private static String url;

    @BeforeAll
    static void millionCounters() throws Exception {
        directory = Files.createDirectories(Path.of("target", "long-commands", "run-" + ProcessHandle.current().pid()))
                .toAbsolutePath();
        url = "jdbc:h2:file:" + directory.resolve("counters");
        StringWriter out = new StringWriter();
        assertThat(SlottedCommand.commandLine(new PrintWriter(out), new PrintWriter(out))
                .execute("migrate", "--db", url)).as("%s", out).isZero();
        try (Connection connection = DriverManager.getConnection(url);
                Statement statement = connection.createStatement()) {
            statement.execute("INSERT INTO slotted_counters (record_type, record_id, slot, count)"
                    + " SELECT 1, X, MOD(X, 8), 1 FROM SYSTEM_RANGE(1, " + COUNTERS + ")");
            statement.execute("CREATE TABLE truth AS SELECT X AS id, CASE WHEN MOD(X, " + (COUNTERS / WRONG)
                    + ") = 0 THEN 2 ELSE 1 END AS n FROM SYSTEM_RANGE(1, " + COUNTERS + ")");
        }
    }

    /** What a run printed, and how it ended. */
    private record Ended(int status, String out, String err) {
    }

    /**
     * A command of its own, its standard output and error read by the test. Progress goes to
     * standard error, which the test watches line by line; under {@code script} both arrive on
     * script's standard output, which it watches instead.
     */
    private static final class Run {
        final Process process;
        final boolean watchesOut;
        final List<String> lines = new ArrayList<>();
        final CompletableFuture<String> other;
        final BufferedReader watched;

        Run(ProcessBuilder builder, boolean watchesOut) throws IOException {
            this.process = builder.start();
            this.watchesOut = watchesOut;
            InputStream watchedStream = watchesOut ? process.getInputStream() : process.getErrorStream();
            InputStream otherStream = watchesOut ? process.getErrorStream() : process.getInputStream();
            this.watched = new BufferedReader(new InputStreamReader(watchedStream, StandardCharsets.UTF_8));
            this.other = CompletableFuture.supplyAsync(() -> read(otherStream));
        }

        /** Reads the watched stream until a line matches; false if the process ended first. */
        boolean awaitLine(Predicate<String> wanted) throws IOException {
            String line;
            while ((line = watched.readLine()) != null) {
                lines.add(line);
                if (wanted.test(line)) {
                    return true;
                }
            }
            return false;
        }

        Ended end() throws Exception {
            String rest = CompletableFuture.supplyAsync(() -> {
                try {
                    return watched.lines().collect(Collectors.joining("\n"));
                } catch (java.io.UncheckedIOException e) {
                    return "";
                }
            }).get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
            assertThat(process.waitFor(PATIENCE.toSeconds(), TimeUnit.SECONDS)).as("the command ended").isTrue();
            String watchedText = String.join("\n", lines) + "\n" + rest;
            String otherText = other.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
            return watchesOut ? new Ended(process.exitValue(), watchedText, otherText)
                    : new Ended(process.exitValue(), otherText, watchedText);
        }
    }

    private static String read(InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static List<String> slotted(String... args) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        command.addAll(List.of(args));
        return command;
    }

    private static Run piped(String... args) throws IOException {
        return new Run(new ProcessBuilder(slotted(args)), false);
    }

    /**
     * The command under a pseudo-terminal: {@code script} runs it on one and copies what it draws
     * to its standard output; what the test writes to its standard input is typed at that terminal.
     */
    private static Run onTerminal(String... args) throws IOException {
        String command = slotted(args).stream().map(word -> "'" + word.replace("'", "'\\''") + "'")
                .collect(Collectors.joining(" "));
        // The terminal is as wide as a common window; script's own has no size when the test runs it.
        ProcessBuilder builder = new ProcessBuilder("script", "--quiet", "--flush", "--return", "--command",
                "stty cols 160 rows 40; exec " + command, "/dev/null");
        builder.environment().put("TERM", "xterm");
        return new Run(builder, true);
    }

    private static void interrupt(Process process) throws Exception {
        Process kill = new ProcessBuilder("kill", "-INT", Long.toString(process.pid())).start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(kill.exitValue()).isZero();
    }

    private static void typeCtrlC(Run run) throws IOException {
        OutputStream keyboard = run.process.getOutputStream();
        keyboard.write(3);
        keyboard.flush();
    }

    private static long query(String sql) throws SQLException {
        try (Connection connection = DriverManager.getConnection(url);
                Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery(sql)) {
            row.next();
            return row.getLong(1);
        }
    }

    /** Every counter still holds exactly 1, whatever rows it is spread over. */
    private static void assertEveryCounterExact() throws SQLException {
        assertThat(query("SELECT COUNT(DISTINCT record_id) FROM slotted_counters WHERE record_type = 1"))
                .isEqualTo(COUNTERS);
        assertThat(query("SELECT COUNT(*) FROM (SELECT record_id FROM slotted_counters WHERE record_type = 1"
                + " GROUP BY record_id HAVING SUM(count) <> 1) t")).as("counters not at exactly 1").isZero();
    }

    @Test
    @Order(1)
    void recount_onATerminal_drawsABar_andEndsWithItsSummary() throws Exception {
        Ended ended = onTerminal("recount", "1", "--source", SOURCE, "--db", url).end();

        assertThat(ended.status()).as("differences found: %s", ended).isEqualTo(ExitStatus.FINDINGS);
        assertThat(ended.out()).contains("reading the source", "reading the counters", "rows/s", "█")
                .contains("1000000/? rows")
                .contains("checked 1000000 counters of 1: " + WRONG + " differ, 0 fixed");
    }

    @Test
    @Order(2)
    void recount_piped_printsPlainLines_andEndsWithItsSummary() throws Exception {
        Ended ended = piped("recount", "1", "--source", SOURCE, "--db", url).end();

        assertThat(ended.status()).as("%s", ended).isEqualTo(ExitStatus.FINDINGS);
        assertThat(ended.err()).as("the progress, on standard error").doesNotContain("\r", "█")
                .containsPattern("slotted recount: reading the counters: [0-9,]+ rows \\([0-9,]+/s\\)\n")
                .containsPattern("slotted recount: reading the counters: 1,000,000 rows in \\d+\\.\\d s");
        assertThat(ended.out()).as("the result alone, on standard output")
                .startsWith("checked 1000000 counters of 1: " + WRONG + " differ, 0 fixed");
    }

    @Test
    @Order(3)
    void recount_fix_interruptedWhileReading_exitsCleanly_andChangesNothing() throws Exception {
        Run run = piped("recount", "1", "--source", SOURCE, "--fix", "--db", url);
        assertThat(run.awaitLine(line -> line.startsWith("slotted recount: reading the counters"))).isTrue();
        interrupt(run.process);
        Ended ended = run.end();

        assertThat(ended.status()).as("%s", ended).isEqualTo(ExitStatus.STOPPED);
        assertThat(ended.err()).contains("slotted recount: stopping at the next point where nothing is left half done")
                .contains("slotted recount: stopped while reading record_type 1 and its source; nothing was changed");
        assertThat(query("SELECT SUM(count) FROM slotted_counters WHERE record_type = 1")).isEqualTo(COUNTERS);
        assertEveryCounterExact();
    }

    @Test
    @Order(4)
    void shrink_onATerminal_stoppedByCtrlC_exitsCleanly_withEveryCounterExact() throws Exception {
        long beyond = query("SELECT COUNT(*) FROM slotted_counters WHERE record_type = 1 AND slot >= 2");
        Run run = onTerminal("shrink", "1", "--slots", "2", "--db", url);
        assertThat(run.awaitLine(line -> line.contains("moving rows beyond slot 1 onto 2 slots"))).isTrue();
        typeCtrlC(run);
        Ended ended = run.end();

        assertThat(ended.status()).as("%s", ended).isEqualTo(ExitStatus.STOPPED);
        assertThat(ended.out()).contains("counters/s", "█", "stopping at the next point where nothing is left half done")
                .contains("slotted shrink: stopped after moving")
                .contains("every read stays exact: run the shrink again");
        assertEveryCounterExact();
        assertThat(query("SELECT COUNT(*) FROM slotted_counters WHERE record_type = 1 AND slot >= 2"))
                .as("rows left beyond the new count").isBetween(1L, beyond - 1);
        assertThat(query("SELECT slots FROM slotted_counters_types WHERE record_type = 1")).isEqualTo(2);
    }

    @Test
    @Order(5)
    void shrink_piped_printsPlainLines_andStopsOnSigint_withEveryCounterExact() throws Exception {
        long beyond = query("SELECT COUNT(*) FROM slotted_counters WHERE record_type = 1 AND slot >= 2");
        Run run = piped("shrink", "1", "--slots", "2", "--db", url);
        assertThat(run.awaitLine(line -> line.matches("slotted shrink: moving rows beyond slot 1 onto 2 slots: [0-9,]+"
                + " of [0-9,]+ counters \\(\\d+%, [0-9,]+/s, about .* left\\)"))).as("%s", run.lines).isTrue();
        interrupt(run.process);
        Ended ended = run.end();

        assertThat(ended.status()).as("%s", ended).isEqualTo(ExitStatus.STOPPED);
        assertThat(ended.err()).contains("slotted shrink: stopped after moving");
        assertEveryCounterExact();
        assertThat(query("SELECT COUNT(*) FROM slotted_counters WHERE record_type = 1 AND slot >= 2"))
                .isBetween(1L, beyond - 1);
    }
}
