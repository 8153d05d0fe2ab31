package io.slotted.micrometer;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.slotted.SlottedCounters;
import io.slotted.SlottedStats;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * Publishes what a {@link SlottedCounters} instance reports in {@link SlottedCounters#stats()} as
 * Micrometer meters: increments applied and dropped, retries, flushes with their durations and
 * sizes, commits with an unknown outcome and how many of those were resolved, the queue's depth
 * and capacity, and the roll-ups into owner columns with how far those columns trail.
 *
 * <pre>{@code
 * new SlottedMetrics(counters).bindTo(meterRegistry);
 * }</pre>
 *
 * <p>Each meter reads a fresh snapshot when it is published, so nothing is counted twice and no
 * background thread is needed. No meter has a tag: record types and ids have no bound, and tags
 * must stay low in cardinality. Bind one instance of counters per registry; a second would
 * register the same names.
 */
public final class SlottedMetrics implements MeterBinder {
    private final SlottedCounters counters;

    /**
     * Meters for one instance of counters, registered by {@link #bindTo(MeterRegistry)}.
     *
     * @param counters the counters whose statistics to publish
     * @throws NullPointerException if {@code counters} is null
     */
    public SlottedMetrics(SlottedCounters counters) {
        this.counters = Objects.requireNonNull(counters, "counters must not be null");
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        counter(registry, "slotted.increments.applied", "increments written durably",
                SlottedStats::incrementsApplied);
        counter(registry, "slotted.increments.dropped", "BUFFERED increments that could not be written",
                SlottedStats::incrementsDropped);
        counter(registry, "slotted.retries", "attempts repeated after a deadlock, lock wait,"
                + " serialization failure or lost connection", SlottedStats::retries);
        counter(registry, "slotted.flushes", "group-commit transactions committed",
                SlottedStats::flushes);
        counter(registry, "slotted.flush.increments", "increments written by group-commit flushes;"
                + " divided by slotted.flushes, the mean flush size", SlottedStats::flushedIncrements);
        counter(registry, "slotted.commit.outcomes.unknown", "flushes whose connection was lost"
                + " during COMMIT", SlottedStats::outcomesUnknown);
        counter(registry, "slotted.commit.outcomes.resolved", "unknown commit outcomes that the"
                + " flush ledger resolved", SlottedStats::outcomesResolved);
        FunctionTimer.builder("slotted.flush", counters, c -> c.stats().flushes(),
                        c -> c.stats().flushNanos(), TimeUnit.NANOSECONDS)
                .description("group-commit flushes and the time they took, from the first attempt"
                        + " to the commit")
                .register(registry);
        Gauge.builder("slotted.queue.depth", counters, c -> c.stats().queued())
                .description("increments waiting for a flush")
                .register(registry);
        Gauge.builder("slotted.queue.capacity", counters, c -> c.config().queueCapacity())
                .description("how many increments may wait for a flush before callers are held back")
                .register(registry);
        counter(registry, "slotted.rollups", "roll-ups of a counter type bound to an owner column"
                + " that this process completed", SlottedStats::rollUps);
        counter(registry, "slotted.rollup.counters", "counters whose owner column this process's"
                + " roll-ups wrote", SlottedStats::countersRolledUp);
        Gauge.builder("slotted.rollup.lag", counters, c -> lagSeconds(c.stats()))
                .description("how far the owner columns may trail their counters, over every bound"
                        + " type: the time since the start of the last completed roll-up by any"
                        + " process; NaN while no type is bound")
                .baseUnit("seconds")
                .register(registry);
    }

    /** The roll-up lag in seconds, or NaN when there is none to report. */
    private static double lagSeconds(SlottedStats stats) {
        long millis = stats.rollUpLagMillis();
        return millis < 0 ? Double.NaN : millis / 1000.0;
    }

    private void counter(MeterRegistry registry, String name, String description,
            ToDoubleFunction<SlottedStats> value) {
        FunctionCounter.builder(name, counters, c -> value.applyAsDouble(c.stats()))
                .description(description)
                .register(registry);
    }
}
