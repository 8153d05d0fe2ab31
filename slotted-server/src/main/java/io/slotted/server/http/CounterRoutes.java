package io.slotted.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.slotted.Increment;
import io.slotted.SlottedCounters;
import io.slotted.server.auth.Scope;
import io.slotted.server.config.CounterType;
import io.slotted.server.config.Excerpt;
import io.slotted.server.config.TypeNames;
import io.slotted.server.http.response.BatchResponse;
import io.slotted.server.http.response.CountResponse;
import io.slotted.server.http.response.CountsResponse;
import io.slotted.server.http.response.IncrementResponse;
import io.slotted.server.store.OverflowGuard;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The counter endpoints of the HTTP contract: increment one counter, read one or many, and apply a
 * batch all or nothing.
 *
 * <p>Every handler checks in the same order: the token, then the path (type and id), then the
 * {@code Idempotency-Key}, then the body, then whether the counts would overflow; only a request
 * that passes all of them reaches the library. A request rejected on the way has changed nothing.
 */
final class CounterRoutes {
    /** The most ids one read may ask for. */
    static final int MAX_IDS = HttpFrontEnd.MAX_IDS;

    private static final Pattern RECORD_ID = Pattern.compile("-?[0-9]{1,19}");
    private static final String DELTA_EXAMPLE = "{\"delta\": 5}";

    private final SlottedCounters counters;
    private final TypeNames types;
    private final BearerAuth auth;
    private final OverflowGuard overflow;

    CounterRoutes(SlottedCounters counters, TypeNames types, BearerAuth auth) {
        this.counters = counters;
        this.types = types;
        this.auth = auth;
        this.overflow = new OverflowGuard(counters);
    }

    void register(RoutesConfig routes) {
        routes.post("/v1/counters/{type}/{id}/increment", this::increment);
        routes.get("/v1/counters/{type}/{id}", this::read);
        routes.get("/v1/counters/{type}", this::readMany);
        routes.post("/v1/increments", this::applyBatch);
    }

    private void increment(Context ctx) {
        auth.require(ctx, Scope.WRITE);
        CounterType type = type(ctx);
        long id = recordId(ctx.pathParam("id"));
        String key = idempotencyKey(ctx);
        long delta = JsonBody.read(ctx)
                .map(body -> JsonBody.object(body, "the body", Set.of("delta"), DELTA_EXAMPLE))
                .map(body -> JsonBody.delta(body.get("delta"), "delta"))
                .orElse(1L);
        overflow.check(type, id, delta);
        boolean applied = true;
        if (key == null) {
            counters.add(type.recordType(), id, delta);
        } else {
            applied = counters.add(type.recordType(), id, delta, key);
        }
        JsonResponse.ok(ctx, new IncrementResponse(type.echo(), id, delta, !applied));
    }

    private void read(Context ctx) {
        auth.require(ctx, Scope.READ);
        CounterType type = type(ctx);
        long id = recordId(ctx.pathParam("id"));
        long count = counters.get(type.recordType(), id);
        JsonResponse.ok(ctx, new CountResponse(type.echo(), id, count));
    }

    private void readMany(Context ctx) {
        auth.require(ctx, Scope.READ);
        CounterType type = type(ctx);
        List<Long> ids = recordIds(ctx.queryParams("ids"));
        Map<Long, Long> counts = counters.getAll(type.recordType(), ids);
        JsonResponse.ok(ctx, new CountsResponse(type.echo(), counts));
    }

    private void applyBatch(Context ctx) {
        auth.require(ctx, Scope.WRITE);
        String key = idempotencyKey(ctx);
        JsonNode json = JsonBody.read(ctx).orElseThrow(() -> new HttpError(ErrorCode.BAD_BODY,
                "the body is missing: send {\"increments\": [{\"type\": \"downloads\", \"id\": 1,"
                        + " \"delta\": 1}]} with Content-Type: application/json"));
        List<Increment> increments = BatchRequest.parse(json, types).increments();
        if (increments.isEmpty()) {
            JsonResponse.ok(ctx, BatchResponse.of(0));
            return;
        }
        overflow.check(increments);
        if (key == null) {
            JsonResponse.ok(ctx, BatchResponse.of(counters.addAll(increments)));
        } else if (counters.addAll(increments, key)) {
            JsonResponse.ok(ctx, BatchResponse.of(increments.size()));
        } else {
            JsonResponse.ok(ctx, BatchResponse.replay());
        }
    }

    private CounterType type(Context ctx) {
        try {
            return types.resolve(ctx.pathParam("type"));
        } catch (IllegalArgumentException e) {
            throw HttpError.ofType(e, "");
        }
    }

    private static long recordId(String text) {
        if (RECORD_ID.matcher(text).matches()) {
            try {
                return Long.parseLong(text);
            } catch (NumberFormatException e) {
                // 19 digits past Long.MAX_VALUE: answered below like any other bad id.
            }
        }
        throw new HttpError(ErrorCode.BAD_ID, "id '" + Excerpt.of(text) + "' is not a decimal"
                + " integer from " + Long.MIN_VALUE + " to " + Long.MAX_VALUE);
    }

    private static List<Long> recordIds(List<String> params) {
        if (params.isEmpty() || params.stream().allMatch(String::isBlank)) {
            throw new HttpError(ErrorCode.BAD_IDS, "give the ids to read as ?ids=1,2,3 (at most "
                    + MAX_IDS + ")");
        }
        String[] texts = String.join(",", params).split(",", -1);
        if (texts.length > MAX_IDS) {
            throw new HttpError(ErrorCode.TOO_MANY_IDS, "at most " + MAX_IDS + " ids may be read"
                    + " at once, but " + texts.length + " were given: split them into several"
                    + " requests");
        }
        List<Long> ids = new ArrayList<>(texts.length);
        for (String text : texts) {
            ids.add(recordId(text.strip()));
        }
        return ids;
    }

    /**
     * The request's {@code Idempotency-Key}, or null when it has none, checked by the library's
     * rule for keys so that a bad key is refused before any other work.
     */
    private static String idempotencyKey(Context ctx) {
        String key = ctx.header("Idempotency-Key");
        if (key == null) {
            return null;
        }
        try {
            return SlottedCounters.checkIdempotencyKey(key);
        } catch (IllegalArgumentException e) {
            throw new HttpError(ErrorCode.BAD_IDEMPOTENCY_KEY, "the Idempotency-Key header is"
                    + " invalid: " + e.getMessage());
        }
    }
}
