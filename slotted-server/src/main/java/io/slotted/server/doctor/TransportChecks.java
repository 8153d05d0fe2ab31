package io.slotted.server.doctor;

import io.slotted.server.doctor.SessionTransport.Route;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Whether the doctor's own session is encrypted, and whether it could be read on a network: asked
 * of the server, per database.
 *
 * <p>Where the session goes is taken from the server's view of it — the client's address as the
 * server sees it — not from the host in the JDBC URL. The server's view names the connection that
 * was actually made, after DNS, after a failover URL picked one of its hosts, over a socket the URL
 * may not show; and it describes the same hop whose encryption the server reports, so a local proxy
 * that relays over the network in plain text (a pooler on {@code localhost}) is reported, where the
 * URL's {@code localhost} would excuse it. The client's address, rather than the server's, because
 * MariaDB and MySQL tell only that one; a loopback address at either end means the packets never
 * left the machine. A port published from a container shows the container bridge's address, not a
 * loopback one, and is reported: the doctor cannot tell that bridge from a network.
 *
 * <p>H2 reports neither, so for its {@code jdbc:h2:tcp://} and {@code jdbc:h2:ssl://} URLs the URL
 * is all there is: {@code ssl} is encrypted, and the hosts are resolved here. An embedded H2
 * database has no connection to check.
 */
final class TransportChecks {
    static final String MARIADB_TLS = "add sslMode=verify-full&serverSslCert=/path/to/ca.pem (MariaDB"
            + " Connector/J 3.x; the server needs ssl_cert and ssl_key)";
    static final String POSTGRES_TLS = "add sslmode=verify-full&sslrootcert=/path/to/ca.pem (PgJDBC; the"
            + " server needs ssl = on with ssl_cert_file and ssl_key_file)";
    static final String H2_TLS = "connect with jdbc:h2:ssl://… instead of jdbc:h2:tcp://…, to an H2"
            + " server started with -tcpSSL";
    private static final Pattern IP_LITERAL = Pattern.compile("[0-9.]+|.*:.*");
    private static final Pattern H2_NETWORK_URL = Pattern.compile("(?i)jdbc:h2:(tcp|ssl)://([^/]*)/.*");

    private TransportChecks() {
    }

    /**
     * MariaDB and MySQL: {@code Ssl_version} and {@code Ssl_cipher} are empty on a plain session;
     * the process list shows the session's own client as {@code ip:port}, or {@code localhost}
     * without a port for a socket. A user sees its own session there without {@code PROCESS}.
     */
    static Check mariaDb(Connection connection) throws SQLException {
        Map<String, String> status = new HashMap<>();
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SHOW SESSION STATUS WHERE Variable_name IN"
                        + " ('Ssl_version', 'Ssl_cipher')")) {
            while (rows.next()) {
                status.put(rows.getString(1).toLowerCase(Locale.ROOT), rows.getString(2));
            }
        }
        String host = firstString(connection, "SELECT HOST FROM information_schema.PROCESSLIST"
                + " WHERE ID = CONNECTION_ID()");
        return fromMariaDb(status.get("ssl_version"), status.get("ssl_cipher"), host).judge(MARIADB_TLS);
    }

    /**
     * PostgreSQL: {@code pg_stat_ssl} for this backend, and the client's address as the server
     * sees it, null over a Unix socket. (A session encrypted by GSSAPI rather than TLS reads as
     * plain here.)
     */
    static Check postgres(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SELECT s.ssl, s.version, s.cipher,"
                        + " host(inet_client_addr()) FROM pg_stat_ssl s WHERE s.pid = pg_backend_pid()")) {
            boolean found = row.next();
            return fromPostgres(found && row.getBoolean(1), found ? row.getString(2) : null,
                    found ? row.getString(3) : null, found ? row.getString(4) : null).judge(POSTGRES_TLS);
        }
    }

    /** H2: the check for a network URL, or none for an embedded database. */
    static Optional<Check> h2(Connection connection) throws SQLException {
        return fromH2Url(connection.getMetaData().getURL()).map(seen -> seen.judge(H2_TLS));
    }

    /** What MariaDB's status and process list say. */
    static SessionTransport fromMariaDb(String version, String cipher, String host) {
        String encryption = joined(version, cipher);
        int colon = host.lastIndexOf(':');
        if (colon < 0) {
            // Only the server's local channels (socket, named pipe, shared memory) have no port, and
            // MariaDB calls them all localhost; anything else is a row the doctor cannot read.
            return host.equalsIgnoreCase("localhost") ? new SessionTransport(encryption, Route.UNIX_SOCKET, "")
                    : new SessionTransport(encryption, Route.NETWORK, "client not shown: '" + host + "'");
        }
        String client = host.substring(0, colon);
        return new SessionTransport(encryption, isLoopback(client) ? Route.LOOPBACK : Route.NETWORK, client);
    }

    /** What PostgreSQL's {@code pg_stat_ssl} and {@code inet_client_addr()} say. */
    static SessionTransport fromPostgres(boolean ssl, String version, String cipher, String client) {
        String encryption = !ssl ? "" : joined(version, cipher).isEmpty() ? "TLS" : joined(version, cipher);
        if (client == null) {
            return new SessionTransport(encryption, Route.UNIX_SOCKET, "");
        }
        return new SessionTransport(encryption, isLoopback(client) ? Route.LOOPBACK : Route.NETWORK, client);
    }

    /**
     * What an H2 URL says: nothing for an embedded database; for a server, encrypted when it is
     * {@code ssl://}, and loopback only when every host of it (a cluster names several) resolves to
     * loopback addresses alone.
     */
    static Optional<SessionTransport> fromH2Url(String url) {
        var network = H2_NETWORK_URL.matcher(url);
        if (!network.matches()) {
            return Optional.empty();
        }
        String hosts = network.group(2);
        boolean local = Arrays.stream(hosts.split(",")).map(TransportChecks::withoutPort)
                .allMatch(TransportChecks::resolvesToLoopback);
        String encryption = network.group(1).equalsIgnoreCase("ssl") ? "TLS, jdbc:h2:ssl://" : "";
        return Optional.of(new SessionTransport(encryption, local ? Route.LOOPBACK : Route.NETWORK, hosts));
    }

    /**
     * A name the server gave its client is judged without DNS: MariaDB names a loopback client
     * {@code localhost} without asking DNS, so any other name is another machine's.
     */
    private static boolean isLoopback(String address) {
        if (address.equalsIgnoreCase("localhost")) {
            return true;
        }
        try {
            return IP_LITERAL.matcher(address).matches() && InetAddress.getByName(address).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    private static boolean resolvesToLoopback(String host) {
        try {
            return Arrays.stream(InetAddress.getAllByName(host)).allMatch(InetAddress::isLoopbackAddress);
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /** {@code host}, {@code host:port}, {@code [v6]} or {@code [v6]:port} to the host alone. */
    private static String withoutPort(String hostAndPort) {
        if (hostAndPort.startsWith("[")) {
            return hostAndPort.substring(1, Math.max(1, hostAndPort.indexOf(']')));
        }
        int colon = hostAndPort.indexOf(':');
        return colon < 0 ? hostAndPort : hostAndPort.substring(0, colon);
    }

    private static String joined(String version, String cipher) {
        return Stream.of(version, cipher).filter(part -> part != null && !part.isBlank())
                .collect(Collectors.joining(", "));
    }

    private static String firstString(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery(sql)) {
            return row.next() ? String.valueOf(row.getString(1)) : "";
        }
    }
}
