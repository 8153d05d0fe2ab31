package io.slotted.db;

/** A database server a test owns and may stop and start again with its data intact. */
public interface RestartableServer {
    /** How to reach it. */
    String jdbcUrl();

    /** Stops it; connections to it fail until {@link #start()}. */
    void stop();

    /** Starts it again on the same port and data. */
    void start();
}
