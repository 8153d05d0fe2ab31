package io.slotted.db;

import io.slotted.internal.dialect.Dialect;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A TCP proxy on loopback between the driver and a database server that can cut a connection at
 * the worst moment: when the client sends COMMIT, or a flush that commits by itself (a statement
 * in auto-commit that begins with Slotted's flush comment, {@link Dialect#FLUSH_COMMENT}).
 *
 * <p>It makes the fault that a stub cannot: a real connection lost during COMMIT, either after the
 * server received it (the transaction commits, the client never hears) or before (it does not).
 * Both MariaDB's and PostgreSQL's drivers send the word {@code COMMIT} in clear text on the wire;
 * the match is case-sensitive so that {@code autocommit} settings do not trigger it, and takes the
 * word only on its own, so that {@code READ COMMITTED} does not.
 */
public final class CommitCuttingProxy implements AutoCloseable {
    /** What to do with the next COMMIT seen. */
    public enum Cut {
        /** Forward the COMMIT to the server, then cut: it commits, the client never hears. */
        AFTER_SERVER_RECEIVES,
        /** Cut without forwarding: the transaction is rolled back by the server. */
        BEFORE_SERVER_RECEIVES,
        /**
         * Cut the client first, and forward the COMMIT to the server only once the client has had
         * time to retry, as a packet held up on its way would arrive: the server then commits
         * something the client has long given up on. {@link #lateDeliveries()} counts those
         * forwarded.
         */
        AFTER_THE_CLIENT_GAVE_UP
    }

    /** How long a COMMIT cut {@link Cut#AFTER_THE_CLIENT_GAVE_UP} waits before it is forwarded. */
    public static final long LATE_BY_MILLIS = 1_000;

    private static final byte[] COMMIT = "COMMIT".getBytes(StandardCharsets.US_ASCII);
    private static final List<byte[]> COMMITS = List.of(COMMIT,
            Dialect.FLUSH_COMMENT.trim().getBytes(StandardCharsets.US_ASCII));

    private final ServerSocket listener;
    private final String targetHost;
    private final int targetPort;
    private final Queue<Cut> armed = new ConcurrentLinkedQueue<>();
    private final AtomicInteger cuts = new AtomicInteger();
    private final AtomicInteger cutEvery = new AtomicInteger();
    private final AtomicReference<Cut> statementCut = new AtomicReference<>();
    private final AtomicInteger statementsToPass = new AtomicInteger();
    private final AtomicInteger commitsSeen = new AtomicInteger();
    private final AtomicInteger clientWrites = new AtomicInteger();
    private final AtomicInteger lateDeliveries = new AtomicInteger();
    private final AtomicBoolean blackoutArmed = new AtomicBoolean();
    private volatile boolean refusing;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    public CommitCuttingProxy(String targetHost, int targetPort) throws IOException {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        this.listener = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::acceptLoop, "proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public int port() {
        return listener.getLocalPort();
    }

    /** Cuts the connection carrying the next COMMIT, once. */
    public void cutNextCommit(Cut how) {
        cutNextCommits(how);
    }

    /** Cuts the connections carrying the next COMMITs, one each, the first as {@code hows[0]}. */
    public void cutNextCommits(Cut... hows) {
        armed.addAll(List.of(hows));
    }

    /**
     * Lets the next {@code passing} COMMIT statements through, then cuts the one after them, once:
     * a fault at a chosen point of work that commits several times. Only the statement counts,
     * not the word inside another (the isolation level {@code READ COMMITTED} that a driver sets
     * as a transaction begins), nor a flush that commits by itself.
     */
    public void cutCommitStatementAfter(int passing, Cut how) {
        statementsToPass.set(passing);
        statementCut.set(how);
    }

    /** Cuts every {@code n}th COMMIT after the server received it; 0 stops. */
    public void cutEveryNthCommit(int n) {
        cutEvery.set(n);
    }

    /**
     * After the next cut made after the server received a COMMIT, drops every connection and
     * refuses new ones until {@link #acceptConnections()}: the database is out of reach just when
     * the client needs it to learn the commit's outcome.
     */
    public void refuseConnectionsAfterNextCut() {
        blackoutArmed.set(true);
    }

    /** Ends a refusal begun by {@link #refuseConnectionsAfterNextCut()}. */
    public void acceptConnections() {
        refusing = false;
    }

    /**
     * How many times so far a client sent something: a request and what the driver sends with it
     * in one go, so the count of round trips the clients began (a little more if a request ever
     * arrives in pieces).
     */
    public int clientWrites() {
        return clientWrites.get();
    }

    /**
     * How many COMMITs cut {@link Cut#AFTER_THE_CLIENT_GAVE_UP} have been forwarded to the server
     * and answered by it (or the server closed the connection): once this counts one, whatever
     * that COMMIT could do on the server is done.
     */
    public int lateDeliveries() {
        return lateDeliveries.get();
    }

    /** How many connections were cut so far. */
    public int cuts() {
        return cuts.get();
    }

    private void acceptLoop() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                if (refusing) {
                    closeQuietly(client);
                    continue;
                }
                Socket server = new Socket();
                server.connect(new InetSocketAddress(targetHost, targetPort), 5_000);
                sockets.add(client);
                sockets.add(server);
                if (refusing) {
                    // A connection made while the refusal began: drop it like the others.
                    closeQuietly(client);
                    closeQuietly(server);
                    continue;
                }
                pump(client, server, true);
                pump(server, client, false);
            } catch (IOException e) {
                // Listener closed, or the server refused: the client sees its connection drop.
            }
        }
    }

    private void pump(Socket from, Socket to, boolean clientToServer) {
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[64 * 1024];
            boolean leaveToTheAnswer = false;
            try {
                InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream();
                for (int n; (n = in.read(buffer)) > 0; ) {
                    if (clientToServer) {
                        clientWrites.incrementAndGet();
                    }
                    Cut cut = clientToServer && contains(buffer, n) ? cutFor(buffer, n) : null;
                    if (cut != null) {
                        // The client loses its connection before any answer can reach it.
                        closeQuietly(from);
                    }
                    if (cut == Cut.BEFORE_SERVER_RECEIVES) {
                        break;
                    }
                    if (cut == Cut.AFTER_THE_CLIENT_GAVE_UP) {
                        deliverLate(to, buffer, n);
                        return;
                    }
                    out.write(buffer, 0, n);
                    out.flush();
                    if (cut == Cut.AFTER_SERVER_RECEIVES) {
                        // An orderly end after the COMMIT, so the server reads it before the
                        // close. The server's side stays open until its answer comes, which the
                        // other pump cannot pass on and closes up: closed now, the server would
                        // be reset, and a reset may drop the COMMIT before the server reads it.
                        to.shutdownOutput();
                        leaveToTheAnswer = true;
                        if (blackoutArmed.getAndSet(false)) {
                            refusing = true;
                            sockets.forEach(CommitCuttingProxy::closeQuietly);
                        }
                        return;
                    }
                }
            } catch (IOException e) {
                // The other side went away.
            } finally {
                closeQuietly(from);
                if (!leaveToTheAnswer) {
                    closeQuietly(to);
                }
            }
        }, "proxy-pump");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Forwards a COMMIT after {@link #LATE_BY_MILLIS}, then waits for the server's answer or its
     * close, which comes once the COMMIT has been carried out or refused.
     */
    private void deliverLate(Socket server, byte[] buffer, int length) throws IOException {
        try {
            Thread.sleep(LATE_BY_MILLIS);
            OutputStream out = server.getOutputStream();
            out.write(buffer, 0, length);
            out.flush();
            server.shutdownOutput();
            InputStream answer = server.getInputStream();
            byte[] discard = new byte[4096];
            while (answer.read(discard) > 0) {
                // the answer goes nowhere: its client is gone
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            lateDeliveries.incrementAndGet();
            closeQuietly(server);
        }
    }

    private Cut cutFor(byte[] buffer, int length) {
        Cut counted = statementCut.get() != null && commitStatement(buffer, length)
                && statementsToPass.getAndDecrement() <= 0 ? statementCut.getAndSet(null) : null;
        Cut once = counted != null ? counted : armed.poll();
        int every = cutEvery.get();
        if (once == null && every > 0 && commitsSeen.incrementAndGet() % every == 0) {
            once = Cut.AFTER_SERVER_RECEIVES;
        }
        if (once != null) {
            cuts.incrementAndGet();
        }
        return once;
    }

    /** Whether the bytes hold the word COMMIT on its own: no letter on either side. */
    private static boolean commitStatement(byte[] buffer, int length) {
        for (int at = indexOf(buffer, 0, length, COMMIT); at >= 0; at = indexOf(buffer, at + 1, length, COMMIT)) {
            int after = at + COMMIT.length;
            if ((at == 0 || !Character.isLetter(buffer[at - 1])) && (after == length || !Character.isLetter(buffer[after]))) {
                return true;
            }
        }
        return false;
    }

    private static int indexOf(byte[] buffer, int from, int length, byte[] text) {
        outer:
        for (int i = from; i + text.length <= length; i++) {
            for (int j = 0; j < text.length; j++) {
                if (buffer[i + j] != text[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    private static boolean contains(byte[] buffer, int length) {
        return COMMITS.stream().anyMatch(commit -> contains(buffer, length, commit));
    }

    private static boolean contains(byte[] buffer, int length, byte[] text) {
        return text == COMMIT ? commitStatement(buffer, length) : indexOf(buffer, 0, length, text) >= 0;
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // Already closed.
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
        sockets.forEach(CommitCuttingProxy::closeQuietly);
    }
}
