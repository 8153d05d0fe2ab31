package io.slotted.server.config;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * Everything the service runs with, checked as a whole when made: the address to listen on, the
 * database, the token file, TLS, the type names, how counters are written, and how long a client
 * of any front end waits for its counter work.
 *
 * <p>Two rules span settings, both about an address other machines can reach. Without tokens,
 * anyone who can reach the port may change counts, so the service then listens only on a loopback
 * address, reachable from this machine alone. And without TLS, tokens and counts cross the network
 * in clear text, so a non-loopback address also needs TLS, unless {@code plaintext} says that TLS
 * ends in front of the service (a load balancer, a sidecar).
 *
 * <p>The token file is named, not read: reading it, like opening the database, is part of starting
 * the service, and these settings are only the description of one.
 *
 * @param port the TCP port, 0 to 65535; 0 picks a free one (for tests)
 * @param bind the address to listen on, such as {@code 127.0.0.1} or {@code 0.0.0.0}
 * @param database where the counters live
 * @param tokenFile the file of accepted tokens, or null for no authentication
 * @param types the configured type names
 * @param counters the counter table, write mode, slots and roll-up interval
 * @param tls the certificate and key every front end serves TLS with, or null for none
 * @param plaintext whether the operator means to serve without TLS on a non-loopback address
 * @param requestDeadline how long a counter request (HTTP, once its body has arrived) or command
 *     (Redis protocol, from its arrival) may take: past it the client is answered at once with
 *     what is known, {@code timeout} when nothing was written and {@code outcome unknown} when a
 *     write may still land (default 10 s, at least 1 ms)
 */
public record ServerSettings(int port, String bind, DatabaseSettings database, Path tokenFile,
        TypeNames types, CounterSettings counters, TlsFiles tls, boolean plaintext,
        Duration requestDeadline) {
    /** The port the service listens on unless told otherwise. */
    public static final int DEFAULT_PORT = 8080;
    /** The address the service listens on unless told otherwise: this machine only. */
    public static final String DEFAULT_BIND = "127.0.0.1";

    /**
     * How long counter work may take unless told otherwise: 10 s, long enough for a commit that
     * waits behind a few slow ones or a short lock, short enough that a client learns within a
     * usual client timeout that the database stopped answering, instead of timing out itself
     * without knowing what was applied.
     */
    public static final Duration DEFAULT_REQUEST_DEADLINE = Duration.ofSeconds(10);

    private static final int MAX_PORT = 65_535;
    private static final Duration MIN_DEADLINE = Duration.ofMillis(1);

    /**
     * Checks the settings.
     *
     * @throws IllegalArgumentException if the port is out of range, the address cannot be resolved,
     *     or it is not a loopback address and there is no token file, or neither TLS nor
     *     plaintext, or the request deadline is shorter than 1 ms
     * @throws IllegalStateException if both TLS and plaintext are asked for
     */
    public ServerSettings {
        Objects.requireNonNull(bind, "bind");
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(types, "types");
        Objects.requireNonNull(counters, "counters");
        Objects.requireNonNull(requestDeadline, "requestDeadline");
        if (port < 0 || port > MAX_PORT) {
            throw new IllegalArgumentException("port must be between 0 and " + MAX_PORT
                    + ", but was " + port);
        }
        if (requestDeadline.compareTo(MIN_DEADLINE) < 0) {
            throw new IllegalArgumentException("requestDeadline must be at least 1ms, but was "
                    + requestDeadline);
        }
        boolean network = needsTokens(bind);
        if (tokenFile == null && network) {
            throw new IllegalArgumentException("refusing to listen on " + bind + " without tokens:"
                    + " anyone who can reach it could change counts; give a token file, or listen"
                    + " on " + DEFAULT_BIND + " to serve this machine only");
        }
        if (tls != null && plaintext) {
            throw new IllegalStateException("TLS files and plaintext conflict: serve TLS, or say"
                    + " that TLS ends in front of the service, not both");
        }
        if (tls == null && !plaintext && network) {
            throw new IllegalArgumentException("refusing to listen on " + bind + " without TLS:"
                    + " tokens and counts would cross the network in clear text; give a certificate"
                    + " and key, or say plaintext when TLS ends in front of the service");
        }
    }

    /**
     * Settings without TLS and with the default request deadline, as a service listening on a
     * loopback address runs.
     *
     * @param port the TCP port, 0 to 65535; 0 picks a free one
     * @param bind the address to listen on
     * @param database where the counters live
     * @param tokenFile the file of accepted tokens, or null for no authentication
     * @param types the configured type names
     * @param counters the counter table, write mode, slots and roll-up interval
     * @throws IllegalArgumentException as the full constructor does; a non-loopback address is
     *     refused, since it needs TLS or plaintext
     */
    public ServerSettings(int port, String bind, DatabaseSettings database, Path tokenFile,
            TypeNames types, CounterSettings counters) {
        this(port, bind, database, tokenFile, types, counters, null, false, DEFAULT_REQUEST_DEADLINE);
    }

    /**
     * The defaults, on the given database: port 8080 on 127.0.0.1, no tokens, no type names, the
     * default counter settings with bound types rolled up every second
     * ({@link CounterSettings#SERVICE_ROLL_UP}), and a 10 s request deadline.
     *
     * @param database where the counters live
     * @return the settings
     */
    public static ServerSettings defaults(DatabaseSettings database) {
        return new ServerSettings(DEFAULT_PORT, DEFAULT_BIND, database, null, TypeNames.none(),
                CounterSettings.DEFAULTS.withRollUpEvery(CounterSettings.SERVICE_ROLL_UP));
    }

    /**
     * Whether listening on an address needs tokens: it does unless the address is a loopback one.
     * A front end can ask before it makes the settings, to word the refusal in its own terms.
     *
     * @param bind the address to listen on
     * @return true unless {@code bind} is a loopback address
     * @throws IllegalArgumentException if the address cannot be resolved
     */
    public static boolean needsTokens(String bind) {
        try {
            return !InetAddress.getByName(bind).isLoopbackAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("bind address " + bind + " is not an address of"
                    + " this machine: " + e.getMessage(), e);
        }
    }

    /**
     * These settings on another port.
     *
     * @param port the TCP port; 0 picks a free one
     * @return the changed settings
     */
    public ServerSettings withPort(int port) {
        return new ServerSettings(port, bind, database, tokenFile, types, counters, tls, plaintext,
                requestDeadline);
    }

    /**
     * These settings, served over TLS.
     *
     * @param files the certificate, key and optional client CA
     * @return the changed settings
     */
    public ServerSettings withTls(TlsFiles files) {
        return new ServerSettings(port, bind, database, tokenFile, types, counters, files, false,
                requestDeadline);
    }

    /**
     * These settings with another deadline for counter work, on every front end.
     *
     * @param deadline how long a counter request or command may take
     * @return the changed settings
     * @throws IllegalArgumentException if the deadline is shorter than 1 ms
     */
    public ServerSettings withRequestDeadline(Duration deadline) {
        return new ServerSettings(port, bind, database, tokenFile, types, counters, tls, plaintext,
                deadline);
    }

    /**
     * Whether the service listens on this machine only.
     *
     * @return true for a loopback address
     */
    public boolean loopbackOnly() {
        return !needsTokens(bind);
    }
}
