package io.slotted.server;

import io.javalin.http.Context;
import io.javalin.router.Endpoint;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.slotted.SlottedCounters;
import java.util.concurrent.TimeUnit;

/**
 * The service's meters, served at {@code /metrics} in Prometheus text format: one timer for HTTP
 * requests, the counters engine's statistics, the connection pool (HikariCP registers its own) and
 * the JVM.
 *
 * <p>Tags stay low in cardinality: a request is tagged with its route template
 * ({@code /v1/counters/{type}/{id}}), never the path it was called with, since a path holds record
 * ids and type names without bound.
 */
final class ServerMetrics implements AutoCloseable {
    /** The content type of Prometheus' text exposition format. */
    static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final JvmGcMetrics gc = new JvmGcMetrics();

    ServerMetrics() {
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        gc.bindTo(registry);
    }

    /**
     * Where the pool and anything else registers meters.
     *
     * @return the registry
     */
    MeterRegistry registry() {
        return registry;
    }

    /**
     * Publishes the counters' statistics.
     *
     * @param counters the counters the service writes through
     */
    void bind(SlottedCounters counters) {
        new CounterStatsMetrics(counters).bindTo(registry);
    }

    /**
     * Records one finished request; Javalin calls this for every request, matched or not.
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

    /**
     * The current values of every meter.
     *
     * @return Prometheus text format
     */
    String scrape() {
        return registry.scrape();
    }

    private static String route(Context ctx) {
        Endpoint endpoint = ctx.endpoints().lastHttpEndpoint();
        return endpoint == null || endpoint.path.isEmpty() ? "unmatched" : endpoint.path;
    }

    private static String outcome(int status) {
        if (status >= 500) {
            return "server_error";
        }
        return status >= 400 ? "client_error" : status >= 300 ? "redirection" : "success";
    }

    @Override
    public void close() {
        gc.close();
        registry.close();
    }
}
