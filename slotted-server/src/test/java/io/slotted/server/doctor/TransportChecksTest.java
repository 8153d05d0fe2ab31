package io.slotted.server.doctor;

import static org.assertj.core.api.Assertions.assertThat;

import io.slotted.server.doctor.SessionTransport.Route;
import org.junit.jupiter.api.Test;

/**
 * How each database's answers are read into a transport: the forms MariaDB's process list and
 * PostgreSQL's functions take, and H2's URLs. The servers' own answers are checked against the real
 * servers in the doctor suites.
 */
class TransportChecksTest {
    @Test
    void mariaDb_aClientAddressWithItsPort_isLoopbackOrNetworkByTheAddress() {
        assertThat(TransportChecks.fromMariaDb("", "", "127.0.0.1:47812"))
                .isEqualTo(new SessionTransport("", Route.LOOPBACK, "127.0.0.1"));
        assertThat(TransportChecks.fromMariaDb("", "", "::1:47812"))
                .isEqualTo(new SessionTransport("", Route.LOOPBACK, "::1"));
        assertThat(TransportChecks.fromMariaDb("", "", "::ffff:127.0.0.1:47812").route()).isEqualTo(Route.LOOPBACK);
        assertThat(TransportChecks.fromMariaDb("", "", "10.1.2.3:47812"))
                .isEqualTo(new SessionTransport("", Route.NETWORK, "10.1.2.3"));
    }

    @Test
    void mariaDb_namesResolvedByTheServer_areLoopbackOnlyForLocalhost() {
        assertThat(TransportChecks.fromMariaDb("", "", "localhost:47812").route()).isEqualTo(Route.LOOPBACK);
        assertThat(TransportChecks.fromMariaDb("", "", "app7.example.com:47812"))
                .isEqualTo(new SessionTransport("", Route.NETWORK, "app7.example.com"));
    }

    @Test
    void mariaDb_localhostWithoutAPort_isTheSocket() {
        assertThat(TransportChecks.fromMariaDb(null, null, "localhost"))
                .isEqualTo(new SessionTransport("", Route.UNIX_SOCKET, ""));
    }

    @Test
    void mariaDb_aMissingProcessListRow_isNotTakenForASocket() {
        assertThat(TransportChecks.fromMariaDb("", "", "").route()).isEqualTo(Route.NETWORK);
    }

    @Test
    void mariaDb_theVersionAndCipher_nameTheEncryption() {
        assertThat(TransportChecks.fromMariaDb("TLSv1.3", "TLS_AES_256_GCM_SHA384", "10.1.2.3:5000").encryption())
                .isEqualTo("TLSv1.3, TLS_AES_256_GCM_SHA384");
    }

    @Test
    void postgres_noClientAddress_isTheSocket_andSslNamesTheEncryption() {
        assertThat(TransportChecks.fromPostgres(false, null, null, null))
                .isEqualTo(new SessionTransport("", Route.UNIX_SOCKET, ""));
        assertThat(TransportChecks.fromPostgres(true, "TLSv1.3", "TLS_AES_256_GCM_SHA384", "10.1.2.3"))
                .isEqualTo(new SessionTransport("TLSv1.3, TLS_AES_256_GCM_SHA384", Route.NETWORK, "10.1.2.3"));
        assertThat(TransportChecks.fromPostgres(true, null, null, "::1"))
                .isEqualTo(new SessionTransport("TLS", Route.LOOPBACK, "::1"));
    }

    @Test
    void h2_anEmbeddedDatabase_hasNoConnectionToCheck() {
        assertThat(TransportChecks.fromH2Url("jdbc:h2:file:/var/lib/slotted/slotted")).isEmpty();
        assertThat(TransportChecks.fromH2Url("jdbc:h2:mem:test;DB_CLOSE_DELAY=-1")).isEmpty();
        assertThat(TransportChecks.fromH2Url("jdbc:h2:./slotted-data/slotted")).isEmpty();
    }

    @Test
    void h2_tcpIsPlain_sslIsEncrypted_andTheHostsDecideTheRoute() {
        assertThat(TransportChecks.fromH2Url("jdbc:h2:tcp://127.0.0.1:40123//tmp/slotted;IFEXISTS=TRUE"))
                .contains(new SessionTransport("", Route.LOOPBACK, "127.0.0.1:40123"));
        assertThat(TransportChecks.fromH2Url("jdbc:h2:tcp://localhost/~/test").orElseThrow().route())
                .isEqualTo(Route.LOOPBACK);
        assertThat(TransportChecks.fromH2Url("jdbc:h2:tcp://[::1]:9092/~/test").orElseThrow().route())
                .isEqualTo(Route.LOOPBACK);
        assertThat(TransportChecks.fromH2Url("jdbc:h2:ssl://10.1.2.3:9092/~/test"))
                .contains(new SessionTransport("TLS, jdbc:h2:ssl://", Route.NETWORK, "10.1.2.3:9092"));
    }

    @Test
    void h2_aClusterIsLoopbackOnlyWhenEveryHostIs() {
        assertThat(TransportChecks.fromH2Url("jdbc:h2:tcp://127.0.0.1:9101,10.1.2.3:9102/~/test").orElseThrow().route())
                .isEqualTo(Route.NETWORK);
        assertThat(TransportChecks.fromH2Url("jdbc:h2:tcp://127.0.0.1:9101,[::1]:9102/~/test").orElseThrow().route())
                .isEqualTo(Route.LOOPBACK);
    }

    @Test
    void plainOverTheNetwork_givesEachDriversUrlParameters() {
        assertThat(TransportChecks.fromMariaDb("", "", "10.1.2.3:5000").judge(TransportChecks.MARIADB_TLS).advice())
                .contains("sslMode=verify-full&serverSslCert=/path/to/ca.pem");
        assertThat(TransportChecks.fromPostgres(false, null, null, "10.1.2.3").judge(TransportChecks.POSTGRES_TLS)
                .advice()).contains("sslmode=verify-full&sslrootcert=/path/to/ca.pem");
        assertThat(TransportChecks.fromH2Url("jdbc:h2:tcp://10.1.2.3/~/test").orElseThrow()
                .judge(TransportChecks.H2_TLS).advice()).contains("jdbc:h2:ssl://");
    }
}
