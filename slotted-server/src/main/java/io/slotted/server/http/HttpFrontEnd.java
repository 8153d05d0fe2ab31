package io.slotted.server.http;

import io.javalin.Javalin;
import io.slotted.server.auth.AccessCheck;
import io.slotted.server.config.TypeNames;
import io.slotted.server.metrics.ServerMetrics;
import io.slotted.server.store.PooledCounters;
import org.eclipse.jetty.server.handler.GracefulHandler;

/**
 * The HTTP front end: the counter endpoints of the contract in {@code API.md}, health and metrics,
 * on Javalin (Jetty 12), in front of one {@link PooledCounters}.
 *
 * <p>Handlers block on JDBC, which is what Jetty's thread pool is for. {@link #stop()} is
 * graceful: the listener stops accepting and requests in flight finish (up to
 * {@value #STOP_TIMEOUT_MILLIS} ms); a request that arrives meanwhile is answered 503.
 */
public final class HttpFrontEnd {
    /** The largest request body accepted: 1 MiB. */
    public static final long MAX_BODY_BYTES = 1024 * 1024;
    /** The most ids one read may ask for. */
    public static final int MAX_IDS = 1000;
    /** The most increments one batch may hold. */
    public static final int MAX_INCREMENTS = 10_000;
    /** How long a stop waits for requests in flight. */
    public static final long STOP_TIMEOUT_MILLIS = 30_000;

    private final Javalin app;

    /**
     * Creates the front end, not yet listening.
     *
     * @param store the counters and the pool they write through
     * @param types the configured type names
     * @param access who may do what
     * @param metrics where requests are recorded and what {@code /metrics} serves
     */
    public HttpFrontEnd(PooledCounters store, TypeNames types, AccessCheck access,
            ServerMetrics metrics) {
        CounterRoutes counters = new CounterRoutes(store.counters(), types, new BearerAuth(access));
        HealthRoutes health = new HealthRoutes(store.pool(), metrics);
        RequestMetrics requests = new RequestMetrics(metrics.registry());
        this.app = Javalin.create(config -> {
            config.startup.showJavalinBanner = false;
            config.http.maxRequestSize = MAX_BODY_BYTES;
            config.http.prefer405over404 = true;
            config.jetty.modifyServer(server -> {
                // Lets a stop wait for requests in flight instead of cutting them off.
                server.insertHandler(new GracefulHandler());
                server.setStopTimeout(STOP_TIMEOUT_MILLIS);
                server.setErrorHandler(new ProtocolErrorHandler());
            });
            config.requestLogger.http(requests::record);
            ErrorMapping.register(config.routes);
            counters.register(config.routes);
            health.register(config.routes);
        });
    }

    /**
     * Starts listening.
     *
     * @param bind the address to listen on
     * @param port the TCP port; 0 picks a free one
     * @throws RuntimeException if the address cannot be listened on; Jetty is stopped again
     */
    public void start(String bind, int port) {
        app.start(bind, port);
    }

    /**
     * The port listened on, which is the one asked for unless that was 0.
     *
     * @return the TCP port
     */
    public int port() {
        return app.port();
    }

    /** Stops accepting and waits for requests in flight to finish. */
    public void stop() {
        app.stop();
    }
}
