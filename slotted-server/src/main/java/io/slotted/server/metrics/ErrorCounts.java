package io.slotted.server.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Errors answered, counted by front end and error code in {@code slotted.errors}: what the live
 * page shows as errors by code, and what an alert on a rising rate of {@code limit_exceeded} or
 * {@code database_unavailable} reads.
 *
 * <p>Both tags come from closed sets the front ends own (the HTTP service's error codes, the first
 * word of a Redis-protocol error the service wrote), never from what a client sent, so the number of
 * series stays bounded.
 */
public final class ErrorCounts {
    /** The meter's name. */
    public static final String NAME = "slotted.errors";

    private final MeterRegistry registry;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();

    ErrorCounts(MeterRegistry registry) {
        this.registry = registry;
    }

    /**
     * Counts one error answer.
     *
     * @param frontEnd the front end that answered, such as {@code http}
     * @param code its error code, from the front end's closed set
     */
    public void count(String frontEnd, String code) {
        counters.computeIfAbsent(frontEnd + ' ' + code, key -> Counter.builder(NAME)
                .description("Error answers by front end and error code")
                .tag("front_end", frontEnd)
                .tag("code", code)
                .register(registry)).increment();
    }
}
