package io.slotted.server.http;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.slotted.CounterOverflowException;
import io.slotted.Increment;
import io.slotted.SlottedCounters;
import io.slotted.WriteMode;
import io.slotted.server.auth.Scope;
import io.slotted.server.config.CounterType;
import io.slotted.server.config.Excerpt;
import io.slotted.server.config.TypeNames;
import io.slotted.server.http.body.BatchRequest;
import io.slotted.server.http.body.JsonBody;
import io.slotted.server.http.body.MessageFraming;
import io.slotted.server.http.body.RequestBodies;
import io.slotted.server.http.body.SetRequest;
import io.slotted.server.http.error.ErrorCode;
import io.slotted.server.http.error.HttpError;
import io.slotted.server.http.response.BatchResponse;
import io.slotted.server.http.response.CountResponse;
import io.slotted.server.http.response.CountsResponse;
import io.slotted.server.http.response.IncrementResponse;
import io.slotted.server.store.AsyncCounters;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * The counter endpoints of the HTTP contract: increment one counter, read one or many, apply a
 * batch all or nothing, and set one counter exactly (for an admin).
 *
 * <p>Every handler checks in the same order: the token, then the path (type and id), then the
 * {@code Idempotency-Key}, then the body; only a request that passes all of them reaches the
 * library, which keeps every counter's total in range itself. A request rejected on the way has changed nothing.
 * The checks that need no body run on Jetty's thread; then the handler lets the thread go
 * ({@code ctx.future}): the body is read as it arrives ({@link RequestBodies}). Plain increments
 * and reads then hold no thread: they go to {@link AsyncCounters}, where increments (keyed ones
 * too) join group commits and reads made at the same time share one query. The library's blocking
 * calls (batches, sets: each a transaction of its own) run on {@link CounterWork}'s workers. Both
 * within the request deadline.
 *
 * <p>An increment answers 200 with {@code "durable": true} once it is committed. In
 * {@code BUFFERED} mode the library takes an increment without a key into memory and writes it
 * within the flush interval, so that answer would be a promise the service cannot keep across a
 * crash: it answers {@code 202 Accepted} with {@code "durable": false} instead. An increment with
 * an {@code Idempotency-Key} waits for its flush in every mode, and a batch is one transaction of
 * its own: both answer 200, durable.
 *
 * <p>A set answers once it is committed. It is idempotent by nature, so it takes no
 * {@code Idempotency-Key}. It runs on the same workers within the same deadline as the other
 * writes.
 */
final class CounterRoutes {
    /** The most ids one read may ask for. */
    static final int MAX_IDS = HttpFrontEnd.MAX_IDS;

    private static final Pattern RECORD_ID = Pattern.compile("-?[0-9]{1,19}");
    private static final String DELTA_EXAMPLE = "{\"delta\": 5}";
    private static final Set<String> DELTA_FIELDS = Set.of("delta");

    private final SlottedCounters counters;
    private final AsyncCounters async;
    private final TypeNames types;
    private final BearerAuth auth;
    private final CounterWork work;
    private final RequestBodies bodies;
    private final boolean buffered;

    CounterRoutes(SlottedCounters counters, AsyncCounters async, TypeNames types, BearerAuth auth,
            CounterWork work, RequestBodies bodies) {
        this.counters = counters;
        this.async = async;
        this.types = types;
        this.auth = auth;
        this.work = work;
        this.bodies = bodies;
        this.buffered = counters.config().writeMode() == WriteMode.BUFFERED;
    }

    void register(RoutesConfig routes) {
        routes.post("/v1/counters/{type}/{id}/increment", this::increment);
        HttpFrontEnd.getAndHead(routes, "/v1/counters/{type}/{id}", this::read);
        routes.put("/v1/counters/{type}/{id}", this::set);
        HttpFrontEnd.getAndHead(routes, "/v1/counters/{type}", this::readMany);
        routes.post("/v1/increments", this::applyBatch);
    }

    private void increment(Context ctx) {
        auth.require(ctx, Scope.WRITE);
        CounterType type = type(ctx);
        long id = recordId(ctx.pathParam("id"));
        String key = idempotencyKey(ctx);
        requireJsonBody(ctx);
        ctx.future(() -> bodies.read(ctx, body -> {
            long delta = JsonBody.read(body, 1L, CounterRoutes::delta);
            return increment(type, id, delta, key);
        }).thenAccept(answer -> {
            if (answer.durable()) {
                JsonResponse.ok(ctx, answer);
            } else {
                JsonResponse.accepted(ctx, answer);
            }
        }));
    }

