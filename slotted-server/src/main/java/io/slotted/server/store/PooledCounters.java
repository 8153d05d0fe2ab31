package io.slotted.server.store;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.pool.HikariPool;
import io.micrometer.core.instrument.MeterRegistry;
import io.slotted.DatabaseUnavailableException;
import io.slotted.SlottedCounters;
import io.slotted.SlottedCountersBuilder;
import io.slotted.WriteMode;
import io.slotted.server.config.CounterSettings;
import io.slotted.server.config.DatabaseSettings;
import java.net.SocketTimeoutException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;

/**
 * One database opened for the command line or the service: a HikariCP pool and the
 * {@link SlottedCounters} that write through it. Closing it drains the counters first, then closes
 * the pool, so nothing accepted is lost on the way out.
 *
 * <p>Opening goes in an order that reports each kind of mistake for what it is. The pool is made
 * without connecting; the counters are built on it next, so that a bad setting (such as a slot
 * count out of range) is refused by the library's own rule before anything is connected; only then
 * is one connection borrowed and given back, so that an unreachable database is reported at once,
 * by name, rather than by the first request. Whatever fails, what was opened is closed again.
 */
public final class PooledCounters implements AutoCloseable {
    /** How long a request waits for a pooled connection before the database counts as down. */
    static final long CONNECTION_TIMEOUT_MILLIS = 5_000;
    /**
     * How long the service's connections wait for the database to answer, on any one read from
     * the socket, unless the URL sets its own {@code socketTimeout}: 60 s.
     *
     * <p>A statement on a server that stopped answering — paused, or gone without a reset, as a
     * failed host or a partitioned network leaves it — would otherwise wait for ever: the clients
     * are answered at their deadline, but the flusher that sent it is held, and with it the
     * increments queued behind. With the timeout the driver gives the connection up, and the
     * counters retry on a new one or resolve what the commit did. 60 s is longer than any of the
     * service's statements should wait: they touch a few rows or a chunk of rows at a time, and
     * MariaDB's own lock wait ({@code innodb_lock_wait_timeout}, 50 s by default) ends first, so a
     * flush waiting out a lock gets the database's answer rather than a cut connection. Work that
     * may rightly take longer lifts it on its own connection (the doctor's scans of whole tables),
     * and the commands a person runs (recount, shrink, migrate and adopt over big tables, whose
     * schema changes take as long as the table is big) open their pool without it.
     */
    public static final Duration SERVICE_SOCKET_TIMEOUT = Duration.ofSeconds(60);
    /** H2's "Database may be already in use": another process has the file open. */
    private static final int H2_DATABASE_IN_USE = 90020;
    /** The property MariaDB Connector/J, MySQL Connector/J and PgJDBC each call the timeout. */
    private static final String SOCKET_TIMEOUT = "socketTimeout";

    private final DatabaseSettings settings;
    private final HikariDataSource pool;
    private final SlottedCounters counters;

    private PooledCounters(DatabaseSettings settings, HikariDataSource pool,
            SlottedCounters counters) {
        this.settings = settings;
        this.pool = pool;
        this.counters = counters;
    }

    /**
     * Makes the pool, builds the counters, and checks that the database answers, for a command a
     * person runs: its statements wait for the database as long as it takes.
     *
     * @param settings where the database is
     * @param counters the counter table, write settings and roll-up interval
     * @param poolSize the connections the caller needs; the pool holds as many more as the
     *     counters' flushers keep
     * @param registry where the pool reports its metrics, or null for none
     * @return the open counters
     * @throws IllegalArgumentException if the library refuses a counter setting; nothing was
     *     connected
     * @throws DatabaseFailure if the database cannot be reached or the driver refuses the URL
     */
    public static PooledCounters open(DatabaseSettings settings, CounterSettings counters,
            int poolSize, MeterRegistry registry) {
        return open(settings, counters, poolSize, registry, Duration.ZERO);
    }

