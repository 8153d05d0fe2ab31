package io.slotted.server.http.health;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.slotted.SlottedConfig;
import io.slotted.Ticker;
import io.slotted.server.config.Excerpt;
import io.slotted.server.http.HttpSettings;
import io.slotted.server.http.error.ErrorCode;
import io.slotted.server.http.error.HttpError;
import io.slotted.server.store.FailureMessage;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Probes in the background whether counting can work, so that {@code /readyz} answers at once
 * from the last result.
 *
 * <p>Ready means what counting needs: the database answers, and the counter table can be read and
 * written. The write is probed with {@code UPDATE <table> SET count = count WHERE 1 = 0}, which
 * matches no row, changes nothing and takes no row lock, yet needs the table to exist and the
 * UPDATE privilege like any write: a user who may only read gets an error from it, on MariaDB and
 * PostgreSQL alike.
 *
 * <p>The probe runs every interval on a connection of its own — a one-connection pool made like
 * the service's — with a query timeout, so an exhausted service pool never makes readiness wait.
 * A probe still running after its timeout and one more interval (a driver that ignores the query
 * timeout while waiting for a table lock) makes the service not ready by itself. Only changes of
 * state are logged, since probes run every second.
 */
public final class ReadinessProbe implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ReadinessProbe.class);

    private final HikariDataSource connection;
    private final String table;
    private final Ticker ticker;
    private final Duration interval;
    private final Duration timeout;
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(
            runnable -> {
                Thread thread = new Thread(runnable, "slotted-readiness");
                thread.setDaemon(true);
                return thread;
            });
    private volatile HttpError problem;
    private volatile long runningSince;

    /**
     * Makes the probe's own pool, not yet connected.
     *
     * @param service the service's pool, whose settings the probe's connection copies
     * @param counters the counters' settings: the counter table, and the ticker that times probes
     * @param settings how often to probe and how long a probe may take
     */
    public ReadinessProbe(HikariDataSource service, SlottedConfig counters, HttpSettings settings) {
        this.table = counters.table();
        this.ticker = counters.ticker();
        this.interval = settings.readinessInterval();
        this.timeout = settings.readinessTimeout();
        HikariConfig config = new HikariConfig();
        service.copyStateTo(config);
        config.setPoolName(service.getPoolName() + "-readiness");
        config.setMaximumPoolSize(1);
        config.setMinimumIdle(1);
        config.setConnectionTimeout(timeout.toMillis());
        config.setInitializationFailTimeout(-1);
        config.setMetricRegistry(null);
        config.setHealthCheckRegistry(null);
        this.connection = new HikariDataSource(config);
    }

    /** Probes once, so that readiness is known before the first request, then every interval. */
    public void start() {
        probe();
        scheduler.scheduleWithFixedDelay(this::probe, interval.toNanos(), interval.toNanos(),
                TimeUnit.NANOSECONDS);
    }

    /**
     * Why the service is not ready, from the last probe; at once, never waiting for the database.
     *
     * @return the error to answer {@code /readyz} with, or empty when ready
     */
    public Optional<HttpError> problem() {
        long since = runningSince;
        long stalled = timeout.plus(interval).toNanos();
        if (since != 0 && ticker.read() - since > stalled) {
            return Optional.of(new HttpError(ErrorCode.DATABASE_UNAVAILABLE, "not ready: the"
                    + " readiness probe of the counter table " + table + " has waited over "
                    + TimeUnit.NANOSECONDS.toMillis(stalled) + "ms for the database, which is"
                    + " locked, overloaded or unreachable"));
        }
        return Optional.ofNullable(problem);
    }

    private void probe() {
        runningSince = ticker.read() | 1; // never 0, which means no probe is running
        try {
            record(check());
        } finally {
            runningSince = 0;
        }
    }

    /** Reads and writes nothing of the counter table; the error says what counting cannot do. */
    private HttpError check() {
        try (Connection probe = connection.getConnection();
                Statement statement = probe.createStatement()) {
            statement.setQueryTimeout((int) timeout.toSeconds());
            String doing = "read";
            try {
                statement.execute("SELECT count FROM " + table + " WHERE 1 = 0");
                doing = "written";
                statement.execute("UPDATE " + table + " SET count = count WHERE 1 = 0");
                return null;
            } catch (SQLException e) {
                return refused(doing, e);
            }
        } catch (SQLException e) {
            return unreachable(e);
        }
    }

    private HttpError refused(String doing, SQLException e) {
        if (e instanceof SQLTimeoutException || e instanceof SQLTransientConnectionException
                || String.valueOf(e.getSQLState()).startsWith("08")) {
            return unreachable(e);
        }
        return new HttpError(ErrorCode.DATABASE_ERROR, "not ready: the counter table " + table
                + " cannot be " + doing + " (SQLState " + e.getSQLState() + ": "
                + Excerpt.of(FailureMessage.own(e)) + "); the server log says more", e);
    }

    private HttpError unreachable(SQLException e) {
        return new HttpError(ErrorCode.DATABASE_UNAVAILABLE, "not ready: the database does not"
                + " answer within " + timeout.toMillis() + "ms, so counters can be neither read"
                + " nor written; the server log says why", e);
    }

    private void record(HttpError now) {
        HttpError before = problem;
        problem = now;
        if (now != null && (before == null || !before.getMessage().equals(now.getMessage()))) {
            log.warn("{} ({})", now.getMessage(), FailureMessage.of(now.getCause()));
        } else if (now == null && before != null) {
            log.info("ready again: the counter table {} can be read and written", table);
        }
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
        connection.close();
    }
}
