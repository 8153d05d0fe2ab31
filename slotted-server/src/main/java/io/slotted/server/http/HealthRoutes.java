package io.slotted.server.http;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.slotted.server.http.health.ReadinessProbe;
import io.slotted.server.http.response.JsonResponse;
import io.slotted.server.http.response.OpenApiDocument;
import io.slotted.server.http.response.StatusResponse;
import io.slotted.server.metrics.ServerMetrics;
import io.slotted.server.tls.ServerTls;
import java.util.List;

/**
 * The endpoints open without a token: for orchestrators and monitoring, {@code /healthz} (the
 * process is up), {@code /readyz} (counting can work) and {@code /metrics}; for whoever writes a
 * client, {@code /openapi.json} (the {@link OpenApiDocument}).
 *
 * <p>None of them touches the database or waits for counter work: they run on Jetty's threads,
 * which counter requests give back while they wait, and readiness answers from the last result of
 * the {@link ReadinessProbe}, which probes in the background.
 */
final class HealthRoutes {
    private final ReadinessProbe readiness;
    private final ServerTls tls;
    private final ServerMetrics metrics;
    private final OpenApiDocument api;

    HealthRoutes(ReadinessProbe readiness, ServerTls tls, ServerMetrics metrics, OpenApiDocument api) {
        this.readiness = readiness;
        this.tls = tls;
        this.metrics = metrics;
        this.api = api;
    }

    void register(RoutesConfig routes) {
        HttpFrontEnd.getAndHead(routes, "/healthz", ctx -> JsonResponse.ok(ctx, StatusResponse.UP));
        HttpFrontEnd.getAndHead(routes, "/readyz", this::readiness);
        HttpFrontEnd.getAndHead(routes, "/metrics",
                ctx -> ctx.contentType(ServerMetrics.CONTENT_TYPE).result(metrics.scrape()));
        HttpFrontEnd.getAndHead(routes, "/openapi.json",
                ctx -> ctx.contentType(JsonResponse.CONTENT_TYPE).result(api.bytes()));
    }

    /**
     * Ready or not is the database's answer. A TLS problem — renewed files that could not be
     * served — is a warning beside it, not unreadiness: the certificate already served still
     * works, and every instance given the same bad files going unready at once would take the
     * whole service down.
     */
    private void readiness(Context ctx) {
        List<String> warnings = tls == null ? List.of()
                : tls.problem().map(problem -> List.of("tls: " + problem)).orElse(List.of());
        readiness.problem().ifPresentOrElse(problem -> JsonResponse.error(ctx, problem),
                () -> JsonResponse.ok(ctx, StatusResponse.ready(warnings)));
    }
}
