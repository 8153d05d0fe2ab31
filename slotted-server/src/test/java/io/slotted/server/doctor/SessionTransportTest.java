package io.slotted.server.doctor;

import static org.assertj.core.api.Assertions.assertThat;

import io.slotted.server.doctor.SessionTransport.Route;
import org.junit.jupiter.api.Test;

/** What the doctor makes of a session's transport, for every combination that decides it. */
class SessionTransportTest {
    private static final String TURN_TLS_ON = "add sslmode=verify-full&sslrootcert=/path/to/ca.pem";

    @Test
    void encryptedOverTheNetwork_isOk_andNamesTheProtocolAndCipher() {
        Check check = new SessionTransport("TLSv1.3, TLS_AES_256_GCM_SHA384", Route.NETWORK, "10.0.0.7")
                .judge(TURN_TLS_ON);

        assertThat(check.ok()).isTrue();
        assertThat(check.name()).isEqualTo("connection encryption");
        assertThat(check.value()).isEqualTo("encrypted (TLSv1.3, TLS_AES_256_GCM_SHA384), over the network (10.0.0.7)");
        assertThat(check.advice()).isEmpty();
    }

    @Test
    void plainOverTheNetwork_isAFinding_thatGivesTheJdbcUrlParameters() {
        Check check = new SessionTransport("", Route.NETWORK, "10.0.0.7").judge(TURN_TLS_ON);

        assertThat(check.ok()).isFalse();
        assertThat(check.value()).isEqualTo("not encrypted, over the network (10.0.0.7)");
        assertThat(check.why()).contains("plain text");
        assertThat(check.advice()).isEqualTo("turn TLS on in the JDBC URL: " + TURN_TLS_ON);
    }

    @Test
    void plainOverLoopback_isOk_becauseItNeverLeavesTheMachine() {
        Check check = new SessionTransport("", Route.LOOPBACK, "127.0.0.1").judge(TURN_TLS_ON);

        assertThat(check.ok()).isTrue();
        assertThat(check.value()).isEqualTo("not encrypted, over loopback (127.0.0.1)");
        assertThat(check.why()).startsWith("a loopback connection never leaves this machine");
        assertThat(check.advice()).isEmpty();
    }

    @Test
    void plainOverAUnixSocket_isOk_becauseItNeverLeavesTheMachine() {
        Check check = new SessionTransport("", Route.UNIX_SOCKET, "").judge(TURN_TLS_ON);

        assertThat(check.ok()).isTrue();
        assertThat(check.value()).isEqualTo("not encrypted, over a Unix socket");
        assertThat(check.why()).startsWith("a Unix socket never leaves this machine");
    }

    @Test
    void encryptedOverLoopback_isOk() {
        Check check = new SessionTransport("TLSv1.2, ECDHE-RSA-AES256-GCM-SHA384", Route.LOOPBACK, "::1")
                .judge(TURN_TLS_ON);

        assertThat(check.ok()).isTrue();
        assertThat(check.value()).isEqualTo("encrypted (TLSv1.2, ECDHE-RSA-AES256-GCM-SHA384), over loopback (::1)");
    }
}
