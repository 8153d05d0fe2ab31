package io.slotted.bench.resp;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * A fixed set of {@link RespConnection}s shared by every writer: a writer takes an idle
 * connection, sends its {@code INCR}, and gives the connection back.
 *
 * <p>This measures Redis with fewer connections than writers, as an application with a client
 * pool uses it: Redis's single thread serves a few busy sockets instead of one per writer. Writers
 * beyond the connection count wait in the queue, and that wait is part of each increment's
 * latency. The queue is not fair, as most pools are not by default: a writer that has just given a
 * connection back may take it again before a waiting writer wakes. That keeps the connections busy
 * (a fair queue measured a quarter of the throughput on two cores, every hand-off waking a thread)
 * at the price of the latency tail, where an unlucky writer waits longest.
 *
 * <p>All connections are opened up front, so opening them is not measured. A connection closed
 * after a failure stays in the pool and fails whoever borrows it, saying why: the benchmark should
 * show a broken Redis, not paper over it.
 */
public final class RespConnectionPool implements AutoCloseable {
    private final List<RespConnection> all;
    private final BlockingQueue<RespConnection> idle;

    private RespConnectionPool(List<RespConnection> all) {
        this.all = all;
        this.idle = new ArrayBlockingQueue<>(all.size(), false, all);
    }

    /**
     * Opens every connection of the pool.
     *
     * @param host the Redis server's host
     * @param port the Redis server's port
     * @param size how many connections, at least 1
     * @return the pool, every connection open and idle
     * @throws IOException if a connection cannot be opened; those already open are closed
     * @throws IllegalArgumentException if {@code size} is less than 1
     */
    public static RespConnectionPool open(String host, int port, int size) throws IOException {
        if (size < 1) {
            throw new IllegalArgumentException("a pool needs at least 1 connection, but was given " + size);
        }
        List<RespConnection> opened = new ArrayList<>(size);
        try {
            for (int i = 0; i < size; i++) {
                opened.add(RespConnection.open(host, port));
            }
        } catch (IOException e) {
            opened.forEach(RespConnection::close);
            throw e;
        }
        return new RespConnectionPool(List.copyOf(opened));
    }

    /**
     * Adds 1 to a key on the first idle connection, waiting for one if all are busy.
     *
     * @param key the key
     * @return the key's value after the increment
     * @throws IOException as {@link RespConnection#incr} does
     * @throws InterruptedException if interrupted while waiting for a connection
     */
    public long incr(String key) throws IOException, InterruptedException {
        RespConnection connection = idle.take();
        try {
            return connection.incr(key);
        } finally {
            idle.add(connection); // never full: only connections taken from it come back
        }
    }

    /**
     * How many connections the pool holds.
     *
     * @return the count
     */
    public int size() {
        return all.size();
    }

    /** Closes every connection, busy or idle. */
    @Override
    public void close() {
        all.forEach(RespConnection::close);
    }
}
