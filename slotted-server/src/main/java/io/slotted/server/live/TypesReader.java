package io.slotted.server.live;

import io.slotted.Limits;
import io.slotted.RankedCounter;
import io.slotted.RegisteredType;
import io.slotted.SlottedConfig;
import io.slotted.SlottedCounters;
import io.slotted.TimeBuckets;
import io.slotted.server.names.CounterNaming;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Reads, from the database, what the live page shows of the counter types: every type the service
 * knows — named with {@code --types}, given buckets or limits, or held by the type registry that
 * every process follows — with its slots, limits, binding and roll-up lag; and for each type that
 * keeps time buckets, its top counters over the last hour, named as clients named them.
 */
final class TypesReader {
    /** How many counters each top list holds. */
    static final int TOP = 10;
    /** The window of the top lists. */
    static final Duration TOP_WINDOW = Duration.ofHours(1);

    private final SlottedCounters counters;
    private final CounterNaming naming;

    TypesReader(SlottedCounters counters, CounterNaming naming) {
        this.counters = counters;
        this.naming = naming;
    }

    /** The types and the top lists, as read at one moment. */
    record Read(List<LiveReport.TypeRow> types, List<LiveReport.TopCounters> top) {
    }

    /**
     * Reads both.
     *
     * @param now the moment the lags and the top window are measured from
     * @return what was read
     * @throws io.slotted.SlottedException if the database fails
     */
    Read read(Instant now) {
        SlottedConfig config = counters.config();
        Map<Integer, String> names = naming.pinned().asMap().entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getValue, Map.Entry::getKey));
        Map<Integer, RegisteredType> registered = counters.admin().types().stream()
                .collect(Collectors.toMap(RegisteredType::recordType, Function.identity()));
        SortedSet<Integer> known = new TreeSet<>(names.keySet());
        known.addAll(config.buckets().keySet());
        known.addAll(config.limits().keySet());
        known.addAll(registered.keySet());
        List<LiveReport.TypeRow> types = new ArrayList<>();
        List<LiveReport.TopCounters> top = new ArrayList<>();
        for (int type : known) {
            types.add(row(type, names.get(type), registered.get(type), now));
            config.buckets(type).ifPresent(buckets -> top.add(top(type, names.get(type), buckets, now)));
        }
        return new Read(types, top);
    }

    private LiveReport.TypeRow row(int type, String name, RegisteredType registered, Instant now) {
        SlottedConfig config = counters.config();
        Limits limits = registered != null ? registered.limits() : config.limits(type);
        return new LiveReport.TypeRow(type, name,
                registered != null ? registered.slots() : config.slots(type),
                limits.min() == Long.MIN_VALUE ? null : limits.min(),
                limits.max() == Long.MAX_VALUE ? null : limits.max(),
                registered == null ? null : registered.owner().map(Object::toString).orElse(null),
                registered == null ? null : registered.mode().map(m -> m.name().toLowerCase(Locale.ROOT)).orElse(null),
                registered == null ? null : registered.rolledUpThrough()
                        .map(at -> Math.max(0, Duration.between(at, now).toMillis()) / 1000.0).orElse(null),
                config.buckets(type).map(TypesReader::describe).orElse(null));
    }

    /**
     * The counters with the most added in the buckets that overlap the last hour (or as much of it
     * as the type keeps), so the window starts at the start of a bucket: with hour buckets it
     * holds the last hour's bucket and the current one.
     */
    private LiveReport.TopCounters top(int type, String name, TimeBuckets buckets, Instant now) {
        Instant oldestKept = buckets.unit().startOf(now).minus(buckets.retention());
        Instant from = buckets.unit().startOf(max(now.minus(TOP_WINDOW), oldestKept));
        List<RankedCounter> ranked = counters.timeSeries().top(type, from, now, TOP);
        Map<Long, String> ids = new HashMap<>(naming.names().idsOf(type,
                ranked.stream().map(RankedCounter::recordId).toList()));
        return new LiveReport.TopCounters(type, name, from.toString(), now.toString(), ranked.stream()
                .map(r -> new LiveReport.Ranked(ids.containsKey(r.recordId()) ? ids.get(r.recordId())
                        : (Object) r.recordId(), r.count()))
                .toList());
    }

    private static Instant max(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }

    /** As {@code --buckets} takes it: {@code hour:30d}. */
    private static String describe(TimeBuckets buckets) {
        Duration retention = buckets.retention();
        String kept = retention.toDaysPart() > 0 && retention.toHoursPart() == 0 && retention.toMinutesPart() == 0
                ? retention.toDays() + "d"
                : retention.toMinutes() % 60 == 0 ? retention.toHours() + "h" : retention.toMinutes() + "m";
        return buckets.unit().name().toLowerCase(Locale.ROOT) + ":" + kept;
    }
}
