package io.slotted.internal.group;

import io.slotted.OutcomeUnknownException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who writes {@code GROUPED} flushes: whichever thread finds a flush writer free. A caller waiting
 * for its own increment takes a turn at a free writer and writes everything queued at that moment,
 * its own increment among it, on its own thread: a lone increment costs its caller one round trip
 * and no hand-off to another thread, as in {@code DIRECT} mode. Callers that arrive while every
 * writer is busy wait, and are released by the commit that carries their increments or woken to
 * lead the next flush.
 *
 * <p>This is how databases group their own commits: MySQL's binlog group commit elects a leader
 * among the committing threads, and PostgreSQL lets whichever backend finds no WAL flush running
 * flush everyone's. Here the turn is a lock per writer, taken without waiting.
 *
 * <p>Nothing queued is left behind. A caller queues before it tries for a turn; the holder of a
 * turn, once it lets go, looks at the queue and, if something is there, wakes the thread that
 * queued last to lead, or a flusher thread when that increment's caller does not wait on its own
 * thread (asynchronous calls, the front ends' event loops, which never run JDBC). Either the
 * caller's try saw the turn free, or the holder, letting go after it, sees the caller's increment.
 *
 * <p>A leader writes for others, so its own interrupt must not fail them: it is held back while
 * the leader writes and given back after (see {@link FlushWriter}).
 */
final class FlushTurns {
    private static final Logger LOG = LoggerFactory.getLogger(FlushTurns.class);
    private final FlushQueue queue;
    private final List<Turn> turns;
    private final AtomicInteger open;

    FlushTurns(FlushQueue queue, List<FlushWriter> writers) {
        this.queue = queue;
        this.turns = writers.stream().map(Turn::new).toList();
        this.open = new AtomicInteger(turns.size());
    }

    /**
     * Writes everything queued through the first free writer, if one is free, then passes the
     * turn on if more was queued meanwhile.
     *
     * @return true if the calling thread took a turn, or found every writer closed and refused
     *     what was queued; false if every writer was busy, and their holders will pass on
     */
    boolean tryToLead() {
        for (Turn turn : turns) {
            if (!turn.lock.tryLock()) {
                continue;
            }
            if (turn.closed) {
                turn.lock.unlock();
                continue;
            }
            try {
                writeQueued(turn.writer);
            } finally {
                turn.lock.unlock();
            }
            passOn();
            return true;
        }
        if (open.get() == 0) {
            queue.refuseLeftovers(); // queued after the counters closed: nobody is left to write it
            return true;
        }
        return false;
    }

    /**
     * A flusher thread's last turn, when the counters close: waits for its writer's turn, writes
     * everything queued until nothing is, gives the connection back and closes the writer.
     */
    void drainAndClose(FlushWriter writer) {
        Turn turn = turns.stream().filter(t -> t.writer == writer).findFirst().orElseThrow();
        turn.lock.lock();
        try {
            while (!queue.isEmpty()) {
                writeQueued(writer);
            }
            writer.releaseConnection();
            turn.closed = true;
            open.decrementAndGet();
        } finally {
            turn.lock.unlock();
        }
        passOn();
    }

    /**
     * A flusher thread's upkeep while idle, if its writer is free: borrows a connection ahead if
     * none is held, and tells the ledger the writer lives when that is due.
     */
    void upkeep(FlushWriter writer) {
        Turn turn = turns.stream().filter(t -> t.writer == writer).findFirst().orElseThrow();
        if (!turn.lock.tryLock()) {
            return;
        }
        try {
            if (!turn.closed) {
                writer.connectAhead();
                writer.keepAlive();
            }
        } finally {
            turn.lock.unlock();
        }
    }

    /** Whether every writer has closed; increments queued from then on are refused. */
    boolean closed() {
        return open.get() == 0;
    }

    /** Everything queued now, written and its callers released; the leader's interrupt given back after. */
    private void writeQueued(FlushWriter writer) {
        try {
            for (List<Pending> batch : queue.takeAll()) {
                for (Flush flush : Flush.of(batch)) {
                    writeTelling(writer, flush);
                }
            }
            writer.keepAlive();
        } finally {
            writer.giveBackInterrupt();
        }
    }

    /**
     * Writes a flush and tells its callers, whatever happens: a failure the writer did not expect
     * (a bug) is logged and tells them the outcome is unknown, rather than leaving them waiting
     * for ever or ending the flusher thread with every increment queued behind it.
     */
    private static void writeTelling(FlushWriter writer, Flush flush) {
        try {
            writer.write(flush, Flush::fail);
        } catch (RuntimeException e) {
            LOG.error("writing {} failed unexpectedly; its callers are told the outcome is unknown", flush.describe(), e);
            flush.fail(new OutcomeUnknownException(flush.describe() + " failed unexpectedly (" + e
                    + "); the increments may or may not have been applied", e));
        }
        flush.complete();
    }

    /** After letting go of a turn: whoever queued last leads next, or a flusher for a caller who cannot. */
    private void passOn() {
        Pending newest = queue.newest();
        if (newest == null) {
            return;
        }
        Thread waiter = newest.waiter();
        if (waiter != null && waiter != Thread.currentThread()) {
            LockSupport.unpark(waiter);
        } else {
            queue.wakeFlusher();
        }
    }

    /** A writer and the lock whose holder writes through it. */
    private static final class Turn {
        final FlushWriter writer;
        final ReentrantLock lock = new ReentrantLock();
        /** Set, under the lock, once the counters closed and the writer was drained. */
        boolean closed;

        Turn(FlushWriter writer) {
            this.writer = writer;
        }
    }
}
