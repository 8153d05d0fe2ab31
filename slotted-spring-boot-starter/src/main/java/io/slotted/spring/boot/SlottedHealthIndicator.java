package io.slotted.spring.boot;

import io.slotted.SlottedConfig;
import io.slotted.SlottedCounters;
import io.slotted.SlottedStats;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import javax.sql.DataSource;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Whether the application can count: the database answers and the counter table can be read and
 * written, the write queue has room, and the owner columns do not trail their counters by more
 * than {@code slotted.health.max-roll-up-lag}. The details always show the queue's depth and
 * capacity and, when a type is bound to an owner column, the roll-up lag.
 *
 * <p>The database is probed with {@code UPDATE <table> SET count = count WHERE 1 = 0}, which
 * matches no row and takes no lock yet needs the table and the privilege to write it. The probe
 * runs on a thread of its own and is waited for at most {@code slotted.health.timeout}: a pool
 * waiting for a dead server never makes a health check hang. A probe still running when the next
 * check comes is waited for again rather than started twice, so a dead database costs one thread
 * and one connection attempt, however often health is asked.
 */
final class SlottedHealthIndicator implements HealthIndicator, AutoCloseable {
    private final SlottedCounters counters;
    private final DataSource dataSource;
    private final SlottedProperties.Health limits;
    private final ExecutorService prober = Executors.newSingleThreadExecutor(runnable -> {
        Thread thread = new Thread(runnable, "slotted-health");
        thread.setDaemon(true);
        return thread;
    });
    private Future<Optional<String>> probe;

    SlottedHealthIndicator(SlottedCounters counters, DataSource dataSource, SlottedProperties.Health limits) {
        this.counters = counters;
        this.dataSource = dataSource;
        this.limits = limits;
    }

    @Override
    public Health health() {
        SlottedConfig config = counters.config();
        SlottedStats stats = counters.stats();
        Health.Builder health = Health.up()
                .withDetail("table", config.table())
                .withDetail("writeMode", config.writeMode())
                .withDetail("queued", stats.queued())
                .withDetail("queueCapacity", config.queueCapacity());
        if (stats.rollUpLagMillis() >= 0) {
            health.withDetail("rollUpLag", Duration.ofMillis(stats.rollUpLagMillis()).toString());
        }
        Optional<String> problem = database(config.table())
                .or(() -> queue(stats, config))
                .or(() -> rollUpLag(stats));
        problem.ifPresent(why -> health.down().withDetail("problem", why));
        return health.build();
    }

    private Optional<String> queue(SlottedStats stats, SlottedConfig config) {
        if (stats.queued() < config.queueCapacity()) {
            return Optional.empty();
        }
        return Optional.of("the write queue is full (" + stats.queued() + " of " + config.queueCapacity()
                + " increments): callers wait for room, and fail after " + config.queueFullWait().toMillis()
                + "ms; the database is slower than the increments arrive");
    }

    private Optional<String> rollUpLag(SlottedStats stats) {
        Duration lag = Duration.ofMillis(stats.rollUpLagMillis());
        if (stats.rollUpLagMillis() < 0 || lag.compareTo(limits.getMaxRollUpLag()) <= 0) {
            return Optional.empty();
        }
        return Optional.of("owner columns trail their counters by " + lag + ", more than"
                + " slotted.health.max-roll-up-lag (" + limits.getMaxRollUpLag() + "): no process has"
                + " rolled them up since; set slotted.roll-up-every in one application, or run"
                + " 'slotted rollup'");
    }

    private synchronized Optional<String> database(String table) {
        if (probe == null || probe.isDone()) {
            probe = prober.submit(() -> check(table));
        }
        long timeout = limits.getTimeout().toMillis();
        try {
            return probe.get(timeout, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return Optional.of("the database did not answer within " + timeout + "ms"
                    + " (slotted.health.timeout)");
        } catch (ExecutionException e) {
            return Optional.of("the health probe failed: " + e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of("interrupted while waiting for the database");
        }
    }

    private Optional<String> check(String table) {
        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement()) {
            statement.setQueryTimeout((int) Math.max(1, limits.getTimeout().toSeconds()));
            statement.executeUpdate("UPDATE " + table + " SET count = count WHERE 1 = 0");
            return Optional.empty();
        } catch (SQLException e) {
            return Optional.of("the counter table " + table + " cannot be written (SQLState "
                    + e.getSQLState() + "): " + e.getMessage());
        }
    }

    @Override
    public void close() {
        prober.shutdownNow();
    }
}
