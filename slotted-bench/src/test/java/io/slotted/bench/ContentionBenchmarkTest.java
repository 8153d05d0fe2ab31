package io.slotted.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.slotted.db.MariaDbTestDatabase;
import io.slotted.db.ServerTestDatabase;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The contention benchmark run in-process for a moment on a real MariaDB (and PostgreSQL, for the
 * database's own limit), as {@code ./slotted bench} runs it: exit statuses, one-line usage errors, the files it writes, and the command it records.
 */
class ContentionBenchmarkTest {
    private static final String LAUNCHER = "./slotted bench";

    /** What one run printed and returned. */
    record Run(int status, String out, String err) {
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = ContentionBenchmark.commandLine(LAUNCHER, new PrintWriter(out, true),
                new PrintWriter(err, true)).execute(args);
        return new Run(status, out.toString(), err.toString());
    }

    @Test
    void bench_runsTheContentionBenchmarkAndWritesItsResults() throws Exception {
        Path out = Path.of("target", "cli-bench");
        Run bench = run("--db", MariaDbTestDatabase.instance().jdbcUrl(), "--writers", "2",
                "--duration", "1s", "--warmup", "200ms", "--strategies", "direct,grouped",
                "--out", out.toString());

        assertThat(bench.status()).as("exit status; every cell ran and was exact: %s", bench).isZero();
        assertThat(Files.readString(out.resolve("results.csv"))).contains("direct", "grouped");
        assertThat(Files.readString(out.resolve("chart.svg"))).startsWith("<svg");
        assertThat(Files.readString(out.resolve("results.md"))).contains("## Results");
        assertThat(bench.out()).as("progress and results go to the command line's writer")
                .contains("every cell exact");
    }

    @Test
    void results_recordTheCommandExactlyAsItWasGiven() throws Exception {
        Path out = Path.of("target", "cli-bench-command");
        String url = MariaDbTestDatabase.instance().jdbcUrl();
        Run bench = run("--db", url, "--writers", "1", "--duration", "200ms", "--warmup", "100ms",
                "--strategies", "grouped", "--out", out.toString());

        assertThat(bench.status()).as("%s", bench).isZero();
        assertThat(Files.readString(out.resolve("results.md"))).contains(LAUNCHER + " --db '" + url
                + "' --writers 1 --duration 200ms --warmup 100ms --strategies grouped --out "
                + out);
    }

    @Test
    void bench_groupedRollUp_isExactAndReportsTheRollUpLagAndRate() throws Exception {
        Path out = Path.of("target", "cli-bench-rollup");
        Run bench = run("--db", MariaDbTestDatabase.instance().jdbcUrl(), "--writers", "4",
                "--duration", "2s", "--warmup", "200ms", "--workload", "zipf",
                "--strategies", "grouped-rollup", "--out", out.toString());

        assertThat(bench.status()).as("exit status; the cell ran and was exact: %s", bench).isZero();
        assertThat(bench.out()).contains("every cell exact")
                .containsPattern("roll-up lag p50 \\d+ ms, p99 \\d+ ms, max \\d+ ms")
                .containsPattern("\\d+ counters rolled up per second");
    }

    @Test
    void bench_groupedHourly_isExactInItsTotalsAndItsBuckets() throws Exception {
        Path out = Path.of("target", "cli-bench-hourly");
        Run bench = run("--db", MariaDbTestDatabase.instance().jdbcUrl(), "--writers", "4",
                "--duration", "1s", "--warmup", "200ms", "--workload", "zipf",
                "--strategies", "grouped,grouped-hourly", "--out", out.toString());

        assertThat(bench.status()).as("exit status; the cells ran and were exact: %s", bench).isZero();
        assertThat(bench.out()).contains("every cell exact").contains("grouped-hourly");
    }

    @Test
    void bench_limits_farFromTheBoundAndAtIt_areExact_countingRefusalsAsDecisions() throws Exception {
        Path out = Path.of("target", "cli-bench-limits");
        Run bench = run("--db", MariaDbTestDatabase.instance().jdbcUrl(), "--writers", "8",
                "--duration", "1s", "--warmup", "200ms", "--workload", "hot",
                "--strategies", "grouped-limited,grouped-at-limit", "--out", out.toString());

        assertThat(bench.status()).as("exit status; the cells ran and were exact: %s", bench).isZero();
        assertThat(bench.out()).contains("every cell exact").contains("grouped-limited").contains("grouped-at-limit");
    }

    @Test
    void bench_groupedTotals_isExact_andEveryAnswerWithinTheFinalTotal() throws Exception {
        Path out = Path.of("target", "cli-bench-totals");
        Run bench = run("--db", MariaDbTestDatabase.instance().jdbcUrl(), "--writers", "8",
                "--duration", "1s", "--warmup", "200ms", "--workload", "both",
                "--strategies", "grouped,grouped-totals", "--out", out.toString());

        assertThat(bench.status()).as("exit status; the cells ran and were exact: %s", bench).isZero();
        assertThat(bench.out()).contains("every cell exact").contains("grouped-totals");
    }

    @Test
    void bench_events_countedAloneJoinedOrGrouped_areExact() throws Exception {
        Path out = Path.of("target", "cli-bench-events");
        Run bench = run("--db", MariaDbTestDatabase.instance().jdbcUrl(), "--writers", "4",
                "--duration", "1s", "--warmup", "200ms", "--workload", "both",
                "--strategies", "event,event-joined,event-grouped", "--out", out.toString());

        assertThat(bench.status()).as("exit status; the cells ran and were exact: %s", bench).isZero();
        assertThat(bench.out()).contains("every cell exact").contains("event-joined").contains("event-grouped");
    }

    /**
     * The windowed quota and bucket4j keep the same limit on each server: every decision is
     * counted (admitted in the store or refused), and no window admitted more than the limit.
     */
    @ParameterizedTest(name = "[{0}]")
    @MethodSource("io.slotted.db.TestDatabases#servers")
    void bench_quota_slottedAndBucket4j_areExactAndNeverOverTheLimit(ServerTestDatabase db) throws Exception {
        Path out = Path.of("target", "cli-bench-quota-" + db.name().replaceAll("\\W", ""));
        Run bench = run("--db", db.jdbcUrl(), "--writers", "8", "--duration", "1s",
                "--warmup", "200ms", "--workload", "both", "--strategies", "grouped-quota,bucket4j",
                "--out", out.toString());

        assertThat(bench.status()).as("exit status; the cells ran and were exact: %s", bench).isZero();
        assertThat(bench.out()).contains("every cell exact")
                .containsPattern("hot grouped-quota 8 writers round 1: [0-9,]+ ops/s, .*errors 0, exact=true")
                .containsPattern("zipf bucket4j 8 writers round 1: [0-9,]+ ops/s, .*errors 0, exact=true");
    }

    /**
     * Every row of a {@code limit-N} statement is an increment: were the calls counted instead, the
     * store would hold N times what the writers were told, and no cell would be exact.
     */
    @ParameterizedTest(name = "[{0}]")
    @MethodSource("io.slotted.db.TestDatabases#servers")
    void bench_limitN_countsEveryRowAsAnIncrementAndIsExact(ServerTestDatabase db) throws Exception {
        Path out = Path.of("target", "cli-bench-limit-" + db.name().replaceAll("\\W", ""));
        Run bench = run("--db", db.jdbcUrl(), "--writers", "4", "--duration", "1s",
                "--warmup", "200ms", "--workload", "both", "--strategies", "limit-1,limit-32",
                "--out", out.toString());

        assertThat(bench.status()).as("exit status; the cells ran and were exact: %s", bench).isZero();
        assertThat(bench.out()).contains("every cell exact")
                .containsPattern("hot limit-32 4 writers round 1: [0-9,]+ ops/s, .*errors 0, exact=true")
                .containsPattern("zipf limit-32 4 writers round 1: [0-9,]+ ops/s, .*errors 0, exact=true");
    }

    @Test
    void bench_limitOfNoRows_isAUsageError() {
        Run bench = run("--strategies", "limit-0");

        assertThat(bench.status()).isEqualTo(2);
        assertThat(bench.err().lines()).hasSize(1);
        assertThat(bench.err()).contains("--strategies limit-0: rows per statement must be between 1"
                + " and 9999, but was 0");
    }

    @Test
    void bench_withABadOption_isAUsageError() {
        Run bench = run("--writers", "two");

        assertThat(bench.status()).isEqualTo(2);
        assertThat(bench.err().lines()).hasSize(1);
        assertThat(bench.err()).startsWith(LAUNCHER + ": ");
    }

    @Test
    void bench_withTheYardsticks_printsOneRatioLinePerCellAndSummarisesThemInTheReport()
            throws Exception {
        Path out = Path.of("target", "cli-bench-yardsticks");
        Run bench = run("--db", MariaDbTestDatabase.instance().jdbcUrl(), "--writers", "2",
                "--duration", "300ms", "--warmup", "100ms", "--rounds", "2",
                "--strategies", "ceiling,redis,grouped,direct", "--redis", TestRedis.address().toString(),
                "--redis-connections", "1", "--out", out.toString());

        assertThat(bench.status()).as("exit status; every cell ran and was exact: %s", bench).isZero();
        List<String> lines = bench.out().lines().filter(line -> line.startsWith("hot 2w r")).toList();
        assertThat(lines).as("one line per cell: workload, writers, round").hasSize(2);
        assertThat(lines.get(0)).startsWith("hot 2w r1: ceiling ")
                .containsPattern("\\| grouped [0-9.]+k?/s = [0-9.]+× redis, [0-9.]+× direct,"
                        + " [0-9.]+× ceiling · p99 [0-9.]+ ms \\|");
        assertThat(bench.out()).contains("2 writers share 1 Redis connections",
                "redis: 1 shared by all writers");
        String report = Files.readString(out.resolve("results.md"));
        assertThat(report).contains("## Against the yardsticks", "- hot 2w r1: ceiling ",
                "- hot 2w r2: ceiling ",
                "| workload | strategy | writers | rounds | × redis | × direct | × ceiling |")
                .containsPattern("\\| hot \\| grouped \\| 2 \\| 2 \\| [0-9.]+× \\| [0-9.]+×"
                        + " \\| [0-9.]+× \\|");
    }

    @Test
    void results_recordTheWriterThreadKind() throws Exception {
        Path out = Path.of("target", "cli-bench-threads");
        Run bench = run("--db", MariaDbTestDatabase.instance().jdbcUrl(), "--writers", "1",
                "--duration", "200ms", "--warmup", "100ms", "--strategies", "ceiling",
                "--threads", "platform", "--out", out.toString());

        assertThat(bench.status()).as("%s", bench).isZero();
        List<String> csv = Files.readAllLines(out.resolve("results.csv"));
        assertThat(csv.get(0)).as("a new column goes last").endsWith(",first_error,threads");
        assertThat(csv.get(1)).startsWith("hot,ceiling,1,1,").endsWith(",platform");
        assertThat(Files.readString(out.resolve("results.md")))
                .contains(", platform threads\n", "| writer threads | platform |");
    }

    @Test
    @EnabledForJreRange(max = JRE.JAVA_20)
    void bench_virtualThreadsOnJava17_isAUsageErrorOfOneLineNamingTheJava() {
        Run bench = run("--threads", "virtual", "--writers", "1000");

        assertThat(bench.status()).isEqualTo(2);
        assertThat(bench.err().lines()).hasSize(1);
        assertThat(bench.err()).startsWith(LAUNCHER + ": --threads virtual needs Java 21 or later;"
                + " this is Java " + Runtime.version().feature());
    }

    @Test
    void bench_withANegativeRedisConnectionCount_isAUsageError() {
        Run bench = run("--redis-connections", "-1");

        assertThat(bench.status()).isEqualTo(2);
        assertThat(bench.err()).contains("--redis-connections must be 0 (one per writer) or more,"
                + " but was -1");
    }

    /**
     * A thousand virtual writers; SQL writers share the capped connections. Virtual threads need
     * Java 21, so the tag keeps this to the build's run on a newer JDK (see {@code .ci/run}).
     */
    @Test
    @Tag("virtual-threads")
    void bench_aThousandVirtualWriters_shareCappedConnectionsAndAreExact() throws Exception {
        Path out = Path.of("target", "cli-bench-virtual");
        Run bench = run("--db", MariaDbTestDatabase.instance().jdbcUrl(), "--threads", "virtual",
                "--writers", "1000", "--max-connections", "16", "--duration", "500ms",
                "--warmup", "100ms", "--strategies", "single-row,direct,grouped,ceiling",
                "--out", out.toString());

        assertThat(bench.status()).as("exit status; every cell exact: %s", bench).isZero();
        assertThat(bench.out()).contains("writer threads: virtual", "every cell exact")
                .containsPattern("hot single-row 1000 writers round 1: .*1000 writers share 16 connections")
                .containsPattern("hot direct 1000 writers round 1: .*1000 writers share 16 connections");
        assertThat(Files.readAllLines(out.resolve("results.csv")).subList(1, 5))
                .allSatisfy(row -> assertThat(row).endsWith(",virtual"));
    }
}
