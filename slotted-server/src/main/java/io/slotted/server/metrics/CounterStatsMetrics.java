package io.slotted.server.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.slotted.SlottedCounters;
import io.slotted.SlottedStats;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * Publishes what the counters engine reports in {@link SlottedCounters#stats()}: increments
 * applied and dropped, retries, flushes and their durations, commits with an unknown outcome and
 * how many of those were resolved, and the queue's depth. Each meter reads a fresh snapshot when scraped, so nothing is
 * counted twice and no background thread is needed.
 */
final class CounterStatsMetrics implements MeterBinder {
    private final SlottedCounters counters;

    CounterStatsMetrics(SlottedCounters counters) {
        this.counters = counters;
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
        counter(registry, "slotted.commit.outcomes.unknown", "flushes whose connection was lost"
                + " during COMMIT", SlottedStats::outcomesUnknown);
        counter(registry, "slotted.commit.outcomes.resolved", "unknown commit outcomes that the"
                + " flush ledger resolved", SlottedStats::outcomesResolved);
        FunctionTimer.builder("slotted.flush", counters, c -> c.stats().flushes(),
                        c -> c.stats().flushNanos(), TimeUnit.NANOSECONDS)
                .description("group-commit flushes and the time they took; increments applied per"
                        + " flush is slotted.increments.applied over this count")
                .register(registry);
        Gauge.builder("slotted.queue.depth", counters, c -> c.stats().queued())
                .description("increments waiting for a flush")
                .register(registry);
    }

    private void counter(MeterRegistry registry, String name, String description,
            ToDoubleFunction<SlottedStats> value) {
        FunctionCounter.builder(name, counters, c -> value.applyAsDouble(c.stats()))
                .description(description)
                .register(registry);
    }
}
