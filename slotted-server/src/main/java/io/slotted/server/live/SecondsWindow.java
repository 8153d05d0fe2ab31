package io.slotted.server.live;

import io.slotted.SlottedStats;
import io.slotted.server.metrics.WriteLatency;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The last {@value #KEPT} seconds of the counters' work, one entry per sample: the increments and
 * flushes since the previous sample (told apart from the engine's running totals), the mean flush
 * size, the write latencies the front ends recorded, and the queue at the sample. Memory is fixed:
 * the oldest second leaves as a new one arrives. Only the sampler's thread adds; readers get a
 * copy.
 */
final class SecondsWindow {
    /** Seconds kept: the span of the page's charts. */
    static final int KEPT = 120;

    private final ArrayDeque<Second> seconds = new ArrayDeque<>(KEPT);
    private SlottedStats previous;

    /** One sample. */
    private record Second(long at, long increments, long flushes, double meanFlushSize,
            WriteLatency.Percentiles latency, int queued) {
    }

    /**
     * Adds a sample: what happened since the previous one.
     *
     * @param atMillis when it was taken
     * @param stats the engine's running totals now
     * @param latency the write latencies recorded since the previous sample
     */
    void add(long atMillis, SlottedStats stats, WriteLatency.Percentiles latency) {
        SlottedStats before = previous == null ? stats : previous;
        previous = stats;
        long flushes = stats.flushes() - before.flushes();
        long flushed = stats.flushedIncrements() - before.flushedIncrements();
        if (seconds.size() == KEPT) {
            seconds.removeFirst();
        }
        seconds.addLast(new Second(atMillis, stats.incrementsApplied() - before.incrementsApplied(), flushes,
                flushes == 0 ? 0 : (double) flushed / flushes, latency, stats.queued()));
    }

    /**
     * The seconds kept, as columns.
     *
     * @return a copy, oldest first
     */
    LiveReport.Seconds columns() {
        return new LiveReport.Seconds(column(Second::at), column(Second::increments), column(Second::flushes),
                column(Second::meanFlushSize), column(s -> s.latency().p50()), column(s -> s.latency().p90()),
                column(s -> s.latency().p99()), column(s -> s.latency().max()), column(Second::queued));
    }

    private <T> List<T> column(Function<Second, T> value) {
        List<T> column = new ArrayList<>(seconds.size());
        seconds.forEach(second -> column.add(value.apply(second)));
        return column;
    }
}
