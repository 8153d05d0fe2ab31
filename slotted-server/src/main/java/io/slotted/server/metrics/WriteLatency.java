package io.slotted.server.metrics;

import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * How long writes wait for their answer: from a write's arrival at a front end (an HTTP
 * increment or batch, a Redis-protocol {@code INCR} and its kin) to its acknowledgement, which in
 * {@code GROUPED} and {@code DIRECT} mode is its commit. The live page shows its percentiles second
 * by second.
 *
 * <p>A front end records every write it answers without an error, from many threads at once, so
 * recording must cost next to nothing: HdrHistogram's {@link Recorder} records without locks into
 * one histogram while the reader swaps in another, and {@link #interval()} hands over what the
 * last interval recorded. Values are microseconds, kept to 2 significant digits (1 %), up to an
 * hour; a longer wait is recorded as an hour.
 */
public final class WriteLatency {
    private static final long MAX_MICROS = TimeUnit.HOURS.toMicros(1);

    private final Recorder recorder = new Recorder(1, MAX_MICROS, 2);
    private Histogram recycled;

    /**
     * Records one answered write.
     *
     * @param nanos how long it took, from its arrival to its answer
     */
    public void record(long nanos) {
        recorder.recordValue(Math.min(MAX_MICROS, Math.max(1, nanos / 1000)));
    }

    /**
     * What was recorded since the last call, and starts a new interval. One reader at a time.
     *
     * @return the interval's latencies
     */
    public synchronized Percentiles interval() {
        recycled = recorder.getIntervalHistogram(recycled);
        return Percentiles.of(recycled);
    }

    /**
     * One interval's latencies in milliseconds; all 0 when nothing was recorded.
     *
     * @param writes how many writes were recorded
     * @param p50 the median
     * @param p90 the 90th percentile
     * @param p99 the 99th percentile
     * @param max the longest
     */
    public record Percentiles(long writes, double p50, double p90, double p99, double max) {
        /** No writes. */
        public static final Percentiles NONE = new Percentiles(0, 0, 0, 0, 0);

        static Percentiles of(Histogram micros) {
            if (micros.getTotalCount() == 0) {
                return NONE;
            }
            return new Percentiles(micros.getTotalCount(), millis(micros.getValueAtPercentile(50)),
                    millis(micros.getValueAtPercentile(90)), millis(micros.getValueAtPercentile(99)),
                    millis(micros.getMaxValue()));
        }

        /** Milliseconds to the microsecond. */
        private static double millis(long micros) {
            return micros / 1000.0;
        }
    }
}
