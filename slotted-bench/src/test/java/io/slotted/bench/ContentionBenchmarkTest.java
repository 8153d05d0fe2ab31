package io.slotted.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.slotted.db.MariaDbTestDatabase;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The contention benchmark run in-process for a moment on a real MariaDB, as {@code ./slotted bench}
 * runs it: exit statuses, one-line usage errors, the files it writes, and the command it records.
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
    void bench_withABadOption_isAUsageError() {
        Run bench = run("--writers", "two");

        assertThat(bench.status()).isEqualTo(2);
        assertThat(bench.err().lines()).hasSize(1);
        assertThat(bench.err()).startsWith(LAUNCHER + ": ");
    }
}
