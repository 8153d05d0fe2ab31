package io.slotted.server.doctor;

import static io.slotted.server.doctor.DoctorSuite.examineOn;
import static io.slotted.server.doctor.DoctorSuite.finding;
import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.slotted.db.MariaDbTestDatabase;
import io.slotted.db.TestDatabase;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The doctor on a plain MariaDB session the server sees coming from a network address, which the
 * doctor reports with the URL parameters that turn TLS on.
 */
class PlainSessionFromTheNetworkTest {
    private final TestDatabase db = MariaDbTestDatabase.instance();
    private final String table = DoctorSuite.freshName();

    /**
     * The driver binds its end of the connection to this machine's own network address, so the
     * server sees the session come from that address over TCP, as it would from another machine,
     * while the packets still reach the server on loopback.
     */
    @Test
    void aPlainSessionFromANetworkAddress_isAFinding_thatGivesTheUrlParameters() throws SocketException {
        Optional<InetAddress> own = networkAddress();
        assertThat(own).as("a non-loopback IPv4 address of this machine to connect from, which the"
                + " machines this project is tested on have").isPresent();
        String address = own.get().getHostAddress();
        String user = table + "_net";
        db.execute("CREATE USER '" + user + "'@'%' IDENTIFIED BY 'pw-" + user + "'");
        try {
            db.execute("GRANT SELECT, PROCESS ON *.* TO '" + user + "'@'%'");
            String url = db.jdbcUrl().replaceFirst("user=[^&]*", "user=" + user + "&password=pw-" + user)
                    + "&localSocketAddress=" + address;
            DoctorReport report;
            try (HikariDataSource fromTheNetwork = db.poolFor(url, "doctor-from-the-network", 2)) {
                report = examineOn(fromTheNetwork);
            }

            System.out.println(DoctorText.render(report));
            Check connection = finding(report, SessionTransport.CHECK);
            assertThat(connection.value()).isEqualTo("not encrypted, over the network (" + address + ")");
            assertThat(connection.advice()).isEqualTo("turn TLS on in the JDBC URL: add sslMode=verify-full"
                    + "&serverSslCert=/path/to/ca.pem (MariaDB Connector/J 3.x; the server needs ssl_cert and ssl_key)");
            assertThat(report.hasFindings()).isTrue();
            assertThat(DoctorText.render(report)).contains("FIX  connection encryption: not encrypted, over the network");
        } finally {
            db.execute("DROP USER '" + user + "'@'%'");
        }
    }

    /** One of this machine's IPv4 addresses other than loopback, to connect from. */
    private static Optional<InetAddress> networkAddress() throws SocketException {
        return NetworkInterface.networkInterfaces().filter(PlainSessionFromTheNetworkTest::isUp)
                .flatMap(NetworkInterface::inetAddresses)
                .filter(address -> address instanceof Inet4Address && !address.isLoopbackAddress()
                        && !address.isLinkLocalAddress())
                .findFirst();
    }

    private static boolean isUp(NetworkInterface network) {
        try {
            return network.isUp() && !network.isLoopback();
        } catch (SocketException e) {
            return false;
        }
    }
}
