package io.slotted.server.config;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Everything the service runs with, checked as a whole when made: the address to listen on, the
 * database, the token file, TLS, the type names and how counters are written.
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
 */
public record ServerSettings(int port, String bind, DatabaseSettings database, Path tokenFile,
        TypeNames types, CounterSettings counters, TlsFiles tls, boolean plaintext) {
    /** The port the service listens on unless told otherwise. */
    public static final int DEFAULT_PORT = 8080;
    /** The address the service listens on unless told otherwise: this machine only. */
    public static final String DEFAULT_BIND = "127.0.0.1";

    private static final int MAX_PORT = 65_535;

    /**
     * Checks the settings.
     *
     * @throws IllegalArgumentException if the port is out of range, the address cannot be resolved,
     *     or it is not a loopback address and there is no token file, or neither TLS nor plaintext
     * @throws IllegalStateException if both TLS and plaintext are asked for
     */
    public ServerSettings {
        Objects.requireNonNull(bind, "bind");
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(types, "types");
        Objects.requireNonNull(counters, "counters");
        if (port < 0 || port > MAX_PORT) {
            throw new IllegalArgumentException("port must be between 0 and " + MAX_PORT
                    + ", but was " + port);
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
     * Settings without TLS, as a service listening on a loopback address runs.
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
        this(port, bind, database, tokenFile, types, counters, null, false);
    }

    /**
     * The defaults, on the given database: port 8080 on 127.0.0.1, no tokens, no type names, the
     * default counter settings with bound types rolled up every second
     * ({@link CounterSettings#SERVICE_ROLL_UP}).
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
        return new ServerSettings(port, bind, database, tokenFile, types, counters, tls, plaintext);
    }

    /**
     * These settings, served over TLS.
     *
     * @param files the certificate, key and optional client CA
     * @return the changed settings
     */
    public ServerSettings withTls(TlsFiles files) {
        return new ServerSettings(port, bind, database, tokenFile, types, counters, files, false);
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
