package io.slotted.bench;

import org.HdrHistogram.Histogram;

/**
 * The latencies of one writer's increments, then of a whole cell once the writers' recorders are
 * merged.
 *
 * <p>One recorder per thread, never shared, so recording costs a few nanoseconds and no lock. The
 * harness is closed-loop: a writer issues its next increment when the last returns, so these are
 * the latencies callers saw, not what an open stream of requests arriving on a schedule would see
 * (no correction for coordinated omission is attempted).
 */
public final class LatencyRecorder {
    private static final double NANOS_PER_MILLI = 1_000_000.0;

    /** Three significant digits: 0.1% resolution at any latency, auto-resized to any maximum. */
    private final Histogram histogram = new Histogram(3);

    /**
     * Records one increment's latency.
     *
     * @param nanos how long the call took
     */
    public void record(long nanos) {
        histogram.recordValue(Math.max(0, nanos));
    }

    /**
     * Adds another recorder's values to this one.
     *
     * @param other a recorder no thread writes to any more
     */
    public void add(LatencyRecorder other) {
        histogram.add(other.histogram);
    }

    /**
     * The latency at a percentile.
     *
     * @param percentile from 0 to 100
     * @return milliseconds; 0 when nothing was recorded
     */
    public double percentileMillis(double percentile) {
        return histogram.getValueAtPercentile(percentile) / NANOS_PER_MILLI;
    }

    /**
     * The longest latency.
     *
     * @return milliseconds; 0 when nothing was recorded
     */
    public double maxMillis() {
        return histogram.getMaxValue() / NANOS_PER_MILLI;
    }

    /**
     * How many latencies were recorded.
     *
     * @return the count
     */
    public long count() {
        return histogram.getTotalCount();
    }
}
