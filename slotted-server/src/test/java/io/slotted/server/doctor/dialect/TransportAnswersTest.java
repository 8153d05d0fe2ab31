package io.slotted.server.doctor.dialect;

import static org.assertj.core.api.Assertions.assertThat;

import io.slotted.server.doctor.SessionTransport;
import io.slotted.server.doctor.SessionTransport.Route;
import org.junit.jupiter.api.Test;

/**
 * How each database's answers are read into a transport: the forms MariaDB's process list and
 * PostgreSQL's functions take, and H2's URLs. The servers' own answers are checked against the real
 * servers in the doctor suites.
 */
class TransportAnswersTest {
    @Test
    void mariaDb_aClientAddressWithItsPort_isLoopbackOrNetworkByTheAddress() {
        assertThat(MariaDbDoctorDialect.sessionTransport("", "", "127.0.0.1:47812"))
                .isEqualTo(new SessionTransport("", Route.LOOPBACK, "127.0.0.1"));
        assertThat(MariaDbDoctorDialect.sessionTransport("", "", "::1:47812"))
                .isEqualTo(new SessionTransport("", Route.LOOPBACK, "::1"));
        assertThat(MariaDbDoctorDialect.sessionTransport("", "", "::ffff:127.0.0.1:47812").route()).isEqualTo(Route.LOOPBACK);
        assertThat(MariaDbDoctorDialect.sessionTransport("", "", "10.1.2.3:47812"))
                .isEqualTo(new SessionTransport("", Route.NETWORK, "10.1.2.3"));
    }

    @Test
    void mariaDb_namesResolvedByTheServer_areLoopbackOnlyForLocalhost() {
        assertThat(MariaDbDoctorDialect.sessionTransport("", "", "localhost:47812").route()).isEqualTo(Route.LOOPBACK);
        assertThat(MariaDbDoctorDialect.sessionTransport("", "", "app7.example.com:47812"))
                .isEqualTo(new SessionTransport("", Route.NETWORK, "app7.example.com"));
    }

    @Test
    void mariaDb_localhostWithoutAPort_isTheSocket() {
        assertThat(MariaDbDoctorDialect.sessionTransport(null, null, "localhost"))
                .isEqualTo(new SessionTransport("", Route.UNIX_SOCKET, ""));
    }

    @Test
    void mariaDb_aMissingProcessListRow_isNotTakenForASocket() {
        assertThat(MariaDbDoctorDialect.sessionTransport("", "", "").route()).isEqualTo(Route.NETWORK);
    }

    @Test
    void mariaDb_theVersionAndCipher_nameTheEncryption() {
        assertThat(MariaDbDoctorDialect.sessionTransport("TLSv1.3", "TLS_AES_256_GCM_SHA384", "10.1.2.3:5000").encryption())
                .isEqualTo("TLSv1.3, TLS_AES_256_GCM_SHA384");
    }

    @Test
    void postgres_noClientAddress_isTheSocket_andSslNamesTheEncryption() {
        assertThat(PostgresDoctorDialect.sessionTransport(false, null, null, null))
                .isEqualTo(new SessionTransport("", Route.UNIX_SOCKET, ""));
        assertThat(PostgresDoctorDialect.sessionTransport(true, "TLSv1.3", "TLS_AES_256_GCM_SHA384", "10.1.2.3"))
                .isEqualTo(new SessionTransport("TLSv1.3, TLS_AES_256_GCM_SHA384", Route.NETWORK, "10.1.2.3"));
        assertThat(PostgresDoctorDialect.sessionTransport(true, null, null, "::1"))
                .isEqualTo(new SessionTransport("TLS", Route.LOOPBACK, "::1"));
    }

    @Test
    void h2_anEmbeddedDatabase_hasNoConnectionToCheck() {
        assertThat(H2DoctorDialect.sessionTransport("jdbc:h2:file:/var/lib/slotted/slotted")).isEmpty();
        assertThat(H2DoctorDialect.sessionTransport("jdbc:h2:mem:test;DB_CLOSE_DELAY=-1")).isEmpty();
        assertThat(H2DoctorDialect.sessionTransport("jdbc:h2:./slotted-data/slotted")).isEmpty();
    }

    @Test
    void h2_tcpIsPlain_sslIsEncrypted_andTheHostsDecideTheRoute() {
        assertThat(H2DoctorDialect.sessionTransport("jdbc:h2:tcp://127.0.0.1:40123//tmp/slotted;IFEXISTS=TRUE"))
                .contains(new SessionTransport("", Route.LOOPBACK, "127.0.0.1:40123"));
        assertThat(H2DoctorDialect.sessionTransport("jdbc:h2:tcp://localhost/~/test").orElseThrow().route())
                .isEqualTo(Route.LOOPBACK);
        assertThat(H2DoctorDialect.sessionTransport("jdbc:h2:tcp://[::1]:9092/~/test").orElseThrow().route())
                .isEqualTo(Route.LOOPBACK);
        assertThat(H2DoctorDialect.sessionTransport("jdbc:h2:ssl://10.1.2.3:9092/~/test"))
                .contains(new SessionTransport("TLS, jdbc:h2:ssl://", Route.NETWORK, "10.1.2.3:9092"));
    }

    @Test
    void h2_aClusterIsLoopbackOnlyWhenEveryHostIs() {
        assertThat(H2DoctorDialect.sessionTransport("jdbc:h2:tcp://127.0.0.1:9101,10.1.2.3:9102/~/test").orElseThrow().route())
                .isEqualTo(Route.NETWORK);
        assertThat(H2DoctorDialect.sessionTransport("jdbc:h2:tcp://127.0.0.1:9101,[::1]:9102/~/test").orElseThrow().route())
                .isEqualTo(Route.LOOPBACK);
    }

    @Test
    void plainOverTheNetwork_givesEachDriversUrlParameters() {
        assertThat(MariaDbDoctorDialect.sessionTransport("", "", "10.1.2.3:5000").judge(MariaDbDoctorDialect.TURN_TLS_ON).advice())
                .contains("sslMode=verify-full&serverSslCert=/path/to/ca.pem");
        assertThat(PostgresDoctorDialect.sessionTransport(false, null, null, "10.1.2.3").judge(PostgresDoctorDialect.TURN_TLS_ON)
                .advice()).contains("sslmode=verify-full&sslrootcert=/path/to/ca.pem");
        assertThat(H2DoctorDialect.sessionTransport("jdbc:h2:tcp://10.1.2.3/~/test").orElseThrow()
                .judge(H2DoctorDialect.TURN_TLS_ON).advice()).contains("jdbc:h2:ssl://");
    }
}
