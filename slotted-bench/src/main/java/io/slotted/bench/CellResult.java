package io.slotted.bench;

import io.slotted.bench.strategy.EngineCounts;

/**
 * What one cell measured: one strategy, workload and writer count, in one round.
 *
 * @param workload which counters were incremented
 * @param strategy the strategy's name
 * @param writers how many writer threads
 * @param threads what the writers ran on
 * @param round from 1
 * @param measuredOps increments acknowledged inside the measured window (after warm-up)
 * @param measuredSeconds the measured window's length
 * @param latency every acknowledged call's latency inside the window: one increment, or all of a
 *     call's when the strategy makes several at once
 * @param errors calls that failed, in the window or out of it
 * @param firstError the first failure's message, or null
 * @param acknowledged every acknowledged increment, warm-up included: what the store must hold
 * @param stored what the store held once drained
 * @param wrongCounters counters whose stored total differs from what their writers were told
 * @param drainMillis how long making everything durable took after the writers stopped
 * @param engine the engine's own counts, or {@link EngineCounts#NONE}
 */
public record CellResult(Workload workload, String strategy, int writers, ThreadKind threads, int round,
        long measuredOps, double measuredSeconds, LatencyRecorder latency, long errors,
        String firstError, long acknowledged, long stored, int wrongCounters, long drainMillis,
        EngineCounts engine) {

    /**
     * Acknowledged increments per second in the measured window.
     *
     * @return the throughput
     */
    public double throughput() {
        return measuredOps / measuredSeconds;
    }

    /**
     * Whether the store holds exactly what writers were told: the same total and the same value
     * for every single counter.
     *
     * @return true if exact
     */
    public boolean exact() {
        return acknowledged == stored && wrongCounters == 0;
    }
}
