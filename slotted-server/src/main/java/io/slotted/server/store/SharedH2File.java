package io.slotted.server.store;

import io.slotted.server.config.DatabaseSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.SQLException;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.h2.tools.Server;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lets the command line use an H2 file database while {@code slotted serve} has it open.
 *
 * <p>H2 opens a file database in one process at a time: a second one fails with "Database may be
 * already in use". H2's own answer, {@code AUTO_SERVER=TRUE}, cannot be combined with
 * {@code DB_CLOSE_ON_EXIT=FALSE}, which the service needs so that its shutdown hook can write the
 * increments it accepted before H2 closes the file. So the service does what {@code AUTO_SERVER}
 * would: it serves the open database over H2's TCP protocol on a loopback port of the system's
 * choosing, and writes that address into a file beside the database ({@code slotted.server} for
 * {@code slotted.mv.db}), which it deletes when it stops. A command given the same URL finds the
 * file, checks that the port answers, and connects through it; a file left by a process that died
 * is ignored.
 *
 * <p>The TCP port takes connections from this machine only, without a password, like the service's
 * HTTP port without tokens. A service started with tokens therefore does not share its database:
 * that would let any local user past them.
 */
public final class SharedH2File implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(SharedH2File.class);
    private static final String ADDRESS_SUFFIX = ".server";
    private static final int PROBE_TIMEOUT_MILLIS = 1_000;
    private static final Pattern TCP_URL = Pattern.compile("jdbc:h2:tcp://127\\.0\\.0\\.1:(\\d{1,5})/");

    private final Server server;
    private final Path addressFile;

    private SharedH2File(Server server, Path addressFile) {
        this.server = server;
        this.addressFile = addressFile;
    }

    /**
     * Serves the database over loopback TCP and writes its address beside it, if it is an H2 file
     * database; otherwise does nothing.
     *
     * @param settings the database the service has open
     * @return the sharing, to close when the service stops; empty when the database is not an H2
     *     file
     * @throws DatabaseFailure if the TCP server cannot start or the address cannot be written
     */
    public static Optional<SharedH2File> start(DatabaseSettings settings) {
        Optional<Path> database = databasePath(settings.jdbcUrl());
        if (database.isEmpty()) {
            return Optional.empty();
        }
        Server server;
        try {
            server = Server.createTcpServer("-tcpPort", "0", "-ifExists").start();
        } catch (SQLException e) {
            throw new DatabaseFailure("cannot share the H2 database " + settings.describe()
                    + " with the command line: " + FailureMessage.of(e), e);
        }
        Path addressFile = addressFile(database.get());
        try {
            writeAtomically(addressFile, tcpUrl(server.getPort(), database.get(), settings.jdbcUrl()));
        } catch (UncheckedIOException e) {
            server.stop();
            throw new DatabaseFailure("cannot write " + addressFile + ", where the command line"
                    + " finds the service's database: " + FailureMessage.of(e), e);
        }
        log.info("while this runs, commands such as 'slotted incr' and 'slotted get' on the same --db"
                + " reach the database through it (H2 on 127.0.0.1:{}, written in {})",
                server.getPort(), addressFile);
        return Optional.of(new SharedH2File(server, addressFile));
    }

    /**
     * The settings a command should connect with: through the running service's TCP port when a
     * service shares this H2 file database and answers, else the settings as given.
     *
     * @param settings the database the command was given
     * @return settings that reach it
     */
    public static DatabaseSettings reach(DatabaseSettings settings) {
        Optional<Path> database = databasePath(settings.jdbcUrl());
        if (database.isEmpty()) {
            return settings;
        }
        Path addressFile = addressFile(database.get());
        String url;
        try {
            url = Files.readString(addressFile, StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            return settings;
        }
        return answers(url) ? new DatabaseSettings(url, settings.user(), settings.password()) : settings;
    }

    /**
     * The file of an H2 file database named by a JDBC URL, or empty for any other database (an
     * in-memory or remote H2 database, MariaDB, PostgreSQL).
     */
    static Optional<Path> databasePath(String jdbcUrl) {
        if (!jdbcUrl.regionMatches(true, 0, "jdbc:h2:", 0, 8)) {
            return Optional.empty();
        }
        String name = jdbcUrl.substring(8).split(";", 2)[0];
        if (name.regionMatches(true, 0, "file:", 0, 5)) {
            name = name.substring(5);
        } else if (!(name.startsWith(".") || name.startsWith("/") || name.startsWith("~"))) {
            return Optional.empty();
        }
        if (name.startsWith("~")) {
            name = System.getProperty("user.home") + name.substring(1);
        }
        return Optional.of(Path.of(name).toAbsolutePath().normalize());
    }

    private static Path addressFile(Path database) {
        return database.resolveSibling(database.getFileName() + ADDRESS_SUFFIX);
    }

    /** The TCP URL of the database, keeping the settings the service's URL gave it. */
    private static String tcpUrl(int port, Path database, String jdbcUrl) {
        String[] parts = jdbcUrl.split(";", 2);
        String settings = parts.length > 1 ? ";" + parts[1] : "";
        return "jdbc:h2:tcp://127.0.0.1:" + port + "/" + database.toString().replace('\\', '/') + settings;
    }

    /** Whether the URL is one a service wrote and its port takes connections. */
    private static boolean answers(String tcpUrl) {
        Matcher written = TCP_URL.matcher(tcpUrl);
        if (!written.lookingAt()) {
            return false;
        }
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", Integer.parseInt(written.group(1))),
                    PROBE_TIMEOUT_MILLIS);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static void writeAtomically(Path file, String text) {
        try {
            Path temporary = file.resolveSibling(file.getFileName() + ".tmp");
            Files.writeString(temporary, text + "\n", StandardCharsets.UTF_8);
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING,
                    StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Deletes the address file and stops the TCP server; connections through it are closed. */
    @Override
    public void close() {
        try {
            Files.deleteIfExists(addressFile);
        } catch (IOException e) {
            log.warn("could not delete {}: {}", addressFile, e.toString());
        }
        server.stop();
    }
}
