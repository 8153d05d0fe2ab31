package io.slotted.server.cli;

import io.slotted.WriteMode;
import io.slotted.server.SlottedServer;
import io.slotted.server.resp.RespSettings;
import io.slotted.server.cli.bucket.BucketsOption;
import io.slotted.server.config.CounterSettings;
import io.slotted.server.config.NameBounds;
import io.slotted.server.config.ServerSettings;
import io.slotted.server.config.TlsFiles;
import io.slotted.server.config.TypeLimits;
import io.slotted.server.store.FailureMessage;
import io.slotted.server.http.HttpSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code slotted serve}: runs the HTTP service until the process is told to stop.
 *
 * <p>SIGTERM (or Ctrl-C) runs a JVM shutdown hook that stops the service gracefully (see
 * {@link SlottedServer#close()}). The JVM would then report status 143 for the signal even though
 * every accepted increment was written; the hook ends the process with 0 itself after a clean
 * drain, and 1 if the drain failed, so a supervisor can tell the two apart.
 */
@Command(name = "serve", mixinStandardHelpOptions = true, description = "Runs the HTTP service, and the Redis protocol with --resp-port.")
final class ServeCommand implements Callable<Integer> {
    private static final Logger log = LoggerFactory.getLogger(ServeCommand.class);

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "${env:SLOTTED_PORT:-8080}",
            description = "TCP port to listen on. Default: 8080. Env: SLOTTED_PORT.")
    int port;

    @Option(names = "--bind", paramLabel = "ADDRESS", defaultValue = "${env:SLOTTED_BIND:-127.0.0.1}",
            description = "Address to listen on; anything but loopback needs --tokens, and TLS"
                    + " (--tls-cert, --tls-key) or --plaintext."
                    + " Default: 127.0.0.1. Env: SLOTTED_BIND.")
    String bind;

    @Option(names = "--resp-port", paramLabel = "PORT", defaultValue = "${env:SLOTTED_RESP_PORT}",
            description = "Also serve the Redis protocol (INCR, GET, ...) on this TCP port, on the"
                    + " same address and tokens as HTTP. Default: off. Env: SLOTTED_RESP_PORT.")
    Integer respPort;

    @Mixin
    DatabaseOptions db;

    @Option(names = "--tokens", paramLabel = "FILE", defaultValue = "${env:SLOTTED_TOKENS}",
            description = "Token file, lines of '<name> sha256:<hex> <scope>[,<scope>...]' made by"
                    + " 'slotted token create' (older plain '<token> <scopes>' lines still work), scopes"
                    + " read, write, admin; without it only loopback clients are served, unauthenticated."
                    + " Env: SLOTTED_TOKENS.")
    Path tokens;

    @Option(names = "--tls-cert", paramLabel = "FILE", defaultValue = "${env:SLOTTED_TLS_CERT}",
            description = "PEM certificate chain, own certificate first: serves HTTPS, and TLS on"
                    + " the Redis port (TLS 1.3 and 1.2). Read again when the file changes."
                    + " Needs --tls-key. Env: SLOTTED_TLS_CERT.")
    Path tlsCert;

    @Option(names = "--tls-key", paramLabel = "FILE", defaultValue = "${env:SLOTTED_TLS_KEY}",
            description = "PEM private key of --tls-cert (PKCS#8, RSA or EC), unencrypted. Read"
                    + " again when the file changes. Env: SLOTTED_TLS_KEY.")
    Path tlsKey;

    @Option(names = "--tls-client-ca", paramLabel = "FILE", defaultValue = "${env:SLOTTED_TLS_CLIENT_CA}",
            description = "PEM CA certificates: clients must present a certificate one of them"
                    + " signed (mutual TLS). Needs --tls-cert. Env: SLOTTED_TLS_CLIENT_CA.")
    Path tlsClientCa;

    @Option(names = "--plaintext", defaultValue = "${env:SLOTTED_PLAINTEXT:-false}",
            description = "Serve without TLS on a non-loopback --bind, because TLS ends in front of"
                    + " the service (a load balancer). Env: SLOTTED_PLAINTEXT.")
    boolean plaintext;

    @Mixin
    TypeNamesOption types;

    @Mixin
    BucketsOption buckets;

    @Option(names = "--limits", paramLabel = "TYPE=MIN..MAX", defaultValue = "${env:SLOTTED_LIMITS}",
            description = "A counter type whose totals are kept within limits, either end left out for none,"
                    + " such as stock=0.. or quota=..1000: an increment that would take a total outside is"
                    + " refused (HTTP 409 limit_exceeded, Redis -ERR limit exceeded) and counts nowhere. A quota"
                    + " per window, such as api_calls=..10000/month or resets=..5/hour@Europe/Paris (windows minute,"
                    + " hour, day, week, month, month+DAY, or a duration such as 90s), bounds what each window adds"
                    + " (HTTP 429 quota_exceeded with Retry-After, Redis -ERR quota exceeded). Recorded"
                    + " in the database: every process must give the same limits, or none. Repeatable, or"
                    + " comma-separated. Env: SLOTTED_LIMITS.")
    List<String> limits = new ArrayList<>();

    @Option(names = "--expiring", paramLabel = "TYPE", defaultValue = "${env:SLOTTED_EXPIRING}",
            description = "A counter type (a configured name or a number) whose counters may expire, as Redis"
                    + " keys do: EXPIRE, PEXPIRE, EXPIREAT, PEXPIREAT, TTL, PTTL, PERSIST and SET key n EX|PX in"
                    + " the Redis protocol, PUT and DELETE /v1/counters/{type}/{id}/expiry in HTTP. Each write of"
                    + " such a type takes its counter's expiry lock. Every process must give the same types."
                    + " Repeatable, or comma-separated. Env: SLOTTED_EXPIRING.")
    List<String> expiring = new ArrayList<>();

    @Option(names = "--mode", paramLabel = "grouped|direct|buffered", converter = WriteModeConverter.class,
            defaultValue = "${env:SLOTTED_MODE:-grouped}",
            description = "How increments are written. Default: grouped (group commit). Env: SLOTTED_MODE.")
    WriteMode mode;

    @Option(names = "--slots", paramLabel = "N", defaultValue = "${env:SLOTTED_SLOTS}",
            description = "Slots per counter, 1 to 1024. Default: 16 (grouped, buffered) or 100"
                    + " (direct). Env: SLOTTED_SLOTS.")
    Integer slots;

    @Option(names = "--rollup-every", paramLabel = "TIME", converter = DurationConverter.class,
            defaultValue = "${env:SLOTTED_ROLLUP_EVERY:-1s}",
            description = "How often the counter types bound to owner columns (slotted adopt) are"
                    + " rolled up, 10ms to 60m; 0 turns the background roll-up off. Every service"
                    + " may roll up: one at a time rolls up each type. Default: 1s."
                    + " Env: SLOTTED_ROLLUP_EVERY.")
    Duration rollUpEvery;

    @Option(names = "--new-ids-per-second", paramLabel = "N",
            defaultValue = "${env:SLOTTED_NEW_IDS_PER_SECOND:-10000}",
            description = "New string ids (such as the alice of views:alice) this service records"
                    + " per second at most, in bursts of up to a second's worth; an increment of a"
                    + " new id past it is refused and changes nothing. Ids already recorded are"
                    + " always served. 1 to 1000000. Default: 10000. Env: SLOTTED_NEW_IDS_PER_SECOND.")
    int newIdsPerSecond;

    @Option(names = "--max-type-names", paramLabel = "N",
            defaultValue = "${env:SLOTTED_MAX_TYPE_NAMES:-1000}",
            description = "Type names the database may hold, counted over every service; an"
                    + " increment of a new type name past it is refused. 0 allows only the names"
                    + " of --types. Default: 1000. Env: SLOTTED_MAX_TYPE_NAMES.")
    int maxTypeNames;

    @Option(names = "--request-timeout", paramLabel = "TIME", converter = DurationConverter.class,
            defaultValue = "${env:SLOTTED_REQUEST_TIMEOUT:-10s}",
            description = "How long a counter request may take once its body has arrived, or a Redis"
                    + " command from its arrival, before it is answered with what is known: HTTP 503"
                    + " timeout or outcome_unknown, Redis -ERR timeout or -ERR outcome unknown."
                    + " Default: 10s. Env: SLOTTED_REQUEST_TIMEOUT.")
    Duration requestTimeout;

    @Option(names = "--body-timeout", paramLabel = "TIME", converter = DurationConverter.class,
            defaultValue = "${env:SLOTTED_BODY_TIMEOUT:-10s}",
            description = "How long a request body may take to arrive before it is answered 408."
                    + " Default: 10s. Env: SLOTTED_BODY_TIMEOUT.")
    Duration bodyTimeout;

    @Option(names = "--workers", paramLabel = "N", defaultValue = "${env:SLOTTED_WORKERS:-32}",
            description = "Threads that run counter work; up to 1000 requests more wait for one,"
                    + " past that a request is answered 503 at once. Default: 32. Env: SLOTTED_WORKERS.")
    int workers;

    @Option(names = "--max-connections", paramLabel = "N",
            defaultValue = "${env:SLOTTED_MAX_CONNECTIONS:-2000}",
            description = "Connections open at once; more wait to be accepted. Default: 2000."
                    + " Env: SLOTTED_MAX_CONNECTIONS.")
    int maxConnections;

    @Option(names = "--idle-timeout", paramLabel = "TIME", converter = DurationConverter.class,
            defaultValue = "${env:SLOTTED_IDLE_TIMEOUT:-30s}",
            description = "How long a connection may stay idle before it is closed. Default: 30s."
                    + " Env: SLOTTED_IDLE_TIMEOUT.")
    Duration idleTimeout;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        Path tokenFile = tokens == null || tokens.toString().isBlank() ? null : tokens;
        if (tokenFile == null && ServerSettings.needsTokens(bind)) {
            throw refusedWithoutTokens();
        }
        TlsFiles tls = tlsFiles();
        if (tls == null && !plaintext && ServerSettings.needsTokens(bind)) {
            throw refusedWithoutTls();
        }
        ServerSettings settings = new ServerSettings(port, bind, db.settings(), tokenFile,
                types.names(), new CounterSettings(CounterSettings.DEFAULTS.table(), mode, slots,
                        rollUpEvery).withBuckets(buckets.kept(types))
                        .withLimits(TypeLimits.parse(limits == null ? List.of() : limits, types.names()))
                        .withExpiring(TypeLimits.parseExpiring(expiring == null ? List.of() : expiring, types.names()))
                        .withNameBounds(new NameBounds(newIdsPerSecond, maxTypeNames)),
                tls, plaintext, requestTimeout);
        HttpSettings defaults = HttpSettings.defaults();
        HttpSettings http = defaults.withBodyDeadline(bodyTimeout)
                .withWorkers(workers, defaults.workerQueue()).withConnections(maxConnections, idleTimeout);
        SlottedServer server = SlottedServer.start(settings, http,
                respPort == null ? null : RespSettings.on(respPort));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(server), "slotted-shutdown"));
        server.awaitClose();
        return 0;
    }

    /** The settings' own refusal, worded with the flags that fix it. */
    private ParameterException refusedWithoutTokens() {
        return usage("refusing to listen on " + bind + " without --tokens: anyone who can reach it could change counts; give --tokens"
                + " FILE, or --bind " + ServerSettings.DEFAULT_BIND + " to serve this machine only");
    }

    /** The TLS files, when the flags name a whole set; the flags that are missing otherwise. */
    private TlsFiles tlsFiles() {
        Path cert = given(tlsCert);
        Path key = given(tlsKey);
        Path clientCa = given(tlsClientCa);
        if (cert == null && key == null) {
            if (clientCa != null) {
                throw usage("--tls-client-ca needs --tls-cert FILE --tls-key FILE:"
                        + " mutual TLS is TLS first");
            }
            return null;
        }
        if (cert == null) {
            throw usage("--tls-key needs --tls-cert FILE, the certificate of that key");
        }
        if (key == null) {
            throw usage("--tls-cert needs --tls-key FILE, the certificate's private key");
        }
        if (plaintext) {
            throw usage("--plaintext and --tls-cert conflict: give --tls-cert and --tls-key to serve"
                    + " TLS, or --plaintext when TLS ends in front of the service, not both");
        }
        return new TlsFiles(cert, key, clientCa);
    }

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    private static Path given(Path file) {
        return file == null || file.toString().isBlank() ? null : file;
    }

    /** The settings' own refusal, worded with the flags that fix it. */
    private ParameterException refusedWithoutTls() {
        return usage("refusing to listen on " + bind + " without TLS: tokens and counts would"
                + " cross the network in clear text; give --tls-cert FILE --tls-key FILE, or"
                + " --plaintext when TLS ends in front of the service, or --bind "
                + ServerSettings.DEFAULT_BIND + " to serve this machine only");
    }

    private static void stop(SlottedServer server) {
        int status = 0;
        try {
            server.close();
        } catch (RuntimeException e) {
            log.error("the service did not stop cleanly: {}", FailureMessage.of(e), e);
            status = 1;
        }
        Runtime.getRuntime().halt(status);
    }
}
