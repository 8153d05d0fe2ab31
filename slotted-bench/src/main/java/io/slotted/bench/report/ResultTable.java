package io.slotted.bench.report;

import io.slotted.bench.Summary;
import io.slotted.bench.Workload;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The results as a table, rendered for the terminal or as Markdown: one table of every cell, and
 * one of how {@code grouped} compares with the other strategies at each writer count.
 */
public final class ResultTable {
    private final List<String> headers;
    private final List<List<String>> rows;

    private ResultTable(List<String> headers, List<List<String>> rows) {
        this.headers = headers;
        this.rows = rows;
    }

    /** A table of the given cells, for the other reports of this package. */
    static ResultTable of(List<String> headers, List<List<String>> rows) {
        return new ResultTable(List.copyOf(headers), List.copyOf(rows));
    }

    /**
     * Every cell: throughput, latency percentiles, errors, exactness and, for group commit, how
     * many increments each flush carried.
     *
     * @param summaries the cells, in the order to show them
     * @return the table
     */
    public static ResultTable results(List<Summary> summaries) {
        List<List<String>> rows = new ArrayList<>();
        for (Summary s : summaries) {
            rows.add(List.of(s.workload().label(), s.strategy(), String.valueOf(s.writers()),
                    String.format(Locale.ROOT, "%,.0f", s.throughput()),
                    millis(s.latency().percentileMillis(50)), millis(s.latency().percentileMillis(99)),
                    millis(s.latency().maxMillis()), String.valueOf(s.errors()),
                    String.valueOf(s.exact()), perFlush(s), retries(s)));
        }
        return new ResultTable(List.of("workload", "strategy", "writers", "ops/s", "p50 ms",
                "p99 ms", "max ms", "errors", "exact", "incr/flush", "retries"), rows);
    }

    /**
     * Per workload and writer count, {@code grouped}'s throughput divided by each other
     * strategy's: {@code direct}, {@code single-row} and {@code redis} where they ran.
     *
     * @param summaries the cells
     * @return the table; empty if {@code grouped} did not run
     */
    public static ResultTable ratios(List<Summary> summaries) {
        List<String> others = new ArrayList<>(List.of("direct", "single-row", "redis"));
        others.removeIf(name -> summaries.stream().noneMatch(s -> s.strategy().equals(name)));
        List<String> headers = new ArrayList<>(List.of("workload", "writers"));
        others.forEach(other -> headers.add("grouped/" + other));
        List<List<String>> rows = new ArrayList<>();
        for (Summary grouped : summaries) {
            if (grouped.strategy().equals("grouped")) {
                List<String> row = new ArrayList<>(List.of(grouped.workload().label(),
                        String.valueOf(grouped.writers())));
                others.forEach(other -> row.add(find(summaries, grouped.workload(), other,
                        grouped.writers()).map(o -> ratio(grouped.throughput(), o.throughput()))
                        .orElse("-")));
                rows.add(row);
            }
        }
        return new ResultTable(headers, rows);
    }

    /**
     * The table aligned in columns for a terminal.
     *
     * @return lines separated by newlines
     */
    public String text() {
        int[] widths = widths();
        StringBuilder out = new StringBuilder();
        appendAligned(out, headers, widths);
        out.append(String.join("  ", dashes(widths))).append('\n');
        rows.forEach(row -> appendAligned(out, row, widths));
        return out.toString();
    }

    /**
     * The table in Markdown, numbers right-aligned.
     *
     * @return the Markdown
     */
    public String markdown() {
        StringBuilder out = new StringBuilder("| ").append(String.join(" | ", headers)).append(" |\n|");
        for (int i = 0; i < headers.size(); i++) {
            out.append(i < textColumns() ? "---|" : "---:|");
        }
        out.append('\n');
        rows.forEach(row -> out.append("| ").append(String.join(" | ", row)).append(" |\n"));
        return out.toString();
    }

    /**
     * Whether the table has no rows.
     *
     * @return true if empty
     */
    public boolean isEmpty() {
        return rows.isEmpty();
    }

    /** Workload and strategy names read best left-aligned; every later column is a number. */
    private int textColumns() {
        return headers.contains("strategy") ? 2 : 1;
    }

    private void appendAligned(StringBuilder out, List<String> cells, int[] widths) {
        for (int i = 0; i < cells.size(); i++) {
            String cell = cells.get(i);
            String pad = " ".repeat(widths[i] - cell.length());
            out.append(i == 0 ? "" : "  ").append(i < textColumns() ? cell + pad : pad + cell);
        }
        out.append('\n');
    }

    private int[] widths() {
        int[] widths = headers.stream().mapToInt(String::length).toArray();
        for (List<String> row : rows) {
            for (int i = 0; i < row.size(); i++) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        return widths;
    }

    private static List<String> dashes(int[] widths) {
        List<String> dashes = new ArrayList<>();
        for (int width : widths) {
            dashes.add(String.join("", Collections.nCopies(width, "-")));
        }
        return dashes;
    }

    private static Optional<Summary> find(List<Summary> summaries, Workload workload,
            String strategy, int writers) {
        return summaries.stream().filter(s -> s.workload() == workload
                && s.strategy().equals(strategy) && s.writers() == writers).findFirst();
    }

    private static String ratio(double numerator, double denominator) {
        return denominator > 0 ? String.format(Locale.ROOT, "%.2fx", numerator / denominator) : "-";
    }

    private static String perFlush(Summary s) {
        double perFlush = s.incrementsPerFlush();
        return perFlush < 0 ? "-" : String.format(Locale.ROOT, "%.1f", perFlush);
    }

    private static String retries(Summary s) {
        return s.engine().retries() < 0 ? "-" : String.valueOf(s.engine().retries());
    }

    /**
     * Milliseconds with about three significant digits.
     *
     * @param millis a latency
     * @return the formatted latency
     */
    public static String millis(double millis) {
        String format = millis < 0.001 ? "%.5f" : millis < 0.01 ? "%.4f" : millis < 1 ? "%.3f"
                : millis < 100 ? "%.2f" : "%.0f";
        return String.format(Locale.ROOT, format, millis);
    }
}