    /**
     * As {@link #open(DatabaseSettings, CounterSettings, int, MeterRegistry)}, with a socket
     * timeout on every connection unless the URL sets its own (MariaDB, MySQL and PostgreSQL; H2
     * runs in the process and needs none).
     *
     * @param settings where the database is
     * @param counters the counter table, write settings and roll-up interval
     * @param poolSize the connections the caller needs
     * @param registry where the pool reports its metrics, or null for none
     * @param socketTimeout how long one read from the database may wait, such as
     *     {@link #SERVICE_SOCKET_TIMEOUT}; zero for as long as it takes
     * @return the open counters
     * @throws IllegalArgumentException if the library refuses a counter setting; nothing was
     *     connected
     * @throws DatabaseFailure if the database cannot be reached or the driver refuses the URL
     */
    public static PooledCounters open(DatabaseSettings settings, CounterSettings counters,
            int poolSize, MeterRegistry registry, Duration socketTimeout) {
        HikariDataSource pool = pool(settings, poolSize + keptByFlushers(counters), registry,
                socketTimeout);
        SlottedCounters built;
        try {
            built = build(SlottedCounters.builder(pool), counters);
        } catch (RuntimeException e) {
            pool.close();
            throw e;
        }
        PooledCounters opened = new PooledCounters(settings, pool, built);
        try {
            opened.checkReachable();
        } catch (RuntimeException e) {
            opened.close();
            throw e;
        }
        return opened;
    }

    /** The connections the counters' flushers keep while open, on top of what the caller needs. */
    private static int keptByFlushers(CounterSettings counters) {
        return counters.mode() == WriteMode.DIRECT ? 0 : SlottedCountersBuilder.DEFAULT_FLUSHERS;
    }

    /** A pool that connects on first use, not when made: the counters are built before that. */
    private static HikariDataSource pool(DatabaseSettings settings, int poolSize,
            MeterRegistry registry, Duration socketTimeout) {
        HikariDataSource pool = new HikariDataSource();
        pool.setPoolName("slotted");
        pool.setJdbcUrl(settings.jdbcUrl());
        pool.setUsername(settings.user());
        pool.setPassword(settings.password());
        pool.setMaximumPoolSize(poolSize);
        pool.setConnectionTimeout(CONNECTION_TIMEOUT_MILLIS);
        // No fail-fast start: HikariCP's own check can end in an exception that lost its cause
        // (PoolInitializationException of a null failure, a NullPointerException). The first
        // borrow below waits at most the connection timeout instead, and fails with the driver's
        // reason as the cause.
        pool.setInitializationFailTimeout(-1);
        if (settings.jdbcUrl().startsWith("jdbc:mariadb:") || settings.jdbcUrl().startsWith("jdbc:mysql:")) {
            // A flush and the query of its totals then go in one packet, one round trip: every
            // INCR answers a total. The service's statements are its own, with only numbers written in.
            pool.addDataSourceProperty("allowMultiQueries", "true");
            // The counters' write transactions read committed; a pool lending connections at that
            // level spares each of them two statements, setting it and setting it back.
            pool.setTransactionIsolation("TRANSACTION_READ_COMMITTED");
        }
        socketTimeout(settings.jdbcUrl(), socketTimeout)
                .ifPresent(timeout -> pool.addDataSourceProperty(SOCKET_TIMEOUT, timeout));
        if (registry != null) {
            pool.setMetricRegistry(registry);
        }
        return pool;
    }

    /**
     * The driver's {@code socketTimeout} for a timeout, in the driver's own unit (milliseconds for
     * MariaDB Connector/J, seconds for PgJDBC); empty when there is none to set: a zero timeout,
     * a URL that sets its own (which always wins), or a driver without one that matters (H2).
     */
    static Optional<String> socketTimeout(String url, Duration timeout) {
        if (timeout.isZero() || setsSocketTimeout(url)) {
            return Optional.empty();
        }
        if (url.startsWith("jdbc:mariadb:") || url.startsWith("jdbc:mysql:")) {
            return Optional.of(Long.toString(timeout.toMillis()));
        }
        if (url.startsWith("jdbc:postgresql:")) {
            return Optional.of(Long.toString(Math.max(1, timeout.toSeconds())));
        }
        return Optional.empty();
    }

    /** Whether the URL names the property, spelled as the drivers spell it. */
    private static boolean setsSocketTimeout(String url) {
        return url.contains("?" + SOCKET_TIMEOUT + "=") || url.contains("&" + SOCKET_TIMEOUT + "=");
    }

