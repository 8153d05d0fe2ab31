package io.slotted.server;

import io.slotted.MigrationReport;
import io.slotted.SlottedException;
import io.slotted.server.auth.AccessCheck;
import io.slotted.server.auth.AccessTokens;
import io.slotted.server.auth.FailedAuthentications;
import io.slotted.server.auth.GuardedAccess;
import io.slotted.server.config.ServerSettings;
import io.slotted.server.http.HttpFrontEnd;
import io.slotted.server.http.HttpSettings;
import io.slotted.server.metrics.ServerMetrics;
import io.slotted.server.names.CounterNaming;
import io.slotted.server.resp.RespFrontEnd;
import io.slotted.server.resp.RespSettings;
import io.slotted.server.store.AsyncCounters;
import io.slotted.server.store.DatabaseFailure;
import io.slotted.server.store.FailureMessage;
import io.slotted.server.store.PooledCounters;
import io.slotted.server.store.SharedH2File;
import io.slotted.server.tls.ServerTls;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Optional;
import java.util.SortedSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running service: one store ({@link PooledCounters}), and the front ends in front of it.
 *
 * <p>Starting reads the token file, opens the store, runs the schema migration (so a service that
 * answers has a usable table), and then starts the front ends. The store's counters roll up the
 * counter types bound to owner columns in the background, at the settings' interval; every
 * service on one database may do so, since the library lets one process at a time roll up each
 * type. {@link #close()} is graceful: the front ends stop accepting and let requests in flight
 * finish (up to {@value HttpFrontEnd#STOP_TIMEOUT_MILLIS} ms), the counters let a roll-up under way
 * finish and drain what they accepted, and only then is the pool closed.
 *
 * <pre>{@code
 * try (SlottedServer server = SlottedServer.start(ServerSettings.defaults(db))) {
 *     server.awaitClose();
 * }
 * }</pre>
 */
public final class SlottedServer implements AutoCloseable {
    /** Connections in the service's pool: the flushers' and the readers'. */
    static final int POOL_SIZE = 16;

    private static final Logger log = LoggerFactory.getLogger(SlottedServer.class);

    private final ServerMetrics metrics;
    private final PooledCounters store;
    private final AsyncCounters asyncCounters;
    private Optional<SharedH2File> sharing = Optional.empty();
    private final HttpFrontEnd http;
    private final ServerTls tls;
    private RespFrontEnd resp;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final CountDownLatch stopped = new CountDownLatch(1);

    private SlottedServer(ServerMetrics metrics, PooledCounters store, AsyncCounters asyncCounters,
            HttpFrontEnd http, ServerTls tls) {
        this.metrics = metrics;
        this.store = store;
        this.asyncCounters = asyncCounters;
        this.http = http;
        this.tls = tls;
    }

    /**
     * Reads the tokens, opens the database, creates or checks the schema, and starts listening.
     *
     * @param settings what to run with
     * @return the running service
     * @throws IllegalArgumentException if the token file cannot be read or is malformed, or the
     *     library refuses a counter setting
     * @throws io.slotted.server.store.DatabaseFailure if the database cannot be reached or migrated
     * @throws ServiceFailure if the address cannot be listened on
     */
    public static SlottedServer start(ServerSettings settings) {
        return start(settings, HttpSettings.defaults());
    }

    /**
     * Reads the tokens, opens the database, creates or checks the schema, and starts listening,
     * with the HTTP front end's bounds given.
     *
     * @param settings what to run with
     * @param httpSettings the HTTP front end's body deadline, workers and connection limits
     * @return the running service
     * @throws IllegalArgumentException if the token file cannot be read or is malformed, or the
     *     library refuses a counter setting
     * @throws io.slotted.server.store.DatabaseFailure if the database cannot be reached or migrated
     * @throws ServiceFailure if the address cannot be listened on
     */
    public static SlottedServer start(ServerSettings settings, HttpSettings httpSettings) {
        return start(settings, httpSettings, null);
    }

    /**
     * Reads the tokens, opens the database, creates or checks the schema, and starts listening for
     * HTTP and, when {@code respSettings} is given, for the Redis protocol on the same address.
     *
     * @param settings what to run with
     * @param httpSettings the HTTP front end's body deadline, workers and connection limits
     * @param respSettings the Redis-protocol front end's port and bounds, or null for none
     * @return the running service
     * @throws IllegalArgumentException if the token file cannot be read or is malformed, a TLS
     *     file does not hold what it should, or the library refuses a counter setting
     * @throws io.slotted.server.store.DatabaseFailure if the database cannot be reached or migrated
     * @throws ServiceFailure if an address cannot be listened on
     */
    public static SlottedServer start(ServerSettings settings, HttpSettings httpSettings,
            RespSettings respSettings) {
        AccessTokens tokens = settings.tokenFile() == null ? null
                : AccessTokens.read(settings.tokenFile());
        if (tokens != null) {
            warnOfPlainTokens(settings, tokens);
        }
        checkPortFree(settings);
        ServerTls tls = settings.tls() == null ? null
                : ServerTls.start(settings.tls(), ServerTls.CHECK_EVERY);
        ServerMetrics metrics = new ServerMetrics();
        PooledCounters store = null;
        AsyncCounters asyncCounters = null;
        try {
            store = PooledCounters.open(settings.database(), settings.counters(), POOL_SIZE,
                    metrics.registry(), PooledCounters.SERVICE_SOCKET_TIMEOUT);
            migrate(store);
            CounterNaming naming = CounterNaming.start(settings.types(), store.counters().names());
            metrics.bind(store.counters());
            // One guard for every front end: an address's wrong tokens count over all of them.
            GuardedAccess access = new GuardedAccess(tokens == null ? AccessCheck.open() : tokens,
                    new FailedAuthentications(store.counters().config().ticker()));
            // One AsyncCounters, and so one overflow guard, for every front end.
            asyncCounters = new AsyncCounters(store.counters());
            HttpFrontEnd http = new HttpFrontEnd(store, asyncCounters, naming, access,
                    metrics, httpSettings, settings.requestDeadline(), tls);
            SlottedServer server = new SlottedServer(metrics, store, asyncCounters, http, tls);
            listen(http, settings);
            if (respSettings != null) {
                server.listenForResp(settings, respSettings, access, naming);
            }
            // Last, once the service is up: without tokens, commands such as `slotted incr` reach
            // an embedded H2 file through it; with tokens, that would let any local user past them.
            if (tokens == null) {
                server.shareH2File(settings);
            }
            // The roll-up of bound types runs in the store's counters, when the settings ask for it.
            logStart(settings, store, http.port(), tokens, tls);
            return server;
        } catch (RuntimeException e) {
            if (asyncCounters != null) {
                asyncCounters.close();
            }
            if (store != null) {
                store.close();
            }
            if (tls != null) {
                tls.close();
            }
            metrics.close();
            throw e;
        }
    }

    /**
     * Finds a port taken by another process before the database is opened and migrated, so the
     * failure is one line and nothing else is done. The front end's own bind still decides: a
     * process that takes the port in between is reported by {@link #listen} the same way.
     */
    private static void checkPortFree(ServerSettings settings) {
        if (settings.port() == 0) {
            return;
        }
        try (ServerSocket probe = new ServerSocket()) {
            probe.setReuseAddress(true);
            probe.bind(new InetSocketAddress(settings.bind(), settings.port()));
        } catch (IOException e) {
            throw cannotListen(settings, e);
        }
    }

    private static ServiceFailure cannotListen(ServerSettings settings, Exception e) {
        return new ServiceFailure("cannot listen on " + settings.bind() + ":" + settings.port()
                + ": " + FailureMessage.of(e), e);
    }

    private static void migrate(PooledCounters store) {
        MigrationReport report;
        try {
            report = store.counters().migrate();
        } catch (SlottedException e) {
            if (PooledCounters.socketTimedOut(e)) {
                throw new DatabaseFailure("the database at " + store.describe() + " did not answer"
                        + " a schema change within the service's socket timeout ("
                        + PooledCounters.SERVICE_SOCKET_TIMEOUT.toSeconds() + " s): a change to a big"
                        + " table can take longer, so run 'slotted migrate' with the same --db, which"
                        + " waits as long as it takes, then start the service again", e);
            }
            throw store.explain(e);
        }
        report.describe().lines().forEach(line -> log.info("schema: {}", line));
    }

    private static void listen(HttpFrontEnd http, ServerSettings settings) {
        try {
            http.start(settings.bind(), settings.port());
        } catch (RuntimeException e) {
            // Javalin has already stopped the Jetty server it failed to start.
            throw cannotListen(settings, e);
        }
    }

    private void listenForResp(ServerSettings settings, RespSettings respSettings, GuardedAccess access,
            CounterNaming naming) {
        resp = new RespFrontEnd(asyncCounters, naming, access, metrics, respSettings,
                settings.requestDeadline(), version(), tls);
        try {
            resp.start(settings.bind());
        } catch (RuntimeException e) {
            http.stop();
            resp = null;
            throw new ServiceFailure("cannot listen for the Redis protocol on " + settings.bind()
                    + ":" + respSettings.port() + ": " + FailureMessage.rootMessage(e), e);
        }
        log.info("slotted listening for the Redis protocol{} on {}:{}", tls == null ? "" : " over TLS",
                settings.bind(), resp.port());
    }

    private void shareH2File(ServerSettings settings) {
        try {
            sharing = SharedH2File.start(settings.database());
        } catch (RuntimeException e) {
            try {
                if (resp != null) {
                    resp.stop();
                }
            } finally {
                http.stop();
            }
            throw e;
        }
    }

    private static String version() {
        String version = SlottedServer.class.getPackage().getImplementationVersion();
        return version == null ? "development" : version;
    }

    private static void logStart(ServerSettings settings, PooledCounters store, int port,
            AccessTokens tokens, ServerTls tls) {
        String address = (tls == null ? "http://" : "https://") + (settings.bind().contains(":")
                ? "[" + settings.bind() + "]" : settings.bind()) + ":" + port;
        log.info("slotted listening on {} with the database {} ({} mode)", address, store.describe(),
                settings.counters().mode());
        if (tls != null) {
            log.info("TLS 1.3 and 1.2 with the certificate {}; its files are read again when they"
                    + " change", tls.describe());
        } else if (settings.plaintext()) {
            log.warn("--plaintext: serving without TLS on {}, so TLS must end in front of the"
                    + " service; tokens and counts cross the network between it and here in clear"
                    + " text", settings.bind());
        }
        if (settings.counters().rollsUp()) {
            log.info("rolling up the counter types bound to owner columns every {} ms",
                    settings.counters().rollUpEvery().toMillis());
        } else {
            log.info("no background roll-up: types bound to owner columns are rolled up by another"
                    + " process, such as 'slotted rollup'");
        }
        if (tokens == null) {
            log.info("no --tokens given: accepting requests without a token, which is allowed only"
                    + " because {} is a loopback address", settings.bind());
            log.info("try: curl -s -X POST {}/v1/counters/1/456/increment{}", address,
                    tls == null ? "" : " --cacert CA.pem");
        } else {
            log.info("accepting {} token(s) from the token file {}: {}", tokens.size(),
                    settings.tokenFile(), String.join(", ", tokens.names()));
        }
    }

    /** Tokens written as themselves are anyone's who can read the file, a backup or a config map. */
    private static void warnOfPlainTokens(ServerSettings settings, AccessTokens tokens) {
        if (!tokens.plainTokenLines().isEmpty()) {
            log.warn("the token file {} holds plain tokens on lines {}: anyone who can read the"
                    + " file can use them; run 'slotted token hash --tokens {}' to keep only their"
                    + " hashes (the tokens keep working)", settings.tokenFile(),
                    tokens.plainTokenLines(), settings.tokenFile());
        }
    }

    /**
     * The port the HTTP front end listens on, which is the one asked for unless that was 0.
     *
     * @return the TCP port
     */
    public int port() {
        return http.port();
    }

    /**
     * The port the Redis-protocol front end listens on.
     *
     * @return the TCP port
     * @throws IllegalStateException if the service was started without it
     */
    public int respPort() {
        if (resp == null) {
            throw new IllegalStateException("the service was started without the Redis protocol");
        }
        return resp.port();
    }

    /** The store the front ends write through, for tests that reach under the service. */
    PooledCounters store() {
        return store;
    }

    /** The HTTP routes as Javalin has them, for the test that holds them to {@code /openapi.json}. */
    SortedSet<String> httpRoutes() {
        return http.routes();
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
            // Every front end stops here, before the store they write through is closed.
            try {
                if (resp != null) {
                    resp.stop();
                }
            } finally {
                http.stop();
            }
            asyncCounters.close();
        } finally {
            try {
                sharing.ifPresent(SharedH2File::close);
                store.close();
            } finally {
                if (tls != null) {
                    tls.close();
                }
                metrics.close();
                stopped.countDown();
                log.info("stopped");
            }
        }
    }
}