    private static long delta(JsonBody body) {
        body.requireObject("the body", DELTA_EXAMPLE);
        long delta = 1;
        while (body.nextField("the body", DELTA_FIELDS, DELTA_EXAMPLE) != null) {
            delta = body.delta("delta");
        }
        return delta;
    }

    private CompletableFuture<IncrementResponse> increment(CounterType type, long id, long delta,
            String key) {
        // No thread waits for the commit: the library and the answer run on whichever thread
        // completes each step. A keyed increment joins a flush too, which records its key.
        if (key == null) {
            return work.startWrite(gate -> async.add(type.recordType(), id, delta, gate::enter))
                    .thenApply(done -> new IncrementResponse(type.echo(), id, delta, false, !buffered));
        }
        return work.startWrite(gate -> async.add(type.recordType(), id, delta, key, gate::enter))
                .thenApply(applied -> new IncrementResponse(type.echo(), id, delta, !applied, true));
    }

    private void read(Context ctx) {
        auth.require(ctx, Scope.READ);
        CounterType type = type(ctx);
        long id = recordId(ctx.pathParam("id"));
        ctx.future(() -> work.startRead(() -> async.get(type.recordType(), id))
                .thenAccept(count -> JsonResponse.ok(ctx, new CountResponse(type.echo(), id, count))));
    }

    private void readMany(Context ctx) {
        auth.require(ctx, Scope.READ);
        CounterType type = type(ctx);
        List<Long> ids = recordIds(ctx.queryParams("ids"));
        ctx.future(() -> work.startRead(() -> async.getAll(type.recordType(), ids))
                .thenAccept(counts -> JsonResponse.ok(ctx, new CountsResponse(type.echo(), counts))));
    }

    private void set(Context ctx) {
        auth.require(ctx, Scope.ADMIN);
        CounterType type = type(ctx);
        long id = recordId(ctx.pathParam("id"));
        requireJsonBody(ctx);
        ctx.future(() -> bodies.read(ctx, body -> set(type, id, SetRequest.read(body).count()))
                .thenAccept(answer -> JsonResponse.ok(ctx, answer)));
    }

    private CompletableFuture<CountResponse> set(CounterType type, long id, long count) {
        return write(() -> {
            counters.set(type.recordType(), id, count);
            return true;
        }).thenApply(done -> new CountResponse(type.echo(), id, count));
    }

    private void applyBatch(Context ctx) {
        auth.require(ctx, Scope.WRITE);
        String key = idempotencyKey(ctx);
        requireJsonBody(ctx);
        ctx.future(() -> bodies.read(ctx,
                body -> applyBatch(BatchRequest.read(body, types).increments(), key))
                .thenAccept(answer -> JsonResponse.ok(ctx, answer)));
    }

    private CompletableFuture<BatchResponse> applyBatch(List<Increment> increments, String key) {
        if (increments.isEmpty()) {
            return CompletableFuture.completedFuture(BatchResponse.of(0));
        }
        return write(() -> {
            if (key == null) {
                counters.addAll(increments);
                return true;
            }
            return counters.addAll(increments, key);
        }).thenApply(applied -> applied ? BatchResponse.of(increments.size()) : BatchResponse.replay());
    }

    /**
     * Runs a blocking write on a worker, past the deadline's gate.
     *
     * @param write the write; true once applied, false when its key shows a replay
     * @return the write's outcome
     */
    private CompletableFuture<Boolean> write(Supplier<Boolean> write) {
        return work.write(gate -> {
            gate.enter();
            return CompletableFuture.completedFuture(write.get());
        });
    }

    private static void requireJsonBody(Context ctx) {
        if (MessageFraming.hasBody(ctx)) {
            MessageFraming.requireJson(ctx);
        }
    }

    private CounterType type(Context ctx) {
        return type(types, ctx);
    }

    /** The request's {@code {type}}, refused as {@code bad_type} or {@code unknown_type}. */
    static CounterType type(TypeNames types, Context ctx) {
        try {
            return types.resolve(ctx.pathParam("type"));
        } catch (IllegalArgumentException e) {
            throw HttpError.ofType(e, "");
        }
    }

    /** A record id from the path or a query, refused as {@code bad_id}. */
    static long recordId(String text) {
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
