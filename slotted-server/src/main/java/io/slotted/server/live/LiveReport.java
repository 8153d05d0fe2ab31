package io.slotted.server.live;

import java.util.List;

/**
 * The body of {@code GET /v1/live}: what the live page shows, as the sampler last saw it.
 *
 * @param at when it was sampled (ISO-8601, UTC)
 * @param mode the write mode of the service
 * @param totals what the counters have done since the service started
 * @param queue increments waiting for a flush, and the room for them
 * @param connections the open connections of each front end
 * @param seconds the last seconds, oldest first, one entry per second in each array
 * @param errors the error answers since the service started, by front end and code
 * @param types the counter types the service knows: named with {@code --types}, configured, or in
 *     the database's type registry
 * @param top the counters with the most increments over the last hour, for each type that keeps
 *     time buckets
 * @param typesReadAt when {@code types} and {@code top} were read from the database, or null
 *     before the first read
 * @param problem why the last read of types and top counters failed, or null
 */
public record LiveReport(String at, String mode, Totals totals, Queue queue, Connections connections,
        Seconds seconds, List<ErrorCount> errors, List<TypeRow> types, List<TopCounters> top,
        String typesReadAt, String problem) {

    /**
     * Counts since the service started.
     *
     * @param incrementsApplied increments written durably
     * @param flushes group-commit transactions committed
     * @param retries attempts repeated after contention or a lost connection
     * @param outcomesUnknown flushes whose COMMIT's outcome was lost with their connection
     * @param incrementsDropped {@code BUFFERED} increments that could not be written
     */
    public record Totals(long incrementsApplied, long flushes, long retries, long outcomesUnknown,
            long incrementsDropped) {
    }

    /**
     * The group-commit queue.
     *
     * @param depth increments waiting now
     * @param capacity the most that may wait
     */
    public record Queue(int depth, int capacity) {
    }

    /**
     * Open connections.
     *
     * @param http of the HTTP front end
     * @param resp of the Redis-protocol front end, or null when it is not served
     */
    public record Connections(int http, Integer resp) {
    }

    /**
     * The last seconds as columns, oldest first, as charts take them.
     *
     * @param at each second's end (milliseconds since the epoch)
     * @param increments increments applied in the second
     * @param flushes flushes committed in the second
     * @param meanFlushSize increments per flush in the second, 0 without flushes
     * @param p50 the median write latency in the second (ms), 0 without writes
     * @param p90 the 90th percentile (ms)
     * @param p99 the 99th percentile (ms)
     * @param max the longest (ms)
     * @param queued increments waiting for a flush at the second's end
     */
    public record Seconds(List<Long> at, List<Long> increments, List<Long> flushes,
            List<Double> meanFlushSize, List<Double> p50, List<Double> p90, List<Double> p99,
            List<Double> max, List<Integer> queued) {
    }

    /**
     * One front end's answers with one error code.
     *
     * @param frontEnd {@code http} or {@code resp}
     * @param code the error code
     * @param count how many since the service started
     */
    public record ErrorCount(String frontEnd, String code, long count) {
    }

    /**
     * One counter type.
     *
     * @param recordType its number
     * @param name its name given with {@code --types}, or null
     * @param slots the slots its counters are spread over
     * @param min its lower limit, or null for none
     * @param max its upper limit, or null for none
     * @param owner the owner column it is bound to ({@code table.key.column}), or null
     * @param ownerMode {@code fold} or {@code copy}, or null when not bound
     * @param rollUpLagSeconds how far the owner column may trail, or null when not bound
     * @param buckets the time buckets it keeps ({@code hour:30d}), or null
     */
    public record TypeRow(int recordType, String name, int slots, Long min, Long max, String owner,
            String ownerMode, Double rollUpLagSeconds, String buckets) {
    }

    /**
     * The top counters of one type.
     *
     * @param recordType the type's number
     * @param name its name given with {@code --types}, or null
     * @param from the window's start (ISO-8601)
     * @param to the window's end (ISO-8601)
     * @param counters the counters, the most increments first
     */
    public record TopCounters(int recordType, String name, String from, String to, List<Ranked> counters) {
    }

    /**
     * One counter in a top list.
     *
     * @param id its id: the string it was named with, or its number
     * @param count its increments in the window
     */
    public record Ranked(Object id, long count) {
    }
}
