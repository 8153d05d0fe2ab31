package io.slotted.server.doctor;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.slotted.db.EmbeddedMariaDbServer;
import io.slotted.db.RestartableServer;
import io.slotted.db.MariaDbTestDatabase;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The doctor on MariaDB, a user without the PROCESS privilege, and a session the server sees coming
 * from a network address.
 */
class MariaDbDoctorTest extends DoctorSuite {
    MariaDbDoctorTest() {
        super(MariaDbTestDatabase.instance());
    }

    @Override
    protected void checkLatestDeadlock(DoctorReport report) {
        assertThat(report.latestDeadlock()).isNotNull();
        assertThat(report.latestDeadlock().rows()).allSatisfy(row -> assertThat(row).contains(table));
        assertThat(report.latestDeadlock().statements()).hasSize(2);
    }

    @Override
    protected void exhaustIds(String seedTable) {
        db.execute("ALTER TABLE " + seedTable + " AUTO_INCREMENT = 2100000001");
    }

    /** MariaDB 11.4 makes its own certificate; its TLS library names ciphers like TLS13-AES256-GCM-SHA384. */
    @Override
    protected RestartableServer privateServerWithTls() {
        return EmbeddedMariaDbServer.privateServerWithTls("doctor-tls");
    }

    @Test
    void aUserWithoutProcess_isToldWhichGrantIsMissing_andSeesTheRest() {
        String user = table + "_np";
        db.execute("CREATE USER '" + user + "'@'%' IDENTIFIED BY 'pw-" + user + "'");
        db.execute("CREATE USER '" + user + "'@'localhost' IDENTIFIED BY 'pw-" + user + "'");
        try {
            db.execute("GRANT SELECT ON *.* TO '" + user + "'@'%'");
            db.execute("GRANT SELECT ON *.* TO '" + user + "'@'localhost'");
            String url = db.jdbcUrl().replaceFirst("user=[^&]*", "user=" + user + "&password=pw-" + user);
            DoctorReport report;
            try (HikariDataSource limited = db.poolFor(url, "doctor-no-process", 2)) {
                report = new Doctor(limited, DoctorSettings.watching(Duration.ofSeconds(1), ""), Clock.systemUTC())
                        .examine();
            }

            System.out.println(DoctorText.render(report));
            assertThat(report.missingGrants()).singleElement().asString()
                    .startsWith("PROCESS: GRANT PROCESS ON *.* TO <this user>");
            assertThat(report.checks()).extracting(Check::name).contains("innodb_flush_log_at_trx_commit");
            assertThat(report.deadlocks()).isEqualTo(-1);
            assertThat(report.hasFindings()).isTrue();
            assertThat(DoctorText.render(report)).contains("Missing privileges:");
        } finally {
            db.execute("DROP USER '" + user + "'@'%'");
            db.execute("DROP USER '" + user + "'@'localhost'");
        }
    }

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
        return NetworkInterface.networkInterfaces().filter(MariaDbDoctorTest::isUp)
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
