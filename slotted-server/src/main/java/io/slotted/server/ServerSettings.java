package io.slotted.server;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Objects;

/**
 * Everything {@link SlottedServer} runs with, checked as a whole when made: the address to listen
 * on, the database, the tokens, the type names and how counters are written.
 *
 * <p>One rule spans settings: without tokens, anyone who can reach the port may change counts, so
 * the service then listens only on a loopback address, reachable from this machine alone.
 *
 * @param port the TCP port, 0 to 65535; 0 picks a free one (for tests)
 * @param bind the address to listen on, such as {@code 127.0.0.1} or {@code 0.0.0.0}
 * @param database where the counters live
 * @param tokens the accepted tokens, or null for no authentication
 * @param types the configured type names
 * @param counters the counter table, write mode and slots
 */
public record ServerSettings(int port, String bind, DatabaseSettings database, AccessTokens tokens,
        TypeNames types, Database.CounterSettings counters) {
    /** The port the service listens on unless told otherwise. */
    public static final int DEFAULT_PORT = 8080;
    /** The address the service listens on unless told otherwise: this machine only. */
    public static final String DEFAULT_BIND = "127.0.0.1";

    /**
     * Checks the settings.
     *
     * @throws UsageException if the port is out of range, the address cannot be resolved, or it is
     *     not a loopback address and there are no tokens
     */
    public ServerSettings {
        Objects.requireNonNull(bind, "bind");
        Objects.requireNonNull(database, "database");
        Objects.requireNonNull(types, "types");
        Objects.requireNonNull(counters, "counters");
        if (port < 0 || port > 65_535) {
            throw new UsageException("--port must be between 0 and 65535, but was " + port);
        }
        if (tokens == null && !isLoopback(bind)) {
            throw new UsageException("refusing to listen on " + bind + " without --tokens: anyone"
                    + " who can reach it could change counts; give --tokens FILE, or --bind"
                    + " 127.0.0.1 to serve this machine only");
        }
    }

    /**
     * The defaults, on the given database: port 8080 on 127.0.0.1, no tokens, no type names, the
     * default counter settings.
     *
     * @param database where the counters live
     * @return the settings
     */
    public static ServerSettings defaults(DatabaseSettings database) {
        return new ServerSettings(DEFAULT_PORT, DEFAULT_BIND, database, null, TypeNames.none(),
                Database.CounterSettings.DEFAULTS);
    }

    /**
     * These settings on another port.
     *
     * @param port the TCP port; 0 picks a free one
     * @return the changed settings
     */
    public ServerSettings withPort(int port) {
        return new ServerSettings(port, bind, database, tokens, types, counters);
    }

    /**
     * Whether the service listens on this machine only.
     *
     * @return true for a loopback address
     */
    public boolean loopbackOnly() {
        return isLoopback(bind);
    }

    private static boolean isLoopback(String bind) {
        try {
            return InetAddress.getByName(bind).isLoopbackAddress();
        } catch (UnknownHostException e) {
            throw new UsageException("--bind " + bind + " is not an address of this machine: "
                    + e.getMessage(), e);
        }
    }
}
