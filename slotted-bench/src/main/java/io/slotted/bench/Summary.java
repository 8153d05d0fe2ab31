package io.slotted.bench;

import io.slotted.bench.strategy.EngineCounts;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One strategy, workload and writer count over every round: the median round's throughput, so one
 * noisy round does not move it, and latencies over every increment of every round.
 *
 * @param workload which counters were incremented
 * @param strategy the strategy's name
 * @param writers how many writer threads
 * @param rounds how many rounds were run
 * @param throughput the median round's increments per second
 * @param latency every round's latencies together
 * @param errors failed increments over all rounds
 * @param firstError the first failure's message, or null
 * @param exact whether every round's store held exactly what was acknowledged
 * @param engine the engine's counts over all rounds
 * @param acknowledged acknowledged increments of all rounds, warm-up included
 */
public record Summary(Workload workload, String strategy, int writers, int rounds,
        double throughput, LatencyRecorder latency, long errors, String firstError, boolean exact,
        EngineCounts engine, long acknowledged) {

    /**
     * Groups cell results by workload, strategy and writers, keeping the order they first ran in.
     *
     * @param results every cell's result
     * @return one summary per group
     */
    public static List<Summary> of(List<CellResult> results) {
        Map<String, List<CellResult>> groups = new LinkedHashMap<>();
        for (CellResult result : results) {
            String key = result.workload() + "/" + result.strategy() + "/" + result.writers();
            groups.computeIfAbsent(key, k -> new ArrayList<>()).add(result);
        }
        return groups.values().stream().map(Summary::ofRounds).toList();
    }

    private static Summary ofRounds(List<CellResult> rounds) {
        CellResult first = rounds.get(0);
        LatencyRecorder latency = new LatencyRecorder();
        EngineCounts engine = EngineCounts.NONE;
        long errors = 0;
        long ops = 0;
        boolean exact = true;
        String firstError = null;
        for (CellResult round : rounds) {
            latency.add(round.latency());
            engine = engine.plus(round.engine());
            errors += round.errors();
            ops += round.acknowledged();
            exact &= round.exact();
            firstError = firstError != null ? firstError : round.firstError();
        }
        return new Summary(first.workload(), first.strategy(), first.writers(), rounds.size(),
                median(rounds), latency, errors, firstError, exact, engine, ops);
    }

    private static double median(List<CellResult> rounds) {
        List<Double> sorted = rounds.stream().map(CellResult::throughput)
                .sorted(Comparator.naturalOrder()).toList();
        int middle = sorted.size() / 2;
        return sorted.size() % 2 == 1 ? sorted.get(middle)
                : (sorted.get(middle - 1) + sorted.get(middle)) / 2;
    }

    /**
     * Increments per committed flush, for group-commit strategies.
     *
     * @return the average batch, or -1 when the strategy does not flush
     */
    public double incrementsPerFlush() {
        return engine.flushes() > 0 ? (double) acknowledged / engine.flushes() : -1;
    }
}
