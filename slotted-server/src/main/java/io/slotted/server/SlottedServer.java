package io.slotted.server;

import io.javalin.Javalin;
import io.javalin.config.JavalinConfig;
import io.javalin.http.HttpResponseException;
import io.javalin.http.HttpStatus;
import io.slotted.MigrationReport;
import io.slotted.SlottedException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP service: the counter endpoints of the contract in {@code API.md}, health and metrics,
 * on Javalin (Jetty 12), in front of one {@link Database}.
 *
 * <p>Handlers block on JDBC, which is what Jetty's thread pool is for. Starting runs the schema
 * migration, so a service that answers has a usable table. {@link #close()} is graceful: the
 * listener stops accepting, requests in flight finish (up to {@value #STOP_TIMEOUT_MILLIS} ms),
 * the counters drain what they accepted, and only then is the pool closed.
 *
 * <pre>{@code
 * try (SlottedServer server = SlottedServer.start(ServerSettings.defaults(db))) {
 *     server.awaitClose();
 * }
 * }</pre>
 */
public final class SlottedServer implements AutoCloseable {
    /** How long a stop waits for requests in flight. */
    public static final long STOP_TIMEOUT_MILLIS = 30_000;
    /** Connections in the service's pool: the flushers' and the readers'. */
    static final int POOL_SIZE = 16;

    private static final Logger log = LoggerFactory.getLogger(SlottedServer.class);

    private final ServerMetrics metrics;
    private final Database database;
    private final Javalin app;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final CountDownLatch stopped = new CountDownLatch(1);

    private SlottedServer(ServerMetrics metrics, Database database, Javalin app) {
        this.metrics = metrics;
        this.database = database;
        this.app = app;
    }

    /**
     * Opens the database, creates or checks the schema, and starts listening.
     *
     * @param settings what to run with
     * @return the running service
     * @throws CommandFailure if the database cannot be reached or migrated, or the address cannot
     *     be listened on
     */
    public static SlottedServer start(ServerSettings settings) {
        ServerMetrics metrics = new ServerMetrics();
        Database database = null;
        try {
            database = Database.open(settings.database(), settings.counters(), POOL_SIZE,
                    metrics.registry());
            migrate(database);
            metrics.bind(database.counters());
            Javalin app = create(settings, database, metrics);
            SlottedServer server = new SlottedServer(metrics, database, app);
            listen(app, settings);
            logStart(settings, database, app.port());
            return server;
        } catch (RuntimeException e) {
            if (database != null) {
                database.close();
            }
            metrics.close();
            throw e;
        }
    }

    private static void migrate(Database database) {
        MigrationReport report;
        try {
            report = database.counters().migrate();
        } catch (SlottedException e) {
            throw database.explain(e);
        }
        report.describe().lines().forEach(line -> log.info("schema: {}", line));
    }

    private static void listen(Javalin app, ServerSettings settings) {
        try {
            app.start(settings.bind(), settings.port());
        } catch (RuntimeException e) {
            // Javalin has already stopped the Jetty server it failed to start.
            throw new CommandFailure("cannot listen on " + settings.bind() + ":" + settings.port()
                    + ": " + FailureMessage.of(e), e);
        }
    }

    private static Javalin create(ServerSettings settings, Database database, ServerMetrics metrics) {
        AccessControl access = settings.tokens() == null ? AccessControl.open()
                : AccessControl.withTokens(settings.tokens());
        CounterRoutes counters = new CounterRoutes(database.counters(), settings.types(), access);
        HealthRoutes health = new HealthRoutes(database.pool(), metrics);
        return Javalin.create(config -> {
            config.startup.showJavalinBanner = false;
            config.http.maxRequestSize = JsonBody.MAX_BYTES;
            config.http.prefer405over404 = true;
            config.jetty.modifyServer(server -> {
                // Lets a stop wait for requests in flight instead of cutting them off.
                server.insertHandler(new GracefulHandler());
                server.setStopTimeout(STOP_TIMEOUT_MILLIS);
                server.setErrorHandler(new ProtocolErrorHandler());
            });
            config.requestLogger.http(metrics::record);
            errors(config);
            counters.register(config.routes);
            health.register(config.routes);
        });
    }

    private static void errors(JavalinConfig config) {
        config.routes.exception(ApiError.class, (e, ctx) -> JsonResponse.error(ctx, e));
        config.routes.exception(HttpResponseException.class,
                (e, ctx) -> JsonResponse.error(ctx, HttpErrors.of(e, ctx)));
        config.routes.exception(SlottedException.class, (e, ctx) -> {
            ApiError error = ApiError.from(e);
            // An overflow or a reused key is the client's business; a database failure is ours.
            if (error.status() >= 500) {
                log.warn("{} {} failed: {}", ctx.method(), ctx.path(), FailureMessage.of(e));
            } else {
                log.debug("{} {} refused: {}", ctx.method(), ctx.path(), e.getMessage());
            }
            JsonResponse.error(ctx, error);
        });
        config.routes.exception(Exception.class, (e, ctx) -> {
            log.error("{} {} failed unexpectedly", ctx.method(), ctx.path(), e);
            JsonResponse.error(ctx, new ApiError(HttpStatus.INTERNAL_SERVER_ERROR.getCode(),
                    "internal_error", "the server failed unexpectedly and logged why; if this was a"
                            + " write, retry it with the same Idempotency-Key to apply it at most once"));
        });
    }

    private static void logStart(ServerSettings settings, Database database, int port) {
        log.info("slotted listening on http://{}:{} with the database {} ({} mode)",
                settings.bind(), port, database.describe(), settings.counters().mode());
        if (settings.tokens() == null) {
            log.info("no --tokens given: accepting requests without a token, which is allowed only"
                    + " because {} is a loopback address", settings.bind());
        } else {
            log.info("accepting {} token(s) from the token file", settings.tokens().size());
        }
    }

    /**
     * The port the service listens on, which is the one asked for unless that was 0.
     *
     * @return the TCP port
     */
    public int port() {
        return app.port();
    }

    /**
     * Blocks until {@link #close()} has finished, for a command that serves until stopped.
     *
     * @throws InterruptedException if the waiting thread is interrupted
     */
    public void awaitClose() throws InterruptedException {
        stopped.await();
    }

    /**
     * Stops gracefully: stops accepting, lets requests in flight finish, drains the counters, then
     * closes the pool. Safe to call more than once and from a shutdown hook.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        log.info("stopping: finishing requests in flight, then writing what was accepted");
        try {
            app.stop();
        } finally {
            try {
                database.close();
            } finally {
                metrics.close();
                stopped.countDown();
                log.info("stopped");
            }
        }
    }
}
