package io.slotted.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.slotted.db.H2TestDatabase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The service's settings: the port's range, the rules that only loopback may go without tokens and
 * without TLS, and the roll-up interval.
 */
class ServerSettingsTest {
    private static Path file(String name, String text) throws Exception {
        return Files.writeString(Files.createDirectories(Path.of("target", "tokens")).resolve(name), text);
    }

    @Test
    void service_withoutTokens_refusesANonLoopbackAddress_butAcceptsLoopback() throws Exception {
        ServerSettings loopback = ServerSettings.defaults(new DatabaseSettings(H2TestDatabase.instance().jdbcUrl(), null, null));

        assertThatThrownBy(() -> new ServerSettings(0, "0.0.0.0", loopback.database(), null,
                loopback.types(), loopback.counters()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("refusing to listen on 0.0.0.0 without tokens");
        assertThat(loopback.loopbackOnly()).isTrue();
        assertThat(new ServerSettings(0, "0.0.0.0", loopback.database(),
                file("one.txt", "t read\n"), loopback.types(), loopback.counters(), null, true,
                ServerSettings.DEFAULT_REQUEST_DEADLINE)
                .loopbackOnly()).isFalse();
    }

    @Test
    void nonLoopbackAddress_needsTlsOrPlaintext_andRefusesBoth() throws Exception {
        ServerSettings loopback = ServerSettings.defaults(DatabaseSettings.embeddedDefault());
        Path tokens = file("tls.txt", "t read\n");
        TlsFiles tls = new TlsFiles(Path.of("cert.pem"), Path.of("key.pem"), null);

        assertThatThrownBy(() -> new ServerSettings(0, "0.0.0.0", loopback.database(), tokens,
                loopback.types(), loopback.counters()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("refusing to listen on 0.0.0.0 without TLS: tokens and counts would cross"
                        + " the network in clear text; give a certificate and key, or say plaintext"
                        + " when TLS ends in front of the service");
        assertThatThrownBy(() -> new ServerSettings(0, "0.0.0.0", loopback.database(), tokens,
                loopback.types(), loopback.counters(), tls, true, ServerSettings.DEFAULT_REQUEST_DEADLINE))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("TLS files and plaintext conflict");
        assertThat(new ServerSettings(0, "0.0.0.0", loopback.database(), tokens, loopback.types(),
                loopback.counters(), tls, false, ServerSettings.DEFAULT_REQUEST_DEADLINE).tls())
                .isEqualTo(tls);
        assertThat(loopback.withTls(tls).tls()).as("TLS on loopback too").isEqualTo(tls);
        assertThat(loopback.tls()).as("loopback needs neither").isNull();
    }

    @Test
    void portOutOfRange_isRefused_namingTheSettingAndTheValue() {
        ServerSettings defaults = ServerSettings.defaults(DatabaseSettings.embeddedDefault());

        assertThatThrownBy(() -> defaults.withPort(70_000))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("port must be between 0 and 65535, but was 70000");
        assertThatThrownBy(() -> defaults.withPort(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThat(defaults.withPort(0).port()).isZero();
    }

    @Test
    void requestDeadline_isTenSecondsForEveryFrontEnd_andOneShorterThanAMillisecondIsRefused() {
        ServerSettings defaults = ServerSettings.defaults(DatabaseSettings.embeddedDefault());

        assertThat(defaults.requestDeadline()).isEqualTo(Duration.ofSeconds(10));
        assertThat(defaults.withRequestDeadline(Duration.ofMillis(1)).requestDeadline())
                .isEqualTo(Duration.ofMillis(1));
        assertThat(defaults.withPort(0).withTls(new TlsFiles(Path.of("c.pem"), Path.of("k.pem"), null)))
                .as("kept by the other withers").extracting(ServerSettings::requestDeadline)
                .isEqualTo(Duration.ofSeconds(10));
        assertThatThrownBy(() -> defaults.withRequestDeadline(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("requestDeadline must be at least 1ms, but was PT0S");
        assertThatThrownBy(() -> defaults.withRequestDeadline(Duration.ofMillis(-5)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("requestDeadline must be at least 1ms, but was PT-0.005S");
        assertThatThrownBy(() -> defaults.withRequestDeadline(null))
                .isInstanceOf(NullPointerException.class).hasMessage("requestDeadline");
    }

    @Test
    void rollUpEvery_isOneSecondForTheService_zeroTurnsItOff_andANegativeOneIsRefused() {
        CounterSettings service = ServerSettings.defaults(DatabaseSettings.embeddedDefault()).counters();

        assertThat(service.rollUpEvery()).isEqualTo(Duration.ofSeconds(1));
        assertThat(service.rollsUp()).isTrue();
        assertThat(CounterSettings.DEFAULTS.rollsUp()).as("the commands' counters").isFalse();
        assertThat(service.withRollUpEvery(Duration.ZERO).rollsUp()).isFalse();
        assertThatThrownBy(() -> service.withRollUpEvery(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("rollUpEvery must be 0 (no background roll-up) or positive, but was -1ms");
    }

    @Test
    void needsTokens_isFalseOnlyForLoopback_andAnUnknownHostIsRefused() {
        assertThat(ServerSettings.needsTokens("127.0.0.1")).isFalse();
        assertThat(ServerSettings.needsTokens("::1")).isFalse();
        assertThat(ServerSettings.needsTokens("0.0.0.0")).isTrue();
        assertThatThrownBy(() -> ServerSettings.needsTokens("no-such-host.invalid"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no-such-host.invalid");
    }
}
