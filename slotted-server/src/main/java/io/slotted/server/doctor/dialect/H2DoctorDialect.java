package io.slotted.server.doctor.dialect;

import io.slotted.server.doctor.Check;
import io.slotted.server.doctor.SessionTransport;
import io.slotted.server.doctor.SessionTransport.Route;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * H2, which keeps no row-lock wait tables of the kind the doctor reads and has no settings that
 * trade durability the way a server's do, so only Slotted's tables are checked, and the connection
 * when it goes to an H2 server. H2's catalog shows neither a column's type nor a table's next id in
 * the form the headroom checks read, so those are left out.
 *
 * <p>H2 reports nothing of its sessions' transport, so for its {@code jdbc:h2:tcp://} and
 * {@code jdbc:h2:ssl://} URLs the URL is all there is: {@code ssl} is encrypted, and the hosts are
 * resolved here. An embedded H2 database has no connection to check.
 */
final class H2DoctorDialect extends DoctorDialect {
    static final String TURN_TLS_ON = "connect with jdbc:h2:ssl://… instead of jdbc:h2:tcp://…, to an H2"
            + " server started with -tcpSSL";
    private static final Pattern NETWORK_URL = Pattern.compile("(?i)jdbc:h2:(tcp|ssl)://([^/]*)/.*");

    @Override
    public Optional<Check> transport(Connection connection) throws SQLException {
        return sessionTransport(connection.getMetaData().getURL()).map(seen -> seen.judge(TURN_TLS_ON));
    }

    /**
     * What an H2 URL says: nothing for an embedded database; for a server, encrypted when it is
     * {@code ssl://}, and loopback only when every host of it (a cluster names several) resolves to
     * loopback addresses alone.
     */
    static Optional<SessionTransport> sessionTransport(String url) {
        Matcher network = NETWORK_URL.matcher(url);
        if (!network.matches()) {
            return Optional.empty();
        }
        String hosts = network.group(2);
        boolean local = Arrays.stream(hosts.split(",")).map(H2DoctorDialect::withoutPort)
                .allMatch(H2DoctorDialect::resolvesToLoopback);
        String encryption = network.group(1).equalsIgnoreCase("ssl") ? "TLS, jdbc:h2:ssl://" : "";
        return Optional.of(new SessionTransport(encryption, local ? Route.LOOPBACK : Route.NETWORK, hosts));
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
}
