package io.slotted.db;

import java.util.Optional;
import java.util.function.Function;

/**
 * A database server reached over TCP: a proxy can stand between it and its clients, and a test may
 * make a database of its own in it.
 */
public abstract class ServerTestDatabase extends TestDatabase {

    /**
     * Whether the driver sends the statements of one string together, in one packet, on this
     * server's own URL: PgJDBC always does, MariaDB Connector/J only with {@code allowMultiQueries}.
     */
    public abstract boolean sendsStatementsTogether();

    /** This server's JDBC URL with its host and port replaced, to go through a proxy. */
    public String jdbcUrlVia(String host, int port) {
        return jdbcUrl().replaceFirst("//[^/:]+:\\d+/", "//" + host + ":" + port + "/");
    }

    /**
     * {@link #jdbcUrlVia}, with whatever makes the driver send the statements of one string
     * together; the same URL where it always does.
     */
    public String jdbcUrlViaSendingStatementsTogether(String host, int port) {
        return jdbcUrlVia(host, port);
    }

    /** This server's JDBC URL with its user and password parameters replaced. */
    public String jdbcUrlAs(String user, String password) {
        String rest = jdbcUrl().replaceAll("(?i)([?&])(user|password)=[^&]*&?", "$1").replaceAll("[?&]$", "");
        return rest + (rest.contains("?") ? "&" : "?") + "user=" + user + "&password=" + password;
    }

    /** The host in the JDBC URL. */
    public String host() {
        return jdbcUrl().replaceFirst("^.*//([^/:]+):\\d+/.*$", "$1");
    }

    /** The port in the JDBC URL. */
    public int port() {
        return Integer.parseInt(jdbcUrl().replaceFirst("^.*//[^/:]+:(\\d+)/.*$", "$1"));
    }

    /**
     * How a test starts a server of this kind of its own, to stop and start it or to give it TLS:
     * present for the kinds the tests can start from Maven Central.
     */
    public Optional<PrivateServers> privateServers() {
        return Optional.empty();
    }

    /**
     * Starts servers of one kind for a test alone, each named for its files under {@code target/},
     * and reaches one as a test database.
     *
     * @param plain starts a server
     * @param withTls starts a server with TLS on, whose URL asks for TLS without checking the
     *     certificate
     * @param at the test database at a URL
     */
    public record PrivateServers(Function<String, RestartableServer> plain,
            Function<String, RestartableServer> withTls, Function<String, ServerTestDatabase> at) {

        /** A running server for the caller alone. */
        public RestartableServer privateServer(String name) {
            return plain.apply(name);
        }

        /** A running server for the caller alone, with TLS on. */
        public RestartableServer privateServerWithTls(String name) {
            return withTls.apply(name);
        }

        /** A private server as a test database, for set-up and reads. */
        public ServerTestDatabase on(RestartableServer server) {
            return at.apply(server.jdbcUrl());
        }
    }
}
