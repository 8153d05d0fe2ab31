package io.slotted.server.tls;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.slotted.server.config.TlsFiles;
import io.slotted.server.tls.TestCertificates.Issued;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The service's TLS on its own: which PEM files it takes, which it refuses and why, and how a
 * renewed pair reaches new handshakes while a bad one leaves the served pair in place. Handshakes
 * are real: a JDK TLS server socket made from the service's context, and a JDK client that trusts
 * the test's authority alone. The files are checked by calling the watcher's step directly, so no
 * test waits for the clock.
 */
class ServerTlsTest {
    private static final Duration DAY = Duration.ofDays(1);
    /** Long enough that the watcher never runs by itself during a test. */
    private static final Duration NEVER = Duration.ofHours(1);

    private final TestCertificates authority = TestCertificates.authority("Slotted test CA");
    @TempDir
    Path dir;
    private ServerTls tls;

    @AfterEach
    void stop() {
        if (tls != null) {
            tls.close();
        }
    }

    private TlsFiles files() {
        return new TlsFiles(dir.resolve("cert.pem"), dir.resolve("key.pem"), null);
    }

    private TlsFiles serving(Issued issued) {
        TestCertificates.writeCertificate(dir.resolve("cert.pem"), issued);
        TestCertificates.writePkcs8Key(dir.resolve("key.pem"), issued);
        tls = ServerTls.start(files(), NEVER);
        return files();
    }

