package io.slotted.bench.report;

import io.slotted.bench.CellResult;
import io.slotted.bench.Summary;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Writes {@code results.md}: the command that produced the run, the facts it depends on, the
 * result and ratio tables and the chart, ready to paste into {@code docs/benchmarks.md}.
 */
public final class MarkdownReport {

    private MarkdownReport() {
    }

    /**
     * Writes the report, replacing any earlier one.
     *
     * @param file where to write
     * @param title the heading, such as the database benchmarked
     * @param command the command line that produced the run
     * @param facts machine, database and run settings, in the order to show them
     * @param warnings anything that makes the numbers incomparable, shown first
     * @param summaries the cells over their rounds
     * @param results every round of every cell, for the ratios within each
     * @throws IOException if the file cannot be written
     */
    public static void write(Path file, String title, String command, Map<String, String> facts,
            List<String> warnings, List<Summary> summaries, List<CellResult> results)
            throws IOException {
        StringBuilder md = new StringBuilder("# ").append(title).append("\n\n");
        warnings.forEach(w -> md.append("> **Warning:** ").append(w).append("\n\n"));
        md.append("```sh\n").append(command).append("\n```\n\n");
        md.append("| fact | value |\n|---|---|\n");
        facts.forEach((k, v) -> md.append("| ").append(k).append(" | ").append(v.replace("|", "\\|"))
                .append(" |\n"));
        md.append("\n## Results\n\n").append(ResultTable.results(summaries).markdown());
        ResultTable ratios = ResultTable.ratios(summaries);
        if (!ratios.isEmpty()) {
            md.append("\n## Grouped compared\n\nThroughput of `grouped` divided by the other's, at"
                    + " the same workload and writer count.\n\n").append(ratios.markdown());
        }
        if (CellComparison.anyYardstick(results)) {
            appendYardsticks(md, CellComparison.of(results));
        }
        md.append("\n![Throughput by strategy and writer count](chart.svg)\n\n").append(HOW_TO_READ);
        Files.writeString(file, md, StandardCharsets.UTF_8);
    }

    private static void appendYardsticks(StringBuilder md, List<CellComparison> cells) {
        md.append("\n## Against the yardsticks\n\nEach strategy's throughput as a multiple of `redis`,"
                + " `direct` and `ceiling` (those that ran) in the same cell, that is the same workload,"
                + " writer count and round, then its p99 latency.\n\n");
        cells.forEach(cell -> md.append("- ").append(cell.line()).append('\n'));
        md.append("\nThe median of those ratios over the rounds:\n\n")
                .append(RatioSummary.table(cells).markdown());
    }

    private static final String HOW_TO_READ = """
            ## How to read this

            - Each writer is a thread that increments in a closed loop: it sends the next increment
              when the last one is acknowledged. Latencies are what such a caller waits, from call to
              return; they are not corrected for coordinated omission.
            - `single-row` is an autocommit `UPDATE … SET count = count + 1` of one row per counter
              on the writer's own connection. `direct`, `grouped` and `buffered` are Slotted's write
              modes with their default slots and flushers. `redis` is `INCR` over a raw RESP
              client, one connection per writer unless the command shared a few
              (`--redis-connections`), on the server's persistence settings shown above. `ceiling`
              is group commit's hand-off with no database: a queue, two consumers, a future per
              increment; the most any synchronous write path of that shape could do here.
            - Writers beyond `--max-connections` share that many connections in `single-row` and
              `direct` (the cell's line says so); `grouped` and `buffered` writers hold none.
            - `buffered` acknowledges an increment once it is queued, before it is written: its
              throughput is how fast increments are accepted, not how fast they become durable.
            - `exact` means the store, read back after the writers stopped (and, for `buffered`,
              after `close()` wrote what was queued), held every acknowledged increment and nothing
              else, for every counter. `incr/flush` is the average number of increments each
              group-commit transaction carried; `retries` are conflicts Slotted absorbed.
            - Strategies run interleaved (for each writer count and round, each strategy in turn),
              each on a fresh table, so drift in the machine hits all of them alike. With several
              rounds, throughput is the median round's and latencies cover every round.
            """;
}
