package io.slotted.server.http;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.slotted.server.http.response.StatusResponse;
import io.slotted.server.metrics.ServerMetrics;
import io.slotted.server.store.FailureMessage;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The endpoints for orchestrators and monitoring, open without a token: {@code /healthz} (the
 * process is up), {@code /readyz} (the database answers) and {@code /metrics}.
 *
 * <p>Readiness runs {@code SELECT 1} on a pooled connection each time it is asked, so it follows
 * the database down and back up with no restart: the pool replaces broken connections on its own.
 * Only changes of state are logged, since probes ask every few seconds.
 */
final class HealthRoutes {
    private static final Logger log = LoggerFactory.getLogger(HealthRoutes.class);
    private static final int QUERY_TIMEOUT_SECONDS = 2;

    private final DataSource pool;
    private final ServerMetrics metrics;
    private final AtomicBoolean ready = new AtomicBoolean(true);

    HealthRoutes(DataSource pool, ServerMetrics metrics) {
        this.pool = pool;
        this.metrics = metrics;
    }

    void register(RoutesConfig routes) {
        routes.get("/healthz", ctx -> JsonResponse.ok(ctx, StatusResponse.UP));
        routes.get("/readyz", this::readiness);
        routes.get("/metrics", ctx -> ctx.contentType(ServerMetrics.CONTENT_TYPE).result(metrics.scrape()));
    }

    private void readiness(Context ctx) {
        try (Connection connection = pool.getConnection();
                Statement statement = connection.createStatement()) {
            statement.setQueryTimeout(QUERY_TIMEOUT_SECONDS);
            statement.execute("SELECT 1");
            if (ready.compareAndSet(false, true)) {
                log.info("ready: the database answers again");
            }
            JsonResponse.ok(ctx, StatusResponse.READY);
        } catch (SQLException e) {
            if (ready.compareAndSet(true, false)) {
                log.warn("not ready: the database does not answer: {}", FailureMessage.of(e));
            }
            JsonResponse.error(ctx, new HttpError(ErrorCode.DATABASE_UNAVAILABLE, "the database"
                    + " does not answer, so counters can be neither read nor written; the server"
                    + " log says why"));
        }
    }
}
