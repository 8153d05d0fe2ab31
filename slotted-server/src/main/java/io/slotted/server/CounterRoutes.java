package io.slotted.server;

import com.fasterxml.jackson.databind.JsonNode;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.slotted.Increment;
import io.slotted.SlottedCounters;
import java.util.ArrayList;
import java.util.LinkedHashMap;
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
    static final int MAX_IDS = 1000;

    private static final Pattern RECORD_ID = Pattern.compile("-?[0-9]{1,19}");
    private static final String DELTA_EXAMPLE = "{\"delta\": 5}";

    private final SlottedCounters counters;
    private final TypeNames types;
    private final AccessControl access;
    private final OverflowGuard overflow;

    CounterRoutes(SlottedCounters counters, TypeNames types, AccessControl access) {
        this.counters = counters;
        this.types = types;
        this.access = access;
        this.overflow = new OverflowGuard(counters);
    }

    void register(RoutesConfig routes) {
        routes.post("/v1/counters/{type}/{id}/increment", this::increment);
        routes.get("/v1/counters/{type}/{id}", this::read);
        routes.get("/v1/counters/{type}", this::readMany);
        routes.post("/v1/increments", this::applyBatch);
    }

    private void increment(Context ctx) {
        access.require(ctx, Scope.WRITE);
        CounterType type = types.resolve(ctx.pathParam("type"));
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
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", type.echo());
        body.put("id", id);
        body.put("delta", delta);
        body.put("replayed", !applied);
        JsonResponse.send(ctx, 200, body);
    }

    private void read(Context ctx) {
        access.require(ctx, Scope.READ);
        CounterType type = types.resolve(ctx.pathParam("type"));
        long id = recordId(ctx.pathParam("id"));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", type.echo());
        body.put("id", id);
        body.put("count", counters.get(type.recordType(), id));
        JsonResponse.send(ctx, 200, body);
    }

    private void readMany(Context ctx) {
        access.require(ctx, Scope.READ);
        CounterType type = types.resolve(ctx.pathParam("type"));
        List<Long> ids = recordIds(ctx.queryParams("ids"));
        Map<String, Long> counts = new LinkedHashMap<>();
        counters.getAll(type.recordType(), ids).forEach((id, count) -> counts.put(id.toString(), count));
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", type.echo());
        body.put("counts", counts);
        JsonResponse.send(ctx, 200, body);
    }

    private void applyBatch(Context ctx) {
        access.require(ctx, Scope.WRITE);
        String key = idempotencyKey(ctx);
        JsonNode json = JsonBody.read(ctx).orElseThrow(() -> ApiError.badRequest("bad_body",
                "the body is missing: send {\"increments\": [{\"type\": \"downloads\", \"id\": 1,"
                        + " \"delta\": 1}]} with Content-Type: application/json"));
        List<Increment> increments = BatchRequest.parse(json, types).increments();
        if (increments.isEmpty()) {
            JsonResponse.send(ctx, 200, Map.of("applied", 0));
            return;
        }
        overflow.check(increments);
        if (key == null) {
            JsonResponse.send(ctx, 200, Map.of("applied", counters.addAll(increments)));
        } else if (counters.addAll(increments, key)) {
            JsonResponse.send(ctx, 200, Map.of("applied", increments.size()));
        } else {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("applied", 0);
            body.put("replayed", true);
            JsonResponse.send(ctx, 200, body);
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
        throw ApiError.badRequest("bad_id", "id '" + TypeNames.abbreviated(text) + "' is not a"
                + " decimal integer from " + Long.MIN_VALUE + " to " + Long.MAX_VALUE);
    }

    private static List<Long> recordIds(List<String> params) {
        if (params.isEmpty() || params.stream().allMatch(String::isBlank)) {
            throw ApiError.badRequest("bad_ids", "give the ids to read as ?ids=1,2,3 (at most "
                    + MAX_IDS + ")");
        }
        String[] texts = String.join(",", params).split(",", -1);
        if (texts.length > MAX_IDS) {
            throw ApiError.badRequest("too_many_ids", "at most " + MAX_IDS + " ids may be read at"
                    + " once, but " + texts.length + " were given: split them into several requests");
        }
        List<Long> ids = new ArrayList<>(texts.length);
        for (String text : texts) {
            ids.add(recordId(text.strip()));
        }
        return ids;
    }

    /**
     * The request's {@code Idempotency-Key}, checked by the library's rule: 1 to 128 printable
     * ASCII characters.
     */
    private static String idempotencyKey(Context ctx) {
        String key = ctx.header("Idempotency-Key");
        if (key == null) {
            return null;
        }
        boolean printable = key.chars().allMatch(c -> c >= 0x20 && c <= 0x7e);
        if (key.isEmpty() || key.length() > 128 || !printable) {
            throw ApiError.badRequest("bad_idempotency_key", "the Idempotency-Key header must be 1"
                    + " to 128 printable ASCII characters, but had " + key.length() + " characters"
                    + (printable ? "" : ", some of them not printable ASCII"));
        }
        return key;
    }
}
