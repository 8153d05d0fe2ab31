package io.slotted.server.doctor;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * How the doctor's own session reaches the database — encrypted or not, and over what — and what
 * that means for the connections Slotted makes with the same URL.
 *
 * <p>Plain text is a finding only where it can be read: over the network. A loopback connection or
 * a Unix socket never leaves this machine, and whoever could read it there could read the
 * database's files as well, so TLS would add nothing.
 *
 * <p>Where the session goes is best taken from the server's view of it — the client's address as
 * the server sees it — rather than from the host in the JDBC URL. The server's view names the
 * connection that was actually made, after DNS, after a failover URL picked one of its hosts, over
 * a socket the URL may not show; and it describes the same hop whose encryption the server reports,
 * so a local proxy that relays over the network in plain text (a pooler on {@code localhost}) is
 * reported, where the URL's {@code localhost} would excuse it. The client's address, rather than
 * the server's, because MariaDB and MySQL tell only that one; a loopback address at either end
 * means the packets never left the machine. A port published from a container shows the container
 * bridge's address, not a loopback one, and is reported: the doctor cannot tell that bridge from a
 * network. Each database's way of asking is its {@link io.slotted.server.doctor.dialect.DoctorDialect}'s.
 *
 * @param encryption the protocol and cipher, such as {@code TLSv1.3, TLS_AES_256_GCM_SHA384}; empty
 *     when the session is not encrypted
 * @param route what the session travels over
 * @param address the address that showed the route (the client's as the server sees it, or the
 *     host in the URL), or empty for a socket
 */
public record SessionTransport(String encryption, Route route, String address) {
    /** The check's name in the report. */
    public static final String CHECK = "connection encryption";

    private static final Pattern IP_LITERAL = Pattern.compile("[0-9.]+|.*:.*");

    /** What a session travels over. */
    public enum Route {
        /** A Unix socket (or another channel local to the server, such as a named pipe). */
        UNIX_SOCKET,
        /** TCP over a loopback address: it stays on one machine. */
        LOOPBACK,
        /** TCP over any other address: it may cross a network. */
        NETWORK
    }

    /**
     * A TCP session from the client the server names: loopback or network by that name.
     *
     * @param encryption the protocol and cipher, empty when plain
     * @param client the client's address or name as the server shows it
     * @return the transport
     */
    public static SessionTransport overTcp(String encryption, String client) {
        return new SessionTransport(encryption, isLoopback(client) ? Route.LOOPBACK : Route.NETWORK, client);
    }

    /**
     * The encryption as a server reports it in parts.
     *
     * @param version the protocol version, such as {@code TLSv1.3}; null or blank when not shown
     * @param cipher the cipher; null or blank when not shown
     * @return the parts that are shown, joined by a comma; empty when none is
     */
    public static String encryption(String version, String cipher) {
        return Stream.of(version, cipher).filter(part -> part != null && !part.isBlank())
                .collect(Collectors.joining(", "));
    }

    /**
     * What this transport means.
     *
     * @param turnTlsOn how to turn TLS on for this database, given when a finding is made
     * @return ok when encrypted, or plain on this machine; a finding when plain over the network
     */
    public Check judge(String turnTlsOn) {
        if (!encryption.isEmpty()) {
            return Check.ok(CHECK, "encrypted (" + encryption + "), " + over(), "TLS encrypts the session:"
                    + " the password, ids and counts cannot be read or changed on the way");
        }
        return switch (route) {
            case UNIX_SOCKET, LOOPBACK -> Check.ok(CHECK, "not encrypted, " + over(), "a "
                    + (route == Route.LOOPBACK ? "loopback connection" : "Unix socket") + " never leaves this"
                    + " machine, so there is no network to read it on; TLS matters only to another machine");
            case NETWORK -> Check.finding(CHECK, "not encrypted, " + over(), "the session crosses the network"
                    + " in plain text: anyone on the way can read the password, ids and counts, and change"
                    + " them", "turn TLS on in the JDBC URL: " + turnTlsOn);
        };
    }

    private String over() {
        return switch (route) {
            case UNIX_SOCKET -> "over a Unix socket";
            case LOOPBACK -> "over loopback (" + address + ")";
            case NETWORK -> "over the network (" + address + ")";
        };
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
}
