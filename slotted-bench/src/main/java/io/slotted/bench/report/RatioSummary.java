package io.slotted.bench.report;

import io.slotted.bench.CellResult;
import io.slotted.bench.Workload;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The per-cell ratios over every round: for each workload, strategy and writer count, the median
 * of its per-round ratios to each yardstick. The median of ratios rather than the ratio of median
 * throughputs, so that every ratio behind it still compares two strategies measured in the same
 * round.
 */
final class RatioSummary {

    private RatioSummary() {
    }

    /**
     * The summary as a table, with a column for each yardstick that ran.
     *
     * @param cells every cell of the grid
     * @return one row per workload, strategy and writer count, in the order they first ran
     */
    static ResultTable table(List<CellComparison> cells) {
        List<String> yardsticks = CellComparison.YARDSTICKS.stream().filter(y -> cells.stream()
                .anyMatch(cell -> cell.results().stream().anyMatch(r -> r.strategy().equals(y))))
                .toList();
        List<String> headers = new ArrayList<>(List.of("workload", "strategy", "writers", "rounds"));
        yardsticks.forEach(y -> headers.add("× " + y));
        Map<String, Row> rows = new LinkedHashMap<>();
        for (CellComparison cell : cells) {
            for (CellResult result : cell.results()) {
                rows.computeIfAbsent(cell.workload() + "/" + result.strategy() + "/" + cell.writers(),
                        k -> new Row(cell.workload(), result.strategy(), cell.writers()))
                        .add(cell, result, yardsticks);
            }
        }
        return ResultTable.of(headers, rows.values().stream().map(row -> row.cells(yardsticks)).toList());
    }

    /** A strategy at one workload and writer count: its ratios to each yardstick, round by round. */
    private static final class Row {
        private final Workload workload;
        private final String strategy;
        private final int writers;
        private final Map<String, List<Double>> ratios = new LinkedHashMap<>();
        private int rounds;

        Row(Workload workload, String strategy, int writers) {
            this.workload = workload;
            this.strategy = strategy;
            this.writers = writers;
        }

        void add(CellComparison cell, CellResult result, List<String> yardsticks) {
            rounds++;
            for (String yardstick : yardsticks) {
                cell.ratio(result, yardstick).ifPresent(ratio ->
                        ratios.computeIfAbsent(yardstick, y -> new ArrayList<>()).add(ratio));
            }
        }

        List<String> cells(List<String> yardsticks) {
            List<String> cells = new ArrayList<>(List.of(workload.label(), strategy,
                    String.valueOf(writers), String.valueOf(rounds)));
            for (String yardstick : yardsticks) {
                List<Double> values = ratios.get(yardstick);
                cells.add(values == null ? "-" : CellComparison.times(median(values)));
            }
            return cells;
        }

        private static double median(List<Double> values) {
            List<Double> sorted = values.stream().sorted().toList();
            int middle = sorted.size() / 2;
            return sorted.size() % 2 == 1 ? sorted.get(middle)
                    : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
        }
    }
}
