package io.slotted.server.http;

import io.javalin.http.Context;
import io.javalin.router.Endpoint;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.slotted.server.http.error.ErrorCode;
import io.slotted.server.http.response.JsonResponse;
import io.slotted.server.metrics.ErrorCounts;
import io.slotted.server.metrics.ServerMetrics;
import io.slotted.server.metrics.WriteLatency;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http.HttpStatus;

/**
 * Times every HTTP request, matched or not, in one timer, {@code slotted.http.requests}, tagged
 * with the route template, method, status and outcome.
 *
 * <p>Every tag takes its value from a small fixed set, since each new value is a new time series
 * that the registry keeps for good and every scrape repeats: a client choosing tag values could
 * fill the heap. So a request is tagged with its route template ({@code /v1/counters/{type}/{id}})
 * or {@code unmatched}, never the path it was called with, which holds ids and names without
 * bound; and with its method folded to one of {@link #METHODS} or {@code other}, since HTTP lets a
 * client send any token as a method.
 *
 * <p>An error answer is also counted by its code in the service's {@link ErrorCounts}, and an
 * increment or batch answered without one in its {@link WriteLatency}.
 */
final class RequestMetrics {
    /** The methods tagged by name; any other is tagged {@code other}. */
    private static final Set<String> METHODS = Set.of("GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS",
            "PATCH");

    /** The routes that write increments, whose answers are timed as writes. */
    private static final Set<String> WRITES = Set.of(CounterRoutes.INCREMENT, CounterRoutes.BATCH);

    private final MeterRegistry registry;
    private final WriteLatency writeLatency;
    private final ErrorCounts errors;
    /**
     * The timers made so far, by their tags: registering looks the meter up by building its whole
     * identity, work a request need not repeat. The tags come from bounded sets, so this map is
     * bounded too.
     */
    private final Map<Tags, Timer> timers = new ConcurrentHashMap<>();

    RequestMetrics(ServerMetrics metrics) {
        this.registry = metrics.registry();
        this.writeLatency = metrics.writeLatency();
        this.errors = metrics.errors();
    }

    /**
     * Records one finished request; Javalin calls this for every request.
     *
     * @param ctx the request
     * @param millis how long it took
     */
    void record(Context ctx, Float millis) {
        int status = ctx.statusCode();
        String route = route(ctx);
        long nanos = (long) (millis * 1_000_000L);
        timers.computeIfAbsent(new Tags(route, method(ctx), status), this::timer)
                .record(nanos, TimeUnit.NANOSECONDS);
        ErrorCode error = ctx.attribute(JsonResponse.ERROR_CODE);
        if (error != null) {
            errors.count("http", error.code());
        } else if (HttpStatus.isSuccess(status) && WRITES.contains(route)) {
            writeLatency.record(nanos);
        }
    }

    private Timer timer(Tags tags) {
        return Timer.builder("slotted.http.requests")
                .description("HTTP requests by route template, method and status")
                .tag("route", tags.route())
                .tag("method", tags.method())
                .tag("status", Integer.toString(tags.status()))
                .tag("outcome", outcome(tags.status()))
                .register(registry);
    }

    /** One timer's tags, as a key. */
    private record Tags(String route, String method, int status) {
    }

    /** The method on the request line, not Javalin's, which follows X-HTTP-Method-Override. */
    private static String method(Context ctx) {
        String method = ctx.req().getMethod();
        return METHODS.contains(method) ? method : "other";
    }

    private static String route(Context ctx) {
        Endpoint endpoint = ctx.endpoints().lastHttpEndpoint();
        return endpoint == null || endpoint.path.isEmpty() ? "unmatched" : endpoint.path;
    }

    private static String outcome(int status) {
        if (HttpStatus.isServerError(status)) {
            return "server_error";
        }
        return HttpStatus.isClientError(status) ? "client_error"
                : HttpStatus.isRedirection(status) ? "redirection" : "success";
    }
}
