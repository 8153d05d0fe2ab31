package io.slotted.server.http;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.slotted.BucketCount;
import io.slotted.RankedCounter;
import io.slotted.SlottedCounters;
import io.slotted.TimeBuckets;
import io.slotted.server.auth.Scope;
import io.slotted.server.config.CounterType;
import io.slotted.server.config.WindowBound;
import io.slotted.server.http.error.ErrorCode;
import io.slotted.server.http.error.HttpError;
import io.slotted.server.http.response.JsonResponse;
import io.slotted.server.http.response.SeriesResponse;
import io.slotted.server.http.response.TopResponse;
import io.slotted.server.names.CounterNaming;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The time bucket reads of the HTTP contract: {@code GET /v1/counters/{type}/{id}/series} and
 * {@code GET /v1/counters/{type}/top}, with {@code from} and {@code to} as ISO-8601 instants or
 * dates.
 *
 * <p>The request is checked as far as it can be without the clock (token, type, id, that the type
 * keeps buckets, the bounds' syntax, {@code n}); the library checks the window against the
 * retention and the bucket limit, and its refusal is answered {@code bad_range}. The reads block,
 * so they run on {@link CounterWork}'s workers within the request deadline.
 */
final class BucketRoutes {
    /** The most counters one top-N may ask for. */
    static final int MAX_TOP = 1_000;
    private static final int DEFAULT_TOP = 10;

    private final SlottedCounters counters;
    private final CounterNaming naming;
    private final BearerAuth auth;
    private final CounterWork work;

    BucketRoutes(SlottedCounters counters, CounterNaming naming, BearerAuth auth, CounterWork work) {
        this.counters = counters;
        this.naming = naming;
        this.auth = auth;
        this.work = work;
    }

    /** Registers the routes; before the counter routes, so that {@code top} is not taken for an id. */
    void register(RoutesConfig routes) {
        HttpFrontEnd.getAndHead(routes, "/v1/counters/{type}/top", this::top);
        HttpFrontEnd.getAndHead(routes, "/v1/counters/{type}/{id}/series", this::series);
    }

    private void series(Context ctx) {
        auth.require(ctx, Scope.READ);
        CounterType type = typeWithBuckets(ctx);
        String id = CounterRoutes.checkedId(ctx.pathParam("id"));
        TimeBuckets kept = buckets(type);
        Instant from = bound(ctx, "from");
        Instant to = bound(ctx, "to");
        ctx.future(() -> naming.toRead(type.toString(), id).thenCompose(found -> work.read(inWindow(() ->
                found.isPresent() ? counters.timeSeries().series(type.recordType(), found.get().id(), from, to)
                        : zeros(counters.timeSeries().series(type.recordType(), 0, from, to)))))
                .thenAccept(series -> JsonResponse.ok(ctx, new SeriesResponse(type.echo(), CounterRoutes.echoId(id),
                        kept.unit().name().toLowerCase(Locale.ROOT), series.stream()
                                .map(b -> new SeriesResponse.Bucket(b.start().toString(), b.count())).toList()))));
    }

    /**
     * The buckets of a window with nothing in them, for a string id no process has recorded: its
     * series is all zeros, and a read records nothing. The window's buckets are taken from a read
     * of another counter, which checks the window the same way.
     */
    private static List<BucketCount> zeros(List<BucketCount> window) {
        return window.stream().map(bucket -> new BucketCount(bucket.start(), 0)).toList();
    }

    private void top(Context ctx) {
        auth.require(ctx, Scope.READ);
        CounterType type = typeWithBuckets(ctx);
        buckets(type);
        Instant from = bound(ctx, "from");
        Instant to = bound(ctx, "to");
        int n = n(ctx.queryParam("n"));
        ctx.future(() -> work.read(inWindow(() -> ranked(type.recordType(), counters.timeSeries().top(type.recordType(), from, to, n))))
                .thenAccept(top -> JsonResponse.ok(ctx, new TopResponse(type.echo(), from.toString(),
                        to.toString(), top))));
    }

    /** The top counters, each with its string id when the dictionary maps its number. */
    private List<TopResponse.Ranked> ranked(int type, List<RankedCounter> top) {
        Map<Long, String> ids = naming.names().idsOf(type, top.stream().map(RankedCounter::recordId).toList());
        return top.stream().map(r -> new TopResponse.Ranked(ids.containsKey(r.recordId())
                ? ids.get(r.recordId()) : (Object) r.recordId(), r.count())).toList();
    }

    /**
     * The request's type, which must be one that can keep buckets: a pinned name or a number
     * (buckets are configured at start, before names created on first use are known).
     */
    private CounterType typeWithBuckets(Context ctx) {
        String type = CounterRoutes.checkedType(naming, ctx);
        return naming.pinned().pinnedOrNumber(type).orElseThrow(() -> new HttpError(ErrorCode.UNKNOWN_TYPE,
                "unknown type '" + type + "': it is not given a number with --types, so it keeps no time buckets:"
                        + " start the service with --types " + type + "=NUMBER --buckets " + type
                        + "=hour:30d (minute, hour or day, and a retention) to count them"));
    }

    private TimeBuckets buckets(CounterType type) {
        return counters.config().buckets(type.recordType()).orElseThrow(() -> new HttpError(ErrorCode.NO_BUCKETS,
                "type " + type + " keeps no time buckets: start the service with --buckets " + type
                        + "=hour:30d (minute, hour or day, and a retention) to count them"));
    }

    private static Instant bound(Context ctx, String name) {
        try {
            return WindowBound.parse(name, ctx.queryParam(name));
        } catch (IllegalArgumentException e) {
            throw new HttpError(ErrorCode.BAD_RANGE, e.getMessage());
        }
    }

    private static int n(String text) {
        if (text == null || text.isBlank()) {
            return DEFAULT_TOP;
        }
        if (text.matches("[0-9]{1,4}")) {
            int n = Integer.parseInt(text);
            if (n >= 1 && n <= MAX_TOP) {
                return n;
            }
        }
        throw new HttpError(ErrorCode.BAD_N, "n must be an integer from 1 to " + MAX_TOP
                + ", such as ?n=10");
    }

    /** The library's refusal of a window (too long, before the retention), as {@code bad_range}. */
    private static <T> Supplier<T> inWindow(Supplier<T> read) {
        return () -> {
            try {
                return read.get();
            } catch (IllegalArgumentException e) {
                throw new HttpError(ErrorCode.BAD_RANGE, e.getMessage(), e);
            }
        };
    }
}
