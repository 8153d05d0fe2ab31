package io.slotted.server.resp;

import java.time.Duration;

/**
 * Where the Redis-protocol front end listens, and the bounds it keeps.
 *
 * @param port the TCP port, on the service's bind address; 0 picks a free one
 * @param maxConnections connections open at once; past it a new one is answered
 *     {@code -ERR max number of clients reached} and closed, as Redis does
 * @param idleTimeout how long a connection with nothing unanswered may stay silent before it is
 *     closed; zero keeps idle connections open, as Redis does by default
 * @param maxUnanswered commands of one connection in flight at once; past it the connection is
 *     not read until answers go out
 */
public record RespSettings(int port, int maxConnections, Duration idleTimeout, int maxUnanswered) {
    /** Connections open at once by default: each may hold up to a read's worth of commands. */
    public static final int DEFAULT_MAX_CONNECTIONS = 1_000;

    /**
     * Checks the bounds.
     *
     * @throws IllegalArgumentException if the port is out of range, a bound is not positive, or
     *     the timeout is negative
     */
    public RespSettings {
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("the Redis-protocol port must be between 0 and 65535,"
                    + " but was " + port);
        }
        if (maxConnections < 1) {
            throw new IllegalArgumentException("maxConnections must be at least 1, but was "
                    + maxConnections);
        }
        if (idleTimeout.isNegative()) {
            throw new IllegalArgumentException("idleTimeout must not be negative, but was " + idleTimeout);
        }
        if (maxUnanswered < 1) {
            throw new IllegalArgumentException("maxUnanswered must be at least 1, but was "
                    + maxUnanswered);
        }
    }

    /**
     * The defaults on a port: 1,000 connections, idle ones kept, 1,024 commands in flight per
     * connection.
     *
     * @param port the TCP port; 0 picks a free one
     * @return the settings
     */
    public static RespSettings on(int port) {
        return new RespSettings(port, DEFAULT_MAX_CONNECTIONS, Duration.ZERO,
                RespConnection.DEFAULT_MAX_UNANSWERED);
    }

    /**
     * These bounds with another connection limit and idle timeout.
     *
     * @param maxConnections connections open at once
     * @param idleTimeout how long an idle connection stays open; zero for ever
     * @return the new bounds
     */
    public RespSettings withConnections(int maxConnections, Duration idleTimeout) {
        return new RespSettings(port, maxConnections, idleTimeout, maxUnanswered);
    }
}
