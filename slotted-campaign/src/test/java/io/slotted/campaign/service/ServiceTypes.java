package io.slotted.campaign.service;

import io.slotted.Limits;
import io.slotted.campaign.history.Counter;
import io.slotted.campaign.workload.CampaignTypes;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * How the service names the campaign's counters: each {@link CampaignTypes} number pinned to a type
 * name with {@code serve --types}, so that {@code hot:3} on the Redis port, {@code /v1/counters/hot/3}
 * over HTTP and the row {@code (1, 3)} the final read finds are one counter; ids are the numbers
 * themselves.
 */
final class ServiceTypes {
    private static final Map<Integer, String> NAMES = Map.of(CampaignTypes.HOT, "hot", CampaignTypes.STOCK, "stock",
            CampaignTypes.RESET, "reset", CampaignTypes.EXPIRING, "expiring");

    private ServiceTypes() {
    }

    /** The counter's type name, as both front ends take it. */
    static String typeName(Counter counter) {
        String name = NAMES.get(counter.type());
        if (name == null) {
            throw new IllegalArgumentException("the service campaign names the types " + NAMES + ", but was given "
                    + counter);
        }
        return name;
    }

    /** The Redis key: {@code TYPE:ID}. */
    static String respKey(Counter counter) {
        return typeName(counter) + ":" + counter.id();
    }

    /** The HTTP path of the counter. */
    static String httpPath(Counter counter) {
        return "/v1/counters/" + typeName(counter) + "/" + counter.id();
    }

    /** {@code serve --types}: every name pinned to its number. */
    static String typesOption() {
        return NAMES.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .map(entry -> entry.getValue() + "=" + entry.getKey()).collect(Collectors.joining(","));
    }

    /** {@code serve --expiring}: the type whose counters expire. */
    static String expiringOption() {
        return NAMES.get(CampaignTypes.EXPIRING);
    }

    /** {@code serve --limits}: the limits the checker holds each bounded type to, as the service takes them. */
    static String limitsOption() {
        return CampaignTypes.limits().entrySet().stream().filter(entry -> NAMES.containsKey(entry.getKey().type()))
                .map(entry -> NAMES.get(entry.getKey().type()) + "="
                + bounds(entry.getValue())).distinct().sorted().collect(Collectors.joining(","));
    }

    private static String bounds(Limits limits) {
        return (limits.min() == Long.MIN_VALUE ? "" : Long.toString(limits.min())) + ".."
                + (limits.max() == Long.MAX_VALUE ? "" : Long.toString(limits.max()));
    }
}
