package io.slotted.server.http;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.slotted.ExpiryRule;
import io.slotted.server.auth.Scope;
import io.slotted.server.http.body.ExpiryRequest;
import io.slotted.server.http.body.RequestBodies;
import io.slotted.server.http.error.ErrorCode;
import io.slotted.server.http.error.HttpError;
import io.slotted.server.http.response.ExpiryResponse;
import io.slotted.server.http.response.JsonResponse;
import io.slotted.server.names.CounterNaming;
import io.slotted.server.names.NamedCounter;
import io.slotted.server.store.AsyncCounters;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.CompletableFuture;

/**
 * A counter's expiry, for the types served with {@code --expiring}: {@code PUT} gives it one
 * (answering {@code 404 counter_absent} for a counter that reads 0, as Redis's {@code EXPIRE}
 * answers 0), {@code DELETE} takes it away ({@code PERSIST}). Both need the write scope, and run
 * on {@link CounterWork}'s workers past the deadline's gate, as sets do. A type served without
 * {@code --expiring} answers {@code 409 not_expiring}, changing nothing.
 */
final class ExpiryRoutes {
    /** The route of a counter's expiry. */
    static final String EXPIRY = "/v1/counters/{type}/{id}/expiry";

    private final AsyncCounters async;
    private final CounterNaming naming;
    private final BearerAuth auth;
    private final CounterWork work;
    private final RequestBodies bodies;

    ExpiryRoutes(AsyncCounters async, CounterNaming naming, BearerAuth auth, CounterWork work, RequestBodies bodies) {
        this.async = async;
        this.naming = naming;
        this.auth = auth;
        this.work = work;
        this.bodies = bodies;
    }

    void register(RoutesConfig routes) {
        routes.put(EXPIRY, this::expire);
        routes.delete(EXPIRY, this::persist);
    }

    private void expire(Context ctx) {
        auth.require(ctx, Scope.WRITE);
        String type = CounterRoutes.checkedType(naming, ctx);
        String id = CounterRoutes.checkedId(ctx.pathParam("id"));
        CounterRoutes.requireJsonBody(ctx);
        ctx.future(() -> bodies.read(ctx, body -> {
            ExpiryRequest request = ExpiryRequest.read(body);
            return naming.toRead(type, id).thenCompose(found -> {
                NamedCounter counter = found.orElseThrow(() -> absent(type, id));
                requireExpiring(counter);
                Instant at = request.from(async.now()).truncatedTo(ChronoUnit.MILLIS); // as the table keeps it
                return work.write(gate -> async.expireAt(counter.type().recordType(), counter.id(), at,
                        ExpiryRule.ALWAYS, gate::enter)).thenApply(set -> {
                            if (!set) {
                                throw absent(type, id);
                            }
                            return new ExpiryResponse(counter.type().echo(), counter.echoId(),
                                    at.isAfter(async.now()) ? at.toString() : null);
                        });
            });
        }).thenAccept(answer -> JsonResponse.ok(ctx, answer)));
    }

    private void persist(Context ctx) {
        auth.require(ctx, Scope.WRITE);
        String type = CounterRoutes.checkedType(naming, ctx);
        String id = CounterRoutes.checkedId(ctx.pathParam("id"));
        ctx.future(() -> naming.toRead(type, id).thenCompose(found -> {
            if (found.isEmpty()) {
                return CompletableFuture.completedFuture(new ExpiryResponse(type, CounterRoutes.echoId(id), null));
            }
            NamedCounter counter = found.get();
            requireExpiring(counter);
            return work.write(gate -> async.persist(counter.type().recordType(), counter.id(), gate::enter))
                    .thenApply(had -> new ExpiryResponse(counter.type().echo(), counter.echoId(), null));
        }).thenAccept(answer -> JsonResponse.ok(ctx, answer)));
    }

    private void requireExpiring(NamedCounter counter) {
        if (!async.expiring(counter.type().recordType())) {
            throw new HttpError(ErrorCode.NOT_EXPIRING, "type " + counter.type() + " does not expire: serve it with"
                    + " --expiring " + counter.type() + " (every process alike) to give its counters an expiry;"
                    + " nothing was changed");
        }
    }

    private static HttpError absent(String type, String id) {
        return new HttpError(ErrorCode.COUNTER_ABSENT, "counter " + type + "/" + id + " reads 0, so there is"
                + " nothing to expire (as Redis's EXPIRE answers 0 for a missing key); nothing was changed");
    }
}
