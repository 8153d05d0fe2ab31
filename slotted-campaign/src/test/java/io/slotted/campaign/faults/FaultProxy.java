package io.slotted.campaign.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Queue;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * A TCP proxy on loopback in front of one MariaDB or PostgreSQL server, for many client
 * connections, that makes the faults of a commit's journey on demand: the request that carries a
 * commit lost before or after the server has it, its answer lost, the request delivered late or
 * only once the client gave up, or cut halfway; and every connection cut, or refused for a while.
 *
 * <p><b>What triggers a fault.</b> A fault of the first kind is armed for the next request that
 * carries a commit: one that contains the word {@code COMMIT} in clear text (on its own and in
 * capitals, so that neither {@code autocommit} settings nor the isolation level
 * {@code READ COMMITTED} count) or Slotted's flush comment, with which a flush in auto-commit
 * begins ({@link CommitMarker}). Both drivers send those words in clear text when told not to use TLS and,
 * for PgJDBC, not to turn COMMIT into a named server-side statement
 * ({@link CampaignServer#jdbcUrlVia(FaultProxy)} says so). Faults armed one after the other take
 * the next commits one each, in order, whichever connections carry them.
 *
 * <p><b>Requests, not reads.</b> The proxy follows each client's wire protocol
 * ({@link ServerKind}'s framer) to know where a request ends: a MariaDB command packet, or a run of
 * PostgreSQL messages up to its Sync or simple Query. A fault acts on the whole request that
 * carries the commit, however many reads it took, so a held flush of many rows is delivered whole
 * and a cut one is cut inside it. The words are looked for within one read of one request: a word
 * split between two reads is not seen, and a word seen only in a later read of a long request takes
 * the request from that read on; both drivers make either rare by sending a request in one write,
 * with the words near its start.
 *
 * <p><b>What the servers make of it.</b> MariaDB and PostgreSQL alike run a late or held request
 * when it comes, on the server connection that kept its transaction open, and its row locks held,
 * all along; they see the proxy's orderly end of that connection only after answering. A request
 * cut halfway never commits: MariaDB waits for the rest of its packet and drops the connection at
 * the end; PostgreSQL may have run the Parse, Bind and Execute before the missing Sync, and rolls
 * that implicit transaction back at the end. A reset before the commit rolls back on both.
 *
 * <p><b>Threads and bounds.</b> Plain blocking sockets, a thread per direction per connection, as
 * {@code io.slotted.db.CommitCuttingProxy} does; a held request waits on its connection's own
 * thread, so delivery keeps the connection's byte order, and no more than {@code 16 MiB} is held
 * per connection. Arming, {@link #heal()} and the counters are safe from any thread while the
 * pumps run. Delays are real time: the servers behind are real.
 *
 * <p><b>Why not NetCrusher.</b> NetCrusher (like Toxiproxy) makes faults by time and volume: its
 * filters pass or transform bytes as they go through, its throttlers delay a whole direction, and
 * freezing or closing acts on a whole connection pair. The faults here are triggered by what one
 * request says and act on that request alone: cut only the client's side and write the request to
 * the still open server connection seconds later, wait for the client to give up first, forward
 * half of it, swallow only its answer. That needs the request in hand, whole, between reading and
 * forwarding, and each side of a pair closed on its own, which its filters and pairs do not give.
 */
public final class FaultProxy implements AutoCloseable {
    /** How long a passing commit waits for the requests it released to reach the server first. */
    private static final long DELIVERY_HEAD_START_MILLIS = 5;

    private final ServerKind kind;
    private final InetSocketAddress target;
    private final ServerSocket listener;
    private final Random random;
    private final Queue<ArmedFault> armed = new ConcurrentLinkedQueue<>();
    private final AtomicInteger commitsToPass = new AtomicInteger();
    /** Held requests to deliver with another connection's next commit. */
    private final Set<Link> awaitingCommit = ConcurrentHashMap.newKeySet();
    private final Set<Link> links = ConcurrentHashMap.newKeySet();
    private final AtomicIntegerArray made = new AtomicIntegerArray(Fault.values().length);
    private final AtomicIntegerArray delivered = new AtomicIntegerArray(Fault.values().length);
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
        Thread thread = new Thread(runnable, "fault-proxy-timer");
        thread.setDaemon(true);
        return thread;
    });
    private volatile boolean blackout;
    private volatile long blackoutEnds;

    private FaultProxy(ServerKind kind, InetSocketAddress target, long seed) throws IOException {
        this.kind = kind;
        this.target = target;
        this.random = new Random(seed);
        this.listener = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::acceptLoop, "fault-proxy-accept-" + listener.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /**
     * A proxy in front of a server of the given kind.
     *
     * @param seed chooses where {@link #cutNextCommitMidPacket()} cuts
     * @throws UncheckedIOException if no port on loopback can be opened
     */
    public static FaultProxy start(ServerKind kind, String host, int port, long seed) {
        try {
            return new FaultProxy(kind, new InetSocketAddress(host, port), seed);
        } catch (IOException e) {
            throw new UncheckedIOException("could not open a proxy port in front of " + host + ":" + port, e);
        }
    }

    /**
     * A proxy in front of a campaign's server; clients reach it at
     * {@link CampaignServer#jdbcUrlVia(FaultProxy)}.
     *
     * @throws UncheckedIOException if no port on loopback can be opened
     */
    public static FaultProxy inFrontOf(CampaignServer server, long seed) {
        return start(server.kind(), "127.0.0.1", server.port(), seed);
    }

    /** The port on loopback where clients connect. */
    public int port() {
        return listener.getLocalPort();
    }

    /** The next commit never reaches the server, and its client's connection is cut. */
    public void resetBeforeNextCommit() {
        armed.add(new ArmedFault(Fault.RESET_BEFORE_COMMIT));
    }

    /** The next commit reaches the server, and its client is cut before any answer reaches it. */
    public void resetAfterNextCommit() {
        armed.add(new ArmedFault(Fault.RESET_AFTER_COMMIT));
    }

    /**
     * The next commit is held and its client cut at once; the commit reaches the server, on the
     * same server connection, just before another connection's next commit passes (after
     * {@code latest} if none does): typically while the cut client's retry holds its locks, so that
     * the held statement waits for them and runs right after the retry commits.
     */
    public void deliverNextCommitWithTheNextCommit(Duration latest) {
        armed.add(new ArmedFault(Fault.LATE_DELIVERY, requireNotNegative("latest", latest), 0, true));
    }

    /** A held request waits for another connection's commit ({@link #deliverNextCommitWithTheNextCommit}). */
    void awaitNextCommit(Link held) {
        awaitingCommit.add(held);
    }

    void noLongerAwaitingCommit(Link held) {
        awaitingCommit.remove(held);
    }

    /**
     * A commit is about to pass through {@code from}: each request held until another connection's
     * commit is delivered first, and the commit waits a moment for them to reach the server.
     */
    void commitPassing(Link from) {
        boolean released = false;
        for (Link held : awaitingCommit) {
            if (held != from && awaitingCommit.remove(held)) {
                held.commitPassing();
                released = true;
            }
        }
        if (released) {
            try {
                Thread.sleep(DELIVERY_HEAD_START_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * The next commit reaches the server and its answer is swallowed: the client hears nothing
     * until its own timeout gives up, or until the proxy cuts the connection after
     * {@code closeAfter} or on {@link #heal()}.
     *
     * @throws IllegalArgumentException if {@code closeAfter} is null or negative
     */
    public void dropNextAnswer(Duration closeAfter) {
        armed.add(new ArmedFault(Fault.ANSWER_DROPPED, requireNotNegative("closeAfter", closeAfter), 0));
    }

    /**
     * The next commit is held and its client cut at once; the commit reaches the server on the same
     * server connection after {@code delay}, unless {@link #heal()} discards it first.
     * {@link #delivered(Fault)} counts it once the server has answered it.
     *
     * @throws IllegalArgumentException if {@code delay} is null or negative
     */
    public void deliverNextCommitLate(Duration delay) {
        armed.add(new ArmedFault(Fault.LATE_DELIVERY, requireNotNegative("delay", delay), 0));
    }

    /**
     * The next commit is held and its client left waiting; once the client gives up and closes or
     * resets its connection (its socket or query timeout), the commit reaches the server, unless
     * {@link #heal()} discards it first. {@link #delivered(Fault)} counts it once answered.
     */
    public void holdNextCommitPastTimeout() {
        armed.add(new ArmedFault(Fault.HELD_PAST_TIMEOUT));
    }

    /**
     * Only a prefix of the next commit's request reaches the server (at least a byte, never all of
     * it, its length chosen by the seed now), then both sides are cut.
     */
    public void cutNextCommitMidPacket() {
        armed.add(new ArmedFault(Fault.CUT_MID_PACKET, Duration.ZERO, random.nextDouble()));
    }

    /**
     * Cuts every open connection now. A request already held stays held: a late delivery still
     * comes, and one held for a waiting client is delivered now that its client is cut.
     */
    public void resetAll() {
        countMade(Fault.RESET_ALL);
        links.forEach(Link::cutClient);
    }

    /**
     * Cuts every open connection as {@link #resetAll()} does, and resets every new one at once for
     * {@code duration}, or until {@link #heal()}.
     *
     * @throws IllegalArgumentException if {@code duration} is null or negative
     */
    public void blackout(Duration duration) {
        blackoutEnds = System.nanoTime() + requireNotNegative("duration", duration).toNanos();
        blackout = true;
        countMade(Fault.BLACKOUT);
        links.forEach(Link::cutClient);
    }

    /**
     * Disarms every fault, ends a blackout, discards every request held and not yet written to its
     * server (their server connections are closed, so they never run), and cuts connections whose
     * answer was dropped. Once it returns, no held request is written anymore; one written just
     * before may still be running on its server ({@link #pendingDeliveries()} counts it).
     */
    public void heal() {
        armed.clear();
        commitsToPass.set(0);
        blackout = false;
        links.forEach(Link::heal);
    }

    /**
     * How many faults of this kind were made: armed ones only once a commit took them. A fault is
     * counted before its client can see it, so a client that saw its connection cut finds it here.
     */
    public int made(Fault fault) {
        return made.get(fault.ordinal());
    }

    /**
     * How many requests held by faults of this kind ({@link Fault#LATE_DELIVERY},
     * {@link Fault#HELD_PAST_TIMEOUT}) were delivered and answered by the server: once it counts
     * one, whatever that request could do on the server is done.
     */
    public int delivered(Fault fault) {
        return delivered.get(fault.ordinal());
    }

    /** How many armed faults wait for a commit. */
    public int armed() {
        return armed.size();
    }

    /** How many held requests are not yet delivered and answered, nor discarded. */
    public int pendingDeliveries() {
        return (int) links.stream().filter(Link::holds).count();
    }

    /** How many client connections are open through the proxy, or still held. */
    public int connections() {
        return links.size();
    }

    /** Stops listening and cuts every connection; held requests are discarded. */
    @Override
    public void close() {
        try {
            listener.close();
        } catch (IOException ignored) {
            // Closing a listener fails only if it is already closed.
        }
        timer.shutdownNow();
        links.forEach(Link::close);
    }

    @Override
    public String toString() {
        return "FaultProxy[" + kind + " " + target + " on port " + port() + ", connections=" + links.size()
                + ", armed=" + armed.size() + ", pending=" + pendingDeliveries() + "]";
    }

    /**
     * The next {@code commits} commits pass untouched before an armed fault takes one: a fault
     * aimed into the middle of work that commits several times, such as a release's chunks.
     */
    public void letCommitsPass(int commits) {
        if (commits < 0) {
            throw new IllegalArgumentException("commits must not be negative, but was " + commits);
        }
        commitsToPass.set(commits);
    }

    ArmedFault nextFault() {
        if (armed.isEmpty()) {
            return null;
        }
        if (commitsToPass.getAndUpdate(left -> Math.max(0, left - 1)) > 0) {
            return null;
        }
        return armed.poll();
    }

    void countMade(Fault fault) {
        made.incrementAndGet(fault.ordinal());
    }

    void countDelivered(Fault fault) {
        delivered.incrementAndGet(fault.ordinal());
    }

    void later(Duration delay, Runnable task) {
        try {
            timer.schedule(task, delay.toNanos(), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            // The proxy is closed, and has cut every connection already.
        }
    }

    void forget(Link link) {
        links.remove(link);
    }

    private void acceptLoop() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                client.setTcpNoDelay(true);
                if (blackedOut()) {
                    Link.abort(client);
                    continue;
                }
                Link link = new Link(this, client, kind.newFramer());
                links.add(link);
                if (blackedOut()) {
                    // A blackout that began while this one was accepted: cut it like the others.
                    link.close();
                    links.remove(link);
                    continue;
                }
                link.start(target);
            } catch (IOException e) {
                // The listener closed, or one accept failed: the next one may succeed.
            }
        }
    }

    private static Duration requireNotNegative(String name, Duration duration) {
        if (duration == null || duration.isNegative()) {
            throw new IllegalArgumentException(name + " must be zero or more, but was " + duration);
        }
        return duration;
    }

    private boolean blackedOut() {
        return blackout && System.nanoTime() - blackoutEnds < 0;
    }
}
