package io.slotted.server.doctor;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import org.h2.jdbcx.JdbcDataSource;
import org.h2.tools.Server;
import org.junit.jupiter.api.Test;

/**
 * The doctor's connection check on H2, which reports no encryption of its own: a real H2 TCP server
 * on loopback, as {@code slotted serve} shares its file with the other commands, and an embedded
 * database, which has no connection to check.
 */
class H2DoctorConnectionTest {
    @Test
    void anH2ServerOnLoopback_isPlain_andOk() throws SQLException {
        Server server = Server.createTcpServer("-tcpPort", "0", "-ifNotExists").start();
        try {
            String hostAndPort = "127.0.0.1:" + server.getPort();
            DoctorReport report = DoctorSuite.examineOn(h2("jdbc:h2:tcp://" + hostAndPort + "/mem:doctor-tcp"));

            Check connection = DoctorSuite.check(report, SessionTransport.CHECK);
            assertThat(connection.ok()).as(connection.toString()).isTrue();
            assertThat(connection.value()).isEqualTo("not encrypted, over loopback (" + hostAndPort + ")");
            assertThat(report.hasFindings()).as(DoctorText.render(report)).isFalse();
        } finally {
            server.stop();
        }
    }

    @Test
    void anEmbeddedH2Database_hasNoConnectionToCheck() {
        DoctorReport report = DoctorSuite.examineOn(h2("jdbc:h2:mem:doctor-embedded"));

        assertThat(report.checks()).extracting(Check::name).doesNotContain(SessionTransport.CHECK);
    }

    private static JdbcDataSource h2(String url) {
        JdbcDataSource dataSource = new JdbcDataSource();
        dataSource.setURL(url);
        return dataSource;
    }
}