    /** The common name of the certificate a new handshake is served. */
    private String servedName() throws Exception {
        try (SSLServerSocket server = (SSLServerSocket) tls.sslContext().getServerSocketFactory()
                .createServerSocket(0)) {
            CompletableFuture<Void> accepted = CompletableFuture.runAsync(() -> {
                try (SSLSocket socket = (SSLSocket) server.accept()) {
                    socket.startHandshake();
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            try (SSLSocket client = (SSLSocket) authority.trustingClient().getSocketFactory()
                    .createSocket("127.0.0.1", server.getLocalPort())) {
                client.startHandshake();
                X509Certificate served = (X509Certificate) client.getSession().getPeerCertificates()[0];
                accepted.get(10, TimeUnit.SECONDS);
                return served.getSubjectX500Principal().getName();
            }
        }
    }

    @Test
    void start_pkcs8RsaKey_servesTheCertificate() throws Exception {
        serving(authority.server("first", "RSA", DAY));

        assertThat(servedName()).isEqualTo("CN=first");
        assertThat(tls.problem()).isEmpty();
        assertThat(tls.describe()).contains("CN=first", "valid until");
        assertThat(tls.requiresClientCertificates()).isFalse();
    }

    @Test
    void start_traditionalRsaAndEcKeys_areRead() throws Exception {
        for (String algorithm : new String[] {"RSA", "EC"}) {
            Issued issued = authority.server("traditional-" + algorithm, algorithm, DAY);
            TestCertificates.writeCertificate(dir.resolve("cert.pem"), issued);
            TestCertificates.writeTraditionalKey(dir.resolve("key.pem"), issued);
            assertThat(Files.readString(dir.resolve("key.pem")))
                    .startsWith("-----BEGIN " + algorithm + " PRIVATE KEY-----");

            tls = ServerTls.start(files(), NEVER);

            assertThat(servedName()).isEqualTo("CN=traditional-" + algorithm);
            tls.close();
        }
        tls = null;
    }

    @Test
    void start_keyOfAnotherCertificate_isRefusedNamingTheFiles() {
        TestCertificates.writeCertificate(dir.resolve("cert.pem"), authority.server("one", "EC", DAY));
        TestCertificates.writePkcs8Key(dir.resolve("key.pem"), authority.server("other", "EC", DAY));

        assertThatThrownBy(() -> ServerTls.start(files(), NEVER))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the private key does not belong to the certificate CN=one")
                .hasMessageContaining("cert.pem").hasMessageContaining("key.pem");
    }

    @Test
    void start_encryptedKey_isRefusedSayingHowToDecryptIt() throws Exception {
        Issued issued = authority.server("locked", "RSA", DAY);
        TestCertificates.writeCertificate(dir.resolve("cert.pem"), issued);
        Path plain = TestCertificates.writePkcs8Key(dir.resolve("plain.pem"), issued);
        // As an operator would have it: encrypted by OpenSSL with a password.
        Process openssl = new ProcessBuilder("openssl", "pkey", "-in", plain.toString(), "-aes256",
                "-passout", "pass:secret", "-out", dir.resolve("key.pem").toString())
                .redirectErrorStream(true).start();
        assertThat(openssl.waitFor()).as(new String(openssl.getInputStream().readAllBytes())).isZero();
        assertThat(Files.readString(dir.resolve("key.pem"))).contains("ENCRYPTED PRIVATE KEY");

        assertThatThrownBy(() -> ServerTls.start(files(), NEVER))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("encrypted private key").hasMessageContaining("openssl pkey");
    }

    @Test
    void start_filesWithoutWhatTheyShouldHold_areRefused() throws Exception {
        Issued issued = authority.server("swapped", "RSA", DAY);
        // The two files given the wrong way round.
        TestCertificates.writePkcs8Key(dir.resolve("cert.pem"), issued);
        TestCertificates.writeCertificate(dir.resolve("key.pem"), issued);

        assertThatThrownBy(() -> ServerTls.start(files(), NEVER))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("key.pem holds no private key");
        Files.delete(dir.resolve("key.pem"));
        TestCertificates.writePkcs8Key(dir.resolve("key.pem"), issued);
        assertThatThrownBy(() -> ServerTls.start(files(), NEVER))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cert.pem holds no '-----BEGIN CERTIFICATE-----' block");
        assertThatThrownBy(() -> ServerTls.start(new TlsFiles(dir.resolve("missing.pem"),
                dir.resolve("key.pem"), null), NEVER))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cannot read").hasMessageContaining("missing.pem");
    }

    @Test
    void checkFiles_renewedPair_isServedToNewHandshakes() throws Exception {
        serving(authority.server("first", "RSA", DAY));
        Issued renewed = authority.server("renewed", "EC", DAY);

        TestCertificates.renew(dir.resolve("cert.pem"), dir.resolve("key.pem"), renewed);
        tls.checkFiles();

        assertThat(servedName()).isEqualTo("CN=renewed");
        assertThat(tls.problem()).isEmpty();
    }

    @Test
    void checkFiles_keyWrittenBeforeItsCertificate_keepsTheServedPairUntilBothAreThere() throws Exception {
        serving(authority.server("first", "RSA", DAY));
        Issued renewed = authority.server("renewed", "RSA", DAY);

        TestCertificates.replaceKey(dir.resolve("key.pem"), renewed);
        tls.checkFiles();

        assertThat(servedName()).isEqualTo("CN=first");
        assertThat(tls.problem()).get().asString()
                .contains("the private key does not belong to the certificate CN=first",
                        "still serving CN=first");

        TestCertificates.replaceCertificate(dir.resolve("cert.pem"), renewed);
        tls.checkFiles();

        assertThat(servedName()).isEqualTo("CN=renewed");
        assertThat(tls.problem()).isEmpty();
    }

    @Test
    void checkFiles_truncatedOrExpiredRenewal_isNotServed() throws Exception {
        serving(authority.server("first", "EC", DAY));

        Files.writeString(dir.resolve("cert.pem"), "-----BEGIN CERTIFICATE-----\nMIIB");
        tls.checkFiles();
        assertThat(servedName()).isEqualTo("CN=first");
        assertThat(tls.problem()).get().asString().contains("cert.pem");

        Issued expired = authority.server("expired", "EC", Duration.ofHours(-1));
        TestCertificates.renew(dir.resolve("cert.pem"), dir.resolve("key.pem"), expired);
        tls.checkFiles();

        assertThat(servedName()).isEqualTo("CN=first");
        assertThat(tls.problem()).get().asString().contains("CN=expired", "has expired");
    }

    @Test
    void checkFiles_unchangedFiles_leaveAProblemAsItWas() throws Exception {
        serving(authority.server("first", "EC", DAY));
        TestCertificates.writePkcs8Key(dir.resolve("key.pem"), authority.server("other", "EC", DAY));
        tls.checkFiles();
        String problem = tls.problem().orElseThrow();

        tls.checkFiles();

        assertThat(tls.problem()).contains(problem);
        assertThat(servedName()).isEqualTo("CN=first");
    }
}
