package io.slotted.server.http;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.slotted.CounterArguments;
import io.slotted.CounterNames;
import io.slotted.CounterOverflowException;
import io.slotted.Increment;
import io.slotted.Limits;
import io.slotted.SlottedCounters;
import io.slotted.WriteMode;
import io.slotted.server.auth.Scope;
import io.slotted.server.config.CounterType;
import io.slotted.server.config.Excerpt;
import io.slotted.server.config.WindowBound;
import io.slotted.server.http.body.BatchRequest;
import io.slotted.server.http.body.JsonBody;
import io.slotted.server.http.body.MessageFraming;
import io.slotted.server.http.body.RequestBodies;
import io.slotted.server.http.body.SetRequest;
import io.slotted.server.http.error.ErrorCode;
import io.slotted.server.http.error.HttpError;
import io.slotted.server.http.error.QuotaHeaders;
import io.slotted.server.http.response.BatchResponse;
import io.slotted.server.http.response.CountResponse;
import io.slotted.server.http.response.CountsResponse;
import io.slotted.server.http.response.IncrementResponse;
import io.slotted.server.http.response.JsonResponse;
import io.slotted.server.names.CounterNaming;
import io.slotted.server.names.NamedCounter;
import io.slotted.server.store.AsyncCounters;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

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
    /** The route of one increment. */
    static final String INCREMENT = "/v1/counters/{type}/{id}/increment";
    /** The route of a batch of increments. */
    static final String BATCH = "/v1/increments";

    private static final String DELTA_EXAMPLE = "{\"delta\": 5}";
    private static final Set<String> DELTA_FIELDS = Set.of("delta");

    private final SlottedCounters counters;
    private final AsyncCounters async;
    private final CounterNaming naming;
    private final BearerAuth auth;
    private final CounterWork work;
    private final RequestBodies bodies;
    private final boolean buffered;

    CounterRoutes(SlottedCounters counters, AsyncCounters async, CounterNaming naming, BearerAuth auth,
            CounterWork work, RequestBodies bodies) {
        this.counters = counters;
        this.async = async;
        this.naming = naming;
        this.auth = auth;
        this.work = work;
        this.bodies = bodies;
        this.buffered = counters.config().writeMode() == WriteMode.BUFFERED;
    }

    void register(RoutesConfig routes) {
        routes.post(INCREMENT, this::increment);
        HttpFrontEnd.getAndHead(routes, "/v1/counters/{type}/{id}", this::read);
        routes.put("/v1/counters/{type}/{id}", this::set);
        HttpFrontEnd.getAndHead(routes, "/v1/counters/{type}", this::readMany);
        routes.post(BATCH, this::applyBatch);
    }

    private void increment(Context ctx) {
        auth.require(ctx, Scope.WRITE);
        String type = checkedType(naming, ctx);
        String id = checkedId(ctx.pathParam("id"));
        String key = idempotencyKey(ctx);
        Instant refunded = refundedWindow(ctx.queryParam("window"), key);
        requireJsonBody(ctx);
        ctx.future(() -> bodies.read(ctx, body -> {
            long delta = JsonBody.read(body, 1L, CounterRoutes::delta);
            return naming.toWrite(type, id).thenCompose(counter -> refunded == null
                    ? increment(ctx, counter, delta, key) : refund(ctx, counter, delta, refunded));
        }).thenAccept(answer -> {
            if (answer.durable()) {
                JsonResponse.ok(ctx, answer);
            } else {
                JsonResponse.accepted(ctx, answer);
            }
        }));
    }

    /** The moment named by {@code ?window=}, whose window a refund goes back into; null without one. */
    private static Instant refundedWindow(String window, String key) {
        if (window == null) {
            return null;
        }
        if (key != null) {
            throw new HttpError(ErrorCode.BAD_REQUEST, "a refund (?window=) takes no Idempotency-Key: send it"
                    + " without one, or leave ?window= out to make a keyed increment");
        }
        try {
            return WindowBound.parse("window", window);
        } catch (IllegalArgumentException e) {
            throw new HttpError(ErrorCode.BAD_REQUEST, e.getMessage() + ": ?window= names any moment of the"
                    + " window the refund goes back into");
        }
    }

    /**
     * A refund: a negative delta that goes back into the window of {@code madeAt}, answered with
     * that window's count. What the library refuses as malformed (a window no longer kept) is the
     * client's to fix.
     */
    private CompletableFuture<IncrementResponse> refund(Context ctx, NamedCounter counter, long delta,
            Instant madeAt) {
        Limits limits = windowed(counter.type()).orElseThrow(() -> new HttpError(ErrorCode.BAD_REQUEST,
                "?window= refunds into a window of a type with limits per window, and " + counter.type()
                        + " has none: leave ?window= out"));
        if (delta >= 0) {
            throw new HttpError(ErrorCode.BAD_DELTA, "a refund (?window=) gives back what an increment took:"
                    + " its delta must be negative, but was " + delta);
        }
        int type = counter.type().recordType();
        return work.startWrite(gate -> async.refund(type, counter.id(), -delta, madeAt, gate::enter))
                .handle((count, failure) -> {
                    Throwable cause = failure == null ? null : HttpError.unwrap(failure);
                    if (cause instanceof IllegalArgumentException refused) {
                        throw new HttpError(ErrorCode.BAD_REQUEST, refused.getMessage());
                    }
                    if (failure != null) {
                        throw failure instanceof CompletionException done ? done : new CompletionException(failure);
                    }
                    QuotaHeaders.counted(ctx, limits, count, counters.config().clock().instant());
                    return new IncrementResponse(counter.type().echo(), counter.echoId(), delta, false, true, count);
                });
    }

    private static long delta(JsonBody body) {
        body.requireObject("the body", DELTA_EXAMPLE);
        long delta = 1;
        while (body.nextField("the body", DELTA_FIELDS, DELTA_EXAMPLE) != null) {
            delta = body.delta("delta");
        }
        return delta;
    }

    private CompletableFuture<IncrementResponse> increment(Context ctx, NamedCounter counter, long delta,
            String key) {
        // No thread waits for the commit: the library and the answer run on whichever thread
        // completes each step. A keyed increment joins a flush too, which records its key.
        int type = counter.type().recordType();
        Optional<Limits> windowed = windowed(counter.type());
        if (windowed.isPresent()) {
            return incrementInWindow(counter, delta, key).thenApply(answer -> {
                QuotaHeaders.counted(ctx, windowed.get(), answer.count(), counters.config().clock().instant());
                return answer;
            });
        }
        if (key == null) {
            return work.startWrite(gate -> async.add(type, counter.id(), delta, gate::enter))
                    .thenApply(done -> new IncrementResponse(counter.type().echo(), counter.echoId(),
                            delta, false, !buffered));
        }
        return work.startWrite(gate -> async.add(type, counter.id(), delta, key, gate::enter))
                .thenApply(applied -> new IncrementResponse(counter.type().echo(), counter.echoId(),
                        delta, !applied, true));
    }

    /**
     * An increment of a type with limits per window, answered with the window's count: the one
     * its flush read for it, or, for a keyed increment (whose flush answers no count), the
     * window's count read once it is durable, which may include later increments.
     */
    private CompletableFuture<IncrementResponse> incrementInWindow(NamedCounter counter, long delta, String key) {
        int type = counter.type().recordType();
        if (key == null) {
            return work.startWrite(gate -> async.addAndGet(type, counter.id(), delta, gate::enter))
                    .thenApply(count -> new IncrementResponse(counter.type().echo(), counter.echoId(), delta,
                            false, true, count));
        }
        return work.startWrite(gate -> async.add(type, counter.id(), delta, key, gate::enter))
                .thenCompose(applied -> work.startRead(() -> async.get(type, counter.id()))
                        .thenApply(count -> new IncrementResponse(counter.type().echo(), counter.echoId(), delta,
                                !applied, true, count)));
    }

    private void read(Context ctx) {
        auth.require(ctx, Scope.READ);
        String type = checkedType(naming, ctx);
        String id = checkedId(ctx.pathParam("id"));
        ctx.future(() -> naming.toRead(type, id).thenCompose(found -> found.isEmpty()
                ? CompletableFuture.completedFuture(new CountResponse(echoType(type), echoId(id), 0))
                : work.startRead(() -> async.get(found.get().type().recordType(), found.get().id()))
                        .thenCompose(count -> {
                            windowed(found.get().type()).ifPresent(limits -> QuotaHeaders.counted(ctx, limits,
                                    count, counters.config().clock().instant()));
                            return withExpiry(found.get(), count);
                        }))
                .thenAccept(answer -> JsonResponse.ok(ctx, answer)));
    }

    /** A counter's count, and for an expiring type, when it expires, if it does. */
    private CompletableFuture<CountResponse> withExpiry(NamedCounter counter, long count) {
        int type = counter.type().recordType();
        if (!async.expiring(type) || count == 0) {
            return CompletableFuture.completedFuture(new CountResponse(counter.type().echo(), counter.echoId(), count));
        }
        return work.read(() -> async.expiresAt(type, counter.id()).join()).thenApply(at ->
                new CountResponse(counter.type().echo(), counter.echoId(), count, at.map(Instant::toString).orElse(null)));
    }

    private void readMany(Context ctx) {
        auth.require(ctx, Scope.READ);
        String type = checkedType(naming, ctx);
        List<String> ids = checkedIds(ctx.queryParams("ids"));
        ctx.future(() -> naming.typeToRead(type).thenCompose(found -> found.isEmpty()
                ? CompletableFuture.completedFuture(new CountsResponse(echoType(type), zeros(ids)))
                : readMany(found.get(), ids).thenApply(answer -> {
                    windowed(found.get()).ifPresent(limits -> QuotaHeaders.policy(ctx, limits,
                            counters.config().clock().instant()));
                    return answer;
                }))
                .thenAccept(answer -> JsonResponse.ok(ctx, answer)));
    }

    /** The type's limits, if they are per window: this service's {@code --limits}. */
    private Optional<Limits> windowed(CounterType type) {
        return Optional.of(counters.config().limits(type.recordType())).filter(Limits::windowed);
    }

    /** Each id looked up, the recorded ones read in one query; keys as the client wrote them. */
    private CompletableFuture<CountsResponse> readMany(CounterType type, List<String> ids) {
        List<CompletableFuture<Optional<NamedCounter>>> found = new ArrayList<>(ids.size());
        ids.forEach(id -> found.add(naming.toRead(type.toString(), id)));
        return CompletableFuture.allOf(found.toArray(CompletableFuture[]::new)).thenCompose(done -> {
            List<Long> numbers = found.stream().map(CompletableFuture::join).flatMap(Optional::stream)
                    .map(NamedCounter::id).toList();
            return work.startRead(() -> async.getAll(type.recordType(), numbers)).thenApply(counts -> {
                Map<String, Long> byId = new LinkedHashMap<>();
                for (int i = 0; i < ids.size(); i++) {
                    Optional<NamedCounter> counter = found.get(i).join();
                    byId.put(countsKey(ids.get(i)), counter.map(c -> counts.getOrDefault(c.id(), 0L)).orElse(0L));
                }
                return new CountsResponse(type.echo(), byId);
            });
        });
    }

    private static Map<String, Long> zeros(List<String> ids) {
        Map<String, Long> byId = new LinkedHashMap<>();
        ids.forEach(id -> byId.put(countsKey(id), 0L));
        return byId;
    }

    /** A numeric id as its number ({@code 007} is {@code 7}), a string id as it is. */
    private static String countsKey(String id) {
        OptionalLong number = CounterNames.numberOf(id);
        return number.isPresent() ? Long.toString(number.getAsLong()) : id;
    }

    private void set(Context ctx) {
        auth.require(ctx, Scope.ADMIN);
        String type = checkedType(naming, ctx);
        String id = checkedId(ctx.pathParam("id"));
        requireJsonBody(ctx);
        ctx.future(() -> bodies.read(ctx, body -> {
            long count = SetRequest.read(body).count();
            return naming.toWrite(type, id).thenCompose(counter -> set(counter, count));
        }).thenAccept(answer -> JsonResponse.ok(ctx, answer)));
    }

    private CompletableFuture<CountResponse> set(NamedCounter counter, long count) {
        return write(() -> {
            counters.admin().set(counter.type().recordType(), counter.id(), count);
            return true;
        }).thenApply(done -> new CountResponse(counter.type().echo(), counter.echoId(), count));
    }

    private void applyBatch(Context ctx) {
        auth.require(ctx, Scope.WRITE);
        String key = idempotencyKey(ctx);
        requireJsonBody(ctx);
        ctx.future(() -> bodies.read(ctx,
                body -> increments(BatchRequest.read(body, naming).increments())
                        .thenCompose(increments -> applyBatch(increments, key)))
                .thenAccept(answer -> JsonResponse.ok(ctx, answer)));
    }

    /** The batch's items with their names looked up, recording new ones, before anything is written. */
    private CompletableFuture<List<Increment>> increments(List<BatchRequest.Item> items) {
        Map<BatchRequest.Item, CompletableFuture<NamedCounter>> counters = new HashMap<>();
        for (BatchRequest.Item item : items) {
            counters.computeIfAbsent(item.withDelta(0), same -> naming.toWrite(item.type(), item.id()));
        }
        return CompletableFuture.allOf(counters.values().toArray(CompletableFuture[]::new))
                .thenApply(done -> items.stream().map(item -> {
                    NamedCounter counter = counters.get(item.withDelta(0)).join();
                    return new Increment(counter.type().recordType(), counter.id(), item.delta());
                }).toList());
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

    static void requireJsonBody(Context ctx) {
        if (MessageFraming.hasBody(ctx)) {
            MessageFraming.requireJson(ctx);
        }
    }

    /** The request's {@code {type}}, checked without the database; refused as {@code bad_type}. */
    static String checkedType(CounterNaming naming, Context ctx) {
        String type = ctx.pathParam("type");
        try {
            naming.checkType(type);
            return type;
        } catch (IllegalArgumentException e) {
            throw HttpError.ofType(e, "");
        }
    }

    /** An id from the path or a query, checked without the database; refused as {@code bad_id}. */
    static String checkedId(String id) {
        try {
            CounterNames.numberOf(id);
            return id;
        } catch (IllegalArgumentException e) {
            throw new HttpError(ErrorCode.BAD_ID, "id '" + Excerpt.of(id) + "' cannot be used: "
                    + e.getMessage());
        }
    }

    /** What a response says a type was that no process has recorded: the name as given. */
    private static Object echoType(String type) {
        return type;
    }

    /** What a response says an id was: a number as a JSON number, a string as a JSON string. */
    static Object echoId(String id) {
        OptionalLong number = CounterNames.numberOf(id);
        return number.isPresent() ? (Object) number.getAsLong() : id;
    }

    private static List<String> checkedIds(List<String> params) {
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
        List<String> ids = new ArrayList<>(texts.length);
        for (String text : texts) {
            ids.add(checkedId(text.strip()));
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
            return CounterArguments.checkIdempotencyKey(key);
        } catch (IllegalArgumentException e) {
            throw new HttpError(ErrorCode.BAD_IDEMPOTENCY_KEY, "the Idempotency-Key header is"
                    + " invalid: " + e.getMessage());
        }
    }
}
