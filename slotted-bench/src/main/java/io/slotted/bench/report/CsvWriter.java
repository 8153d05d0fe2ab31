package io.slotted.bench.report;

import io.slotted.bench.CellResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Writes every round of every cell as one CSV row, for spreadsheets and for comparing runs. Unlike
 * the tables, nothing is aggregated. Fields are numbers and names except the error message, which
 * is quoted as RFC 4180 says; a CSV library would be more code than this. Columns added later
 * ({@code threads}) go at the end, so that files read by position keep their meaning.
 */
public final class CsvWriter {
    private static final String HEADER = "workload,strategy,writers,round,ops_per_s,measured_ops,"
            + "seconds,p50_ms,p90_ms,p99_ms,p999_ms,max_ms,errors,exact,acknowledged,stored,"
            + "wrong_counters,drain_ms,flushes,retries,first_error,threads";

    private CsvWriter() {
    }

    /**
     * Writes the file, replacing any earlier one.
     *
     * @param file where to write
     * @param results every cell's result
     * @throws IOException if the file cannot be written
     */
    public static void write(Path file, List<CellResult> results) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add(HEADER);
        results.forEach(result -> lines.add(row(result)));
        Files.write(file, lines, StandardCharsets.UTF_8);
    }

    private static String row(CellResult r) {
        return String.join(",", r.workload().label(), r.strategy(), String.valueOf(r.writers()),
                String.valueOf(r.round()), number("%.1f", r.throughput()),
                String.valueOf(r.measuredOps()), number("%.3f", r.measuredSeconds()),
                number("%.4f", r.latency().percentileMillis(50)),
                number("%.4f", r.latency().percentileMillis(90)),
                number("%.4f", r.latency().percentileMillis(99)),
                number("%.4f", r.latency().percentileMillis(99.9)),
                number("%.4f", r.latency().maxMillis()), String.valueOf(r.errors()),
                String.valueOf(r.exact()), String.valueOf(r.acknowledged()),
                String.valueOf(r.stored()), String.valueOf(r.wrongCounters()),
                String.valueOf(r.drainMillis()), String.valueOf(r.engine().flushes()),
                String.valueOf(r.engine().retries()), quoted(r.firstError()), r.threads().label());
    }

    private static String number(String format, double value) {
        return String.format(Locale.ROOT, format, value);
    }

    private static String quoted(String text) {
        return text == null ? "" : '"' + text.replace("\"", "\"\"").replace('\n', ' ') + '"';
    }
}
