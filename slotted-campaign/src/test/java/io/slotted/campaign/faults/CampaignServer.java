package io.slotted.campaign.faults;

import java.util.List;

/**
 * A private database server the campaign starts itself, with its files under {@code target/}, and
 * the faults made to its processes: paused and resumed (SIGSTOP, SIGCONT), killed without a clean
 * shutdown (SIGKILL), and restarted on the same port and data, so that crash recovery runs.
 *
 * <p>Only this server's own processes are ever signalled: each is checked, right before each
 * signal, to run in or name this server's directory under {@code target/}, so the machine's
 * shared servers (MariaDB on 3306, PostgreSQL on 5432) cannot be touched.
 */
public interface CampaignServer extends AutoCloseable {
    /** What kind of server this is. */
    ServerKind kind();

    /** How to reach the server directly. */
    String jdbcUrl();

    /**
     * How to reach the server through a proxy, with what makes the driver send commits in clear
     * text: no TLS and, for PgJDBC, no named server-side statements.
     */
    String jdbcUrlVia(FaultProxy proxy);

    /** The port the server listens on, the same across restarts. */
    int port();

    /**
     * The ports of each node that takes writes, the same across restarts: the one {@link #port()}
     * for a single server, one per node for a cluster, whose application processes each count
     * through a node of their own.
     */
    default List<Integer> ports() {
        return List.of(port());
    }

    /** The server's processes now, the main one first; none while it is killed or stopped. */
    List<ProcessHandle> processes();

    /**
     * Stops every process of the server with SIGSTOP, and returns once all are stopped: connections
     * stay open and queries wait.
     *
     * @throws IllegalStateException if the server has no process, or one is not this server's
     */
    void pause();

    /**
     * Continues every process of the server with SIGCONT.
     *
     * @throws IllegalStateException if a process is not this server's
     */
    void resume();

    /**
     * Kills every process of the server with SIGKILL, without a clean shutdown, and returns once all
     * are gone. Forking is stopped first, so no process outlives the kill.
     *
     * @throws IllegalStateException if the server has no process, or one is not this server's
     */
    void kill();

    /**
     * Starts the server again after {@link #kill()}, on the same port and data: it recovers from
     * the crash before it accepts connections. Stale pid and lock files are removed first.
     *
     * @throws IllegalStateException if a process of the server still runs, or it cannot start
     */
    void restart();

    /** Stops the server cleanly for good (resuming it first if paused); harmless when killed. */
    void stop();

    /** Same as {@link #stop()}. */
    @Override
    default void close() {
        stop();
    }
}
