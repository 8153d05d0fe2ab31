package io.slotted.campaign.workload;

import io.slotted.Limits;
import io.slotted.campaign.history.Counter;
import java.util.List;
import java.util.Map;

/** The counters the campaign writes: a few hot ones every client shares, and stock that must never go below 0. */
public final class CampaignTypes {
    /** Plain counters. */
    public static final int HOT = 1;
    /** Bounded counters: at least 0. */
    public static final int STOCK = 2;

    /** Every counter the workload touches. */
    public static final List<Counter> HOT_COUNTERS = List.of(new Counter(HOT, 1), new Counter(HOT, 2),
            new Counter(HOT, 3), new Counter(HOT, 4));
    public static final List<Counter> STOCK_COUNTERS = List.of(new Counter(STOCK, 1), new Counter(STOCK, 2));

    private CampaignTypes() {
    }

    /** Every counter the workload touches. */
    public static List<Counter> all() {
        return java.util.stream.Stream.concat(HOT_COUNTERS.stream(), STOCK_COUNTERS.stream()).toList();
    }

    /** The limits the checker holds each counter to. */
    public static Map<Counter, Limits> limits() {
        Map<Counter, Limits> limits = new java.util.HashMap<>();
        STOCK_COUNTERS.forEach(counter -> limits.put(counter, Limits.atLeast(0)));
        return limits;
    }
}
