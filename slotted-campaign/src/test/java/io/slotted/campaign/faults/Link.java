package io.slotted.campaign.faults;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One client connection through a {@link FaultProxy} and the proxy's own connection to the server
 * for it, pumped by two threads: the client's thread forwards requests and makes the faults, the
 * server's thread forwards answers unless the connection's mode silences them.
 *
 * <p>A connection's life is a small state machine, guarded by the object's monitor: it flows until
 * a fault takes it; then it drains (the server's answer to a commit goes nowhere), drops answers,
 * or holds a request; a held request is delivered or, on {@link #heal()}, discarded; and in the end
 * it is over. Every transition is made under the monitor by whoever gets there first, so a request
 * is delivered or discarded, never both, and after {@code heal()} nothing held is written anymore.
 *
 * <p>A held request lives on the client's thread, which then reads nothing more from the client
 * (a late delivery) or only appends what the client still sends (held past its timeout); so the
 * bytes reach the server in the client's order, and the buffer is bounded by {@link #MAX_HELD}.
 */
final class Link {
    /** The most a held request may take; larger ones cut the connection instead. */
    static final int MAX_HELD = 16 * 1024 * 1024;
    private static final int BUFFER = 64 * 1024;
    private static final int CONNECT_TIMEOUT_MILLIS = 5_000;
    /** How long a delivered request may take to be answered before it counts as lost. */
    private static final long ANSWER_WAIT_SECONDS = 120;
    private static final AtomicInteger NUMBERS = new AtomicInteger();

    private enum Mode { FLOWING, DRAINING, ANSWER_DROPPED, HOLDING, DELIVERING, OVER }

    private final FaultProxy proxy;
    private final Socket client;
    private final Socket server = new Socket();
    private final RequestFramer framer;
    private final int number = NUMBERS.incrementAndGet();
    private final CompletableFuture<Boolean> answered = new CompletableFuture<>();
    private final AtomicInteger pumpsRunning = new AtomicInteger(1);
    private volatile Mode mode = Mode.FLOWING;
    /** Set when another connection's commit passes, for a request held until then. */
    private boolean releaseHeld;
    private Fault holding;

    Link(FaultProxy proxy, Socket client, RequestFramer framer) {
        this.proxy = proxy;
        this.client = client;
        this.framer = framer;
    }

    /** Connects to the server and starts both pumps. */
    void start(InetSocketAddress target) {
        daemon(() -> pumpClient(target), "client");
    }

    /** Whether a request of this connection is held or being delivered. */
    boolean holds() {
        Mode now = mode;
        return now == Mode.HOLDING || now == Mode.DELIVERING;
    }

    /**
     * Cuts the client unless this connection is already past its client: a connection that holds a
     * request for a client still waiting loses only its client (which makes the delivery come now).
     */
    synchronized void cutClient() {
        if (mode == Mode.FLOWING || mode == Mode.ANSWER_DROPPED) {
            end();
        } else if (mode == Mode.HOLDING && holding == Fault.HELD_PAST_TIMEOUT) {
            abort(client);
        }
    }

    /** Discards a held request and closes a silent connection; drains and deliveries go on. */
    synchronized void heal() {
        if (mode == Mode.HOLDING || mode == Mode.ANSWER_DROPPED) {
            end();
        }
    }

    /** Ends whatever this connection is doing, at once. */
    synchronized void close() {
        end();
    }

    /** Closes a connection whose answer was dropped, if it still waits. */
    synchronized void endSilence() {
        if (mode == Mode.ANSWER_DROPPED) {
            end();
        }
    }

    private void pumpClient(InetSocketAddress target) {
        try {
            server.connect(target, CONNECT_TIMEOUT_MILLIS);
            server.setTcpNoDelay(true);
            pumpsRunning.incrementAndGet();
            daemon(this::pumpServer, "server");
            InputStream in = client.getInputStream();
            byte[] buffer = new byte[BUFFER];
            for (int n; (n = in.read(buffer)) > 0; ) {
                if (!forward(buffer, 0, n)) {
                    return;
                }
            }
        } catch (IOException e) {
            // The client or the server went away, or the proxy cut them.
        } finally {
            endUnlessDraining();
            pumpEnded();
        }
    }

    /**
     * Forwards bytes from the client, request by request, until one carries a commit while a fault
     * is armed; that request is read whole and the fault applied to it.
     *
     * @return whether to go on reading from the client
     */
    private boolean forward(byte[] bytes, int from, int to) throws IOException {
        int at = from;
        while (at < to) {
            int end = framer.advance(bytes, at, to);
            int segmentEnd = end < 0 ? to : end;
            boolean commit = mode == Mode.FLOWING && CommitMarker.isIn(bytes, at, segmentEnd);
            ArmedFault fault = commit ? proxy.nextFault() : null;
            if (commit && fault == null) {
                proxy.commitPassing(this);
            }
            if (fault != null) {
                server.getOutputStream().write(bytes, from, at - from);
                return apply(fault, readRequest(bytes, at, segmentEnd, end >= 0, to));
            }
            at = segmentEnd;
        }
        server.getOutputStream().write(bytes, from, to - from);
        return true;
    }

    /**
     * The whole request that begins at {@code bytes[from]}, reading on from the client when it does
     * not end by {@code segmentEnd}, and what the client sent after it.
     */
    private Request readRequest(byte[] bytes, int from, int segmentEnd, boolean ended, int to) throws IOException {
        ByteArrayOutputStream request = new ByteArrayOutputStream();
        request.write(bytes, from, segmentEnd - from);
        if (ended) {
            return new Request(request.toByteArray(), Arrays.copyOfRange(bytes, segmentEnd, to));
        }
        InputStream in = client.getInputStream();
        byte[] more = new byte[BUFFER];
        for (int n; (n = in.read(more)) > 0; ) {
            int end = framer.advance(more, 0, n);
            request.write(more, 0, end < 0 ? n : end);
            checkHeldSize(request.size());
            if (end >= 0) {
                return new Request(request.toByteArray(), Arrays.copyOfRange(more, end, n));
            }
        }
        return new Request(request.toByteArray(), new byte[0]);
    }

    /** @return whether to go on reading from the client */
    private boolean apply(ArmedFault fault, Request request) throws IOException {
        return switch (fault.fault()) {
            case RESET_BEFORE_COMMIT -> resetBefore();
            case RESET_AFTER_COMMIT -> resetAfter(request);
            case ANSWER_DROPPED -> dropAnswer(request, fault.time());
            case LATE_DELIVERY -> deliverLate(request, fault.time(), fault.withNextCommit());
            case HELD_PAST_TIMEOUT -> holdPastTimeout(request);
            case CUT_MID_PACKET -> cutMidPacket(request, fault.prefixOf(request.bytes().length));
            case RESET_ALL, BLACKOUT -> throw new IllegalArgumentException(fault + " is not armed for a commit");
        };
    }

    private boolean resetBefore() {
        if (take(Mode.OVER, null)) {
            proxy.countMade(Fault.RESET_BEFORE_COMMIT);
            close();
        }
        return false;
    }

    /**
     * Forwards the commit and ends the output to the server in order, so the server reads the whole
     * request before the end; its answer finds no client, and the server's pump reads it away until
     * the server closes its end.
     */
    private boolean resetAfter(Request request) throws IOException {
        if (take(Mode.DRAINING, null)) {
            server.getOutputStream().write(request.bytes());
            proxy.countMade(Fault.RESET_AFTER_COMMIT); // before the server can see the end and close
            server.shutdownOutput();
            abort(client);
        }
        return false;
    }

    private boolean dropAnswer(Request request, Duration closeAfter) throws IOException {
        if (!take(Mode.ANSWER_DROPPED, null)) {
            return false;
        }
        server.getOutputStream().write(request.bytes());
        proxy.countMade(Fault.ANSWER_DROPPED);
        proxy.later(closeAfter, this::endSilence);
        return forward(request.after(), 0, request.after().length);
    }

    private boolean deliverLate(Request request, Duration delay, boolean withNextCommit) {
        if (take(Mode.HOLDING, Fault.LATE_DELIVERY)) {
            proxy.countMade(Fault.LATE_DELIVERY);
            abort(client);
            if (withNextCommit) {
                proxy.awaitNextCommit(this);
            }
            try {
                if (awaitHeld(System.nanoTime() + delay.toNanos())) {
                    deliver(request.bytes());
                }
            } finally {
                proxy.noLongerAwaitingCommit(this);
            }
        }
        return false;
    }

    /**
     * Another connection's commit is about to pass: a request held until then is delivered now,
     * and the commit waits a moment for it to reach the server first.
     */
    synchronized void commitPassing() {
        releaseHeld = true;
        notifyAll();
    }

    /**
     * Holds the request and reads on from the client until it gives up: whatever it still sends
     * is held after the request, to keep the connection's order.
     */
    private boolean holdPastTimeout(Request request) {
        if (!take(Mode.HOLDING, Fault.HELD_PAST_TIMEOUT)) {
            return false;
        }
        proxy.countMade(Fault.HELD_PAST_TIMEOUT);
        ByteArrayOutputStream held = new ByteArrayOutputStream();
        held.writeBytes(request.bytes());
        held.writeBytes(request.after());
        try {
            InputStream in = client.getInputStream();
            byte[] buffer = new byte[BUFFER];
            for (int n; (n = in.read(buffer)) > 0; ) {
                held.write(buffer, 0, n);
                checkHeldSize(held.size());
            }
        } catch (IOException e) {
            // The client gave up (or sent more than may be held, and is cut): deliver if still held.
        }
        abort(client);
        deliver(held.toByteArray());
        return false;
    }

    /** Forwards a prefix, then ends the output in order, so the server reads a request that stops short. */
    private boolean cutMidPacket(Request request, int prefix) throws IOException {
        if (take(Mode.OVER, null)) {
            server.getOutputStream().write(request.bytes(), 0, prefix);
            proxy.countMade(Fault.CUT_MID_PACKET); // before the server can see the end and close
            server.shutdownOutput();
            abort(client);
            closeQuietly(server);
        }
        return false;
    }

    /**
     * Writes a held request to the server, unless it was discarded meanwhile, and waits for the
     * server's answer: once it comes, whatever the request could do on the server is done.
     */
    private void deliver(byte[] held) {
        Fault kind;
        synchronized (this) {
            if (mode != Mode.HOLDING) {
                return;
            }
            mode = Mode.DELIVERING;
            kind = holding;
        }
        try {
            server.getOutputStream().write(held);
            server.shutdownOutput();
            if (answered.get(ANSWER_WAIT_SECONDS, TimeUnit.SECONDS)) {
                proxy.countDelivered(kind);
            }
        } catch (IOException | ExecutionException | TimeoutException e) {
            // The server went away or never answered: the request's fate is unknown, and not counted.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            close();
        }
    }

    /** Waits until the deadline; false if the held request was discarded or the wait interrupted. */
    private synchronized boolean awaitHeld(long deadline) {
        try {
            for (long left; mode == Mode.HOLDING && !releaseHeld && (left = deadline - System.nanoTime()) > 0; ) {
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        return mode == Mode.HOLDING;
    }

    private void pumpServer() {
        byte[] buffer = new byte[BUFFER];
        try {
            InputStream in = server.getInputStream();
            OutputStream out = client.getOutputStream();
            for (int n; (n = in.read(buffer)) > 0; ) {
                Mode now = mode;
                if (now == Mode.DELIVERING) {
                    answered.complete(true);
                } else if (now == Mode.FLOWING) {
                    out.write(buffer, 0, n);
                }
            }
        } catch (IOException e) {
            // The server went away, the client did, or the proxy cut them.
        } finally {
            answered.complete(false);
            close();
            pumpEnded();
        }
    }

    /** Moves from flowing to {@code next}; false if the connection was taken by something else first. */
    private synchronized boolean take(Mode next, Fault held) {
        if (mode != Mode.FLOWING) {
            return false;
        }
        mode = next;
        holding = held;
        return true;
    }

    /** Ends the connection unless its server's answer to a commit is still being read away. */
    private synchronized void endUnlessDraining() {
        if (mode != Mode.DRAINING) {
            end();
        }
    }

    /** Must hold the monitor. */
    private void end() {
        mode = Mode.OVER;
        notifyAll();
        abort(client);
        abort(server);
    }

    private void pumpEnded() {
        if (pumpsRunning.decrementAndGet() == 0) {
            proxy.forget(this);
        }
    }

    private void daemon(Runnable pump, String side) {
        Thread thread = new Thread(pump, "fault-proxy-" + number + "-" + side);
        thread.setDaemon(true);
        thread.start();
    }

    private static void checkHeldSize(int size) throws IOException {
        if (size > MAX_HELD) {
            throw new IOException("a request of more than " + MAX_HELD + " bytes cannot be held");
        }
    }

    /** Closes with a reset, as a connection cut on its way does, rather than an orderly end. */
    static void abort(Socket socket) {
        try {
            if (!socket.isClosed()) {
                socket.setSoLinger(true, 0);
            }
        } catch (IOException e) {
            // Closed meanwhile: closing again is harmless.
        }
        closeQuietly(socket);
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // Already closed.
        }
    }

    /**
     * A request read whole, and what the client sent after it in the same reads.
     *
     * @param bytes the request
     * @param after the bytes after it, not yet framed
     */
    private record Request(byte[] bytes, byte[] after) {
    }
}
