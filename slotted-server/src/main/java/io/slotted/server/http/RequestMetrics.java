package io.slotted.server.http;

import io.javalin.http.Context;
import io.javalin.router.Endpoint;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.http.HttpStatus;

/**
 * Times every HTTP request, matched or not, in one timer, {@code slotted.http.requests}, tagged
 * with the route template, method, status and outcome.
 *
 * <p>A request is tagged with its route template ({@code /v1/counters/{type}/{id}}), never the path
 * it was called with, since a path holds record ids and type names without bound.
 */
final class RequestMetrics {
    private final MeterRegistry registry;

    RequestMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /**
     * Records one finished request; Javalin calls this for every request.
     *
     * @param ctx the request
     * @param millis how long it took
     */
    void record(Context ctx, Float millis) {
        int status = ctx.statusCode();
        Timer.builder("slotted.http.requests")
                .description("HTTP requests by route template, method and status")
                .tag("route", route(ctx))
                .tag("method", ctx.method().name())
                .tag("status", Integer.toString(status))
                .tag("outcome", outcome(status))
                .register(registry)
                .record((long) (millis * 1_000_000L), TimeUnit.NANOSECONDS);
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