    private static SlottedCounters build(SlottedCountersBuilder builder, CounterSettings settings) {
        builder.table(settings.table()).writeMode(settings.mode())
                .newNamesPerSecond(settings.names().newIdsPerSecond()).maxTypeNames(settings.names().maxTypeNames());
        if (settings.mode() == WriteMode.BUFFERED) {
            // A read answers with what was acknowledged, written or still in memory.
            builder.readsIncludeUnwritten(true);
        }
        if (settings.slots() != null) {
            builder.slots(settings.slots());
        }
        if (settings.rollsUp()) {
            builder.rollUpEvery(settings.rollUpEvery());
        }
        settings.buckets().forEach((type, kept) -> builder.buckets(type, kept.unit(), kept.retention()));
        settings.limits().forEach(builder::limits);
        settings.expiring().forEach(builder::expiring);
        return builder.build();
    }

    /** Borrows one connection, which starts the pool, and gives it back. */
    private void checkReachable() {
        try {
            pool.getConnection().close();
        } catch (SQLException | HikariPool.PoolInitializationException e) {
            throw unreachable(settings, e);
        } catch (RuntimeException e) {
            // The driver rejected the URL itself, before any connection was tried.
            throw new DatabaseFailure("cannot use the database URL " + settings.describe() + ": "
                    + settings.mask(FailureMessage.rootMessage(e)), e);
        }
    }

    /**
     * The counters, migrated or not as the caller decides.
     *
     * @return the counters
     */
    public SlottedCounters counters() {
        return counters;
    }

    /**
     * The pool, for readiness checks.
     *
     * @return the pool
     */
    public HikariDataSource pool() {
        return pool;
    }

    /**
     * Where the database is, safe to print.
     *
     * @return the URL with any password masked
     */
    public String describe() {
        return settings.describe();
    }

    /**
     * Restates a failure of this database for a person: an unreachable database is named, with the
     * driver's reason.
     *
     * @param e what a call on the counters threw
     * @return a failure whose message names the database and the cause
     */
    public DatabaseFailure explain(RuntimeException e) {
        if (e instanceof DatabaseUnavailableException) {
            return unreachable(settings, e);
        }
        return new DatabaseFailure("the database at " + settings.describe() + " failed: "
                + settings.mask(FailureMessage.of(e)), e);
    }

    private static DatabaseFailure unreachable(DatabaseSettings settings, Exception e) {
        String reason = settings.mask(FailureMessage.rootMessage(e));
        if (loginRefused(e)) {
            return new DatabaseFailure("the database at " + settings.describe() + " refused the"
                    + " login: check the user and the password (" + reason + ")", e);
        }
        if (hasErrorCode(e, H2_DATABASE_IN_USE)) {
            return new DatabaseFailure("the H2 database " + settings.describe() + " is open in"
                    + " another process, and H2 lets one process at a time open a file database."
                    + " If that process is slotted serve started with --tokens, it does not share"
                    + " the file: use its HTTP API, or stop it first; otherwise stop the other"
                    + " process, or serve the counters from MariaDB or PostgreSQL (" + reason + ")", e);
        }
        return new DatabaseFailure("cannot reach the database at " + settings.describe() + ": "
                + reason, e);
    }

    /**
     * Whether a failure is a socket timeout: the database did not answer a read within the
     * connection's {@code socketTimeout}, and the driver gave the connection up.
     *
     * @param e what a call on the counters threw
     * @return true if a {@link SocketTimeoutException} is anywhere in its chain of causes
     */
    public static boolean socketTimedOut(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SocketTimeoutException) {
                return true;
            }
        }
        return false;
    }

    private static boolean hasErrorCode(Throwable e, int vendorCode) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && sql.getErrorCode() == vendorCode) {
                return true;
            }
        }
        return false;
    }

    /** SQLState class 28, invalid authorization, anywhere in the chain of causes. */
    private static boolean loginRefused(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && String.valueOf(sql.getSQLState()).startsWith("28")) {
                return true;
            }
        }
        return false;
    }

    /** Drains the counters, then closes the pool. */
    @Override
    public void close() {
        try {
            counters.close();
        } finally {
            pool.close();
        }
    }
}
