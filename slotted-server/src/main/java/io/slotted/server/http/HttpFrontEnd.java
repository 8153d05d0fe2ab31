package io.slotted.server.http;

import io.javalin.Javalin;
import io.javalin.config.RoutesConfig;
import io.javalin.http.Handler;
import io.javalin.router.ParsedEndpoint;
import io.micrometer.core.instrument.Gauge;
import io.slotted.server.auth.GuardedAccess;
import io.slotted.server.http.body.MessageFraming;
import io.slotted.server.http.body.RequestBodies;
import io.slotted.server.http.health.ReadinessProbe;
import io.slotted.server.http.response.OpenApiDocument;
import io.slotted.server.live.LiveSampler;
import io.slotted.server.metrics.ServerMetrics;
import io.slotted.server.names.CounterNaming;
import io.slotted.server.store.AsyncCounters;
import io.slotted.server.store.PooledCounters;
import io.slotted.server.tls.ServerTls;
import java.time.Duration;
import java.util.SortedSet;
import java.util.TreeSet;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.AbstractConnector;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.NetworkConnectionLimit;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.util.component.LifeCycle;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The HTTP front end: the counter endpoints of the contract in {@code docs/api.md}, health, metrics and
 * the API's OpenAPI description, on Javalin (Jetty 12), in front of one {@link PooledCounters}.
 *
 * <p>Everything a client can make the server hold is bounded by {@link HttpSettings}: connections
 * ({@code maxConnections}; past it new ones wait to be accepted, and idle ones close after
 * {@code idleTimeout}), request heads ({@value #MAX_REQUEST_HEAD_BYTES} bytes, room for
 * {@value #MAX_IDS} ids of 20 characters), bodies (1 MiB each, read without a thread within
 * {@code bodyDeadline}, {@code bodyBytes} over all), counter work ({@code workerThreads} and
 * {@code workerQueue}, each request within the service's request deadline, which the Redis
 * protocol keeps too) and metric series (tags from fixed sets). Jetty's own threads only parse, check and answer, so {@code /healthz},
 * {@code /readyz} and {@code /metrics} never wait behind counter work.
 *
 * <p>{@link #stop()} is graceful: the listener stops accepting and requests in flight finish (up
 * to {@value #STOP_TIMEOUT_MILLIS} ms); a request that arrives meanwhile is answered 503.
 */
public final class HttpFrontEnd {
    /** The largest request body accepted: 1 MiB. */
    public static final long MAX_BODY_BYTES = 1024 * 1024;
    /** The most ids one read may ask for. */
    public static final int MAX_IDS = 1000;
    /** The most increments one batch may hold. */
    public static final int MAX_INCREMENTS = 10_000;
    /** The largest request line and headers together: 32 KiB. */
    public static final int MAX_REQUEST_HEAD_BYTES = 32 * 1024;
    /** How long a stop waits for requests in flight. */
    public static final long STOP_TIMEOUT_MILLIS = 30_000;
    /** Jetty's threads: they parse, check and answer, and never wait for the database. */
    private static final int MAX_JETTY_THREADS = 250;
    private static final int MIN_JETTY_THREADS = 8;

    private final Javalin app;
    private volatile String bind;
    private volatile int port;
    private final CounterWork work;
    private final ReadinessProbe readiness;
    private final DoctorRoutes doctor;
    private final LiveSampler live;
    /** Jetty's server, once Javalin has made it: its connectors count the open connections. */
    private volatile Server jetty;

    /**
     * Creates the front end, not yet listening.
     *
     * @param store the counters and the pool they write through
     * @param async the same counters as every front end writes through them
     * @param naming how requests name counters
     * @param access who may do what
     * @param metrics where requests are recorded and what {@code /metrics} serves
     * @param settings the bounds it keeps
     * @param deadline how long a counter request's work may take once its body has arrived
     * @param tls the TLS it serves HTTPS with, or null for plain HTTP
     */
    public HttpFrontEnd(PooledCounters store, AsyncCounters async, CounterNaming naming,
            GuardedAccess access, ServerMetrics metrics, HttpSettings settings, Duration deadline,
            ServerTls tls) {
        QueuedThreadPool jettyThreads = new QueuedThreadPool(MAX_JETTY_THREADS, MIN_JETTY_THREADS);
        jettyThreads.setName("slotted-http");
        this.work = new CounterWork(deadline, settings, jettyThreads);
        this.readiness = new ReadinessProbe(store.pool(), store.counters().config(), settings);
        RequestBodies bodies = new RequestBodies(settings, jettyThreads);
        CounterRoutes counters = new CounterRoutes(store.counters(), async, naming, new BearerAuth(access),
                work, bodies);
        ExpiryRoutes expiries = new ExpiryRoutes(async, naming, new BearerAuth(access), work, bodies);
        BucketRoutes buckets = new BucketRoutes(store.counters(), naming, new BearerAuth(access), work);
        HealthRoutes health = new HealthRoutes(readiness, tls, metrics, OpenApiDocument.load());
        this.doctor = new DoctorRoutes(store, new BearerAuth(access));
        this.live = new LiveSampler(store.counters(), naming, metrics);
        LiveRoutes page = new LiveRoutes(live, new BearerAuth(access));
        RequestMetrics requests = new RequestMetrics(metrics);
        Gauge.builder("slotted.http.connections", this, HttpFrontEnd::connections)
                .description("Open HTTP connections").register(metrics.registry());
        this.app = Javalin.create(config -> {
            config.startup.showJavalinBanner = false;
            config.http.maxRequestSize = MAX_BODY_BYTES;
            config.http.prefer405over404 = true;
            config.jetty.threadPool = jettyThreads;
            config.jetty.modifyHttpConfiguration(http -> {
                http.setRequestHeaderSize(MAX_REQUEST_HEAD_BYTES);
                // String ids hold slashes, sent percent-encoded (views/%2Fblog%2Fhello-world):
                // Jetty refuses an encoded separator unless told that the service decodes it.
                http.setUriCompliance(UriCompliance.DEFAULT.with("slotted-ids",
                        UriCompliance.Violation.AMBIGUOUS_PATH_SEPARATOR));
            });
            config.jetty.modifyServer(server -> {
                jetty = server;
                // Lets a stop wait for requests in flight instead of cutting them off.
                server.insertHandler(new GracefulHandler());
                server.setStopTimeout(STOP_TIMEOUT_MILLIS);
                server.setErrorHandler(new ProtocolErrorHandler());
                limitConnections(server, settings);
            });
            if (tls != null) {
                config.jetty.addConnector((server, http) -> httpsConnector(server, http, tls));
            }
            config.requestLogger.http(requests::record);
            ErrorMapping.register(config.routes);
            config.routes.before(MessageFraming::checkTransferCoding);
            config.routes.before(MessageFraming::checkPercentEscapes);
            buckets.register(config.routes);
            counters.register(config.routes);
            expiries.register(config.routes);
            doctor.register(config.routes);
            page.register(config.routes);
            health.register(config.routes);
        });
    }

    /**
     * Registers a GET route and HEAD on the same handler, so that HEAD is checked the same way (the
     * token, the path) and answers the same status, without the body. Javalin would otherwise
     * answer HEAD 200 without running the handler at all.
     *
     * @param routes the routes of the app being configured
     * @param path the route's path
     * @param handler what answers GET
     */
    static void getAndHead(RoutesConfig routes, String path, Handler handler) {
        routes.get(path, handler);
        routes.head(path, handler);
    }

    /**
     * The one connector of a service that serves TLS: HTTPS on the address and port given to
     * {@link #start}, from the service's one TLS context. Jetty takes the context as it is, so a
     * renewed certificate reaches new connections through it; the server name a client sends is
     * not held against the certificate's names, since clients that reach the service by address
     * (127.0.0.1, a pod's IP) would otherwise be refused by a check their own TLS already made.
     */
    private ServerConnector httpsConnector(Server server, HttpConfiguration http, ServerTls tls) {
        SslContextFactory.Server factory = new SslContextFactory.Server();
        factory.setSslContext(tls.sslContext());
        factory.setIncludeProtocols(ServerTls.PROTOCOLS.toArray(String[]::new));
        factory.setNeedClientAuth(tls.requiresClientCertificates());
        factory.setSniRequired(false);
        HttpConfiguration https = new HttpConfiguration(http);
        SecureRequestCustomizer secure = new SecureRequestCustomizer();
        secure.setSniHostCheck(false);
        https.addCustomizer(secure);
        ServerConnector connector = new ServerConnector(server,
                new SslConnectionFactory(factory, HttpVersion.HTTP_1_1.asString()),
                new HttpConnectionFactory(https));
        connector.setHost(bind);
        connector.setPort(port);
        return connector;
    }

    /**
     * Past the limit Jetty stops accepting, so new connections wait in the listen backlog (or are
     * refused by the kernel when it is full) while the open ones are served; idle ones close.
     */
    private static void limitConnections(Server server, HttpSettings settings) {
        server.addBean(new NetworkConnectionLimit(settings.maxConnections(), server));
        server.addEventListener(new LifeCycle.Listener() {
            @Override
            public void lifeCycleStarting(LifeCycle event) {
                // Javalin adds its connector after configuring the server, before starting it.
                for (Connector connector : server.getConnectors()) {
                    ((AbstractConnector) connector).setIdleTimeout(settings.idleTimeout().toMillis());
                }
            }
        });
    }

    /**
     * The routes it serves, as Javalin has them registered: what {@code /openapi.json} describes, no
     * more and no less. Javalin registers them as it starts, so ask once {@link #start} has returned.
     *
     * @return each route's method and path template, such as {@code GET /v1/counters/{type}/{id}}
     */
    public SortedSet<String> routes() {
        SortedSet<String> routes = new TreeSet<>();
        for (ParsedEndpoint route : app.unsafe.internalRouter.allHttpHandlers()) {
            // Before-handlers (the transfer-coding check) run for every path: they are no route.
            if (route.endpoint.method.isHttpMethod()) {
                routes.add(route.endpoint.method.name() + " " + route.endpoint.path);
            }
        }
        return routes;
    }

    private int connections() {
        Server server = jetty;
        int open = 0;
        for (Connector connector : server == null ? new Connector[0] : server.getConnectors()) {
            open += connector.getConnectedEndPoints().size();
        }
        return open;
    }

    /**
     * Probes readiness once, then starts listening.
     *
     * @param bind the address to listen on
     * @param port the TCP port; 0 picks a free one
     * @throws RuntimeException if the address cannot be listened on; Jetty is stopped again
     */
    public void start(String bind, int port) {
        readiness.start();
        live.start();
        this.bind = bind;
        this.port = port;
        try {
            app.start(bind, port);
        } catch (RuntimeException e) {
            readiness.close();
            work.close();
            doctor.close();
            live.close();
            throw e;
        }
    }

    /**
     * The port listened on, which is the one asked for unless that was 0.
     *
     * @return the TCP port
     */
    public int port() {
        return app.port();
    }

    /** Stops accepting, waits for requests in flight to finish, then stops the workers. */
    public void stop() {
        try {
            app.stop();
        } finally {
            work.close();
            doctor.close();
            live.close();
            readiness.close();
        }
    }
}
