package io.slotted.bench.report;

import io.slotted.bench.CellResult;
import io.slotted.bench.Workload;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.stream.Collectors;

/**
 * The strategies of one cell of the grid (one workload, writer count and round) side by side, each
 * as a multiple of the yardsticks that ran in the same cell: {@code redis} for in-memory speed,
 * {@code direct} for one durable write per increment, {@code ceiling} for the hand-off alone.
 * Ratios are taken within a round, where a slow spell of the machine hits both sides alike, which
 * is why they are more telling on this noisy machine than throughputs compared across rounds.
 *
 * @param workload which counters were incremented
 * @param writers how many writers
 * @param round from 1
 * @param results the cell's strategies, in the order they ran
 */
public record CellComparison(Workload workload, int writers, int round, List<CellResult> results) {
    /** The strategies others are measured against, in the order their ratios are shown. */
    public static final List<String> YARDSTICKS = List.of("redis", "direct", "ceiling");

    /**
     * Groups results by workload, writer count and round, in the order the cells ran.
     *
     * @param results every cell's result
     * @return one comparison per cell of the grid
     */
    public static List<CellComparison> of(List<CellResult> results) {
        Map<String, List<CellResult>> cells = new LinkedHashMap<>();
        for (CellResult result : results) {
            String key = result.workload() + "/" + result.writers() + "/" + result.round();
            cells.computeIfAbsent(key, k -> new ArrayList<>()).add(result);
        }
        return cells.values().stream().map(cell -> new CellComparison(cell.get(0).workload(),
                cell.get(0).writers(), cell.get(0).round(), List.copyOf(cell))).toList();
    }

    /**
     * Whether any yardstick ran at all, without which there is no ratio to show.
     *
     * @param results every cell's result
     * @return true if {@code redis}, {@code direct} or {@code ceiling} ran
     */
    public static boolean anyYardstick(List<CellResult> results) {
        return results.stream().anyMatch(r -> YARDSTICKS.contains(r.strategy()));
    }

    /**
     * One strategy's throughput divided by a yardstick's in this cell.
     *
     * @param result one of this cell's results
     * @param yardstick such as {@code redis}
     * @return the ratio; empty if the yardstick did not run here, measured nothing, or is the
     *     strategy itself
     */
    public OptionalDouble ratio(CellResult result, String yardstick) {
        if (result.strategy().equals(yardstick)) {
            return OptionalDouble.empty();
        }
        return results.stream().filter(r -> r.strategy().equals(yardstick) && r.throughput() > 0)
                .mapToDouble(r -> result.throughput() / r.throughput()).findFirst();
    }

    /**
     * The cell on one line, such as {@code hot 64w r1: grouped 98.1k/s = 0.62× redis, 3.9×
     * direct, 0.40× ceiling · p99 4.1 ms | direct 14.6k/s = …}.
     *
     * @return the line, without a line break
     */
    public String line() {
        return String.format(Locale.ROOT, "%s %dw r%d: ", workload.label(), writers, round)
                + results.stream().map(this::describe).collect(Collectors.joining(" | "));
    }

    private String describe(CellResult result) {
        List<String> ratios = new ArrayList<>();
        for (String yardstick : YARDSTICKS) {
            ratio(result, yardstick).ifPresent(ratio -> ratios.add(times(ratio) + " " + yardstick));
        }
        return result.strategy() + " " + rate(result.throughput())
                + (ratios.isEmpty() ? "" : " = " + String.join(", ", ratios))
                + " · p99 " + ResultTable.millis(result.latency().percentileMillis(99)) + " ms"
                + (result.exact() ? "" : " (NOT exact)");
    }

    /** Increments per second, three digits: {@code 950/s}, {@code 98.1k/s}, {@code 2.46M/s}. */
    static String rate(double perSecond) {
        if (perSecond < 1_000) {
            return String.format(Locale.ROOT, "%.0f/s", perSecond);
        }
        if (perSecond < 1_000_000) {
            double k = perSecond / 1_000;
            return String.format(Locale.ROOT, k < 10 ? "%.2fk/s" : k < 100 ? "%.1fk/s" : "%.0fk/s", k);
        }
        double m = perSecond / 1_000_000;
        return String.format(Locale.ROOT, m < 10 ? "%.2fM/s" : m < 100 ? "%.1fM/s" : "%.0fM/s", m);
    }

    /** A ratio in two or three digits: {@code 0.062×}, {@code 0.62×}, {@code 3.9×}, {@code 39×}. */
    static String times(double ratio) {
        String format = ratio < 0.1 ? "%.3f×" : ratio < 1 ? "%.2f×" : ratio < 10 ? "%.1f×" : "%.0f×";
        return String.format(Locale.ROOT, format, ratio);
    }
}
