package io.slotted.internal.group.commit;

import io.slotted.Ticker;
import io.slotted.internal.jdbc.Database;
import io.slotted.internal.jdbc.Transactions;
import io.slotted.internal.sql.CounterKey;
import io.slotted.internal.write.BoundedCounters;
import io.slotted.internal.write.SlotPicker;
import io.slotted.internal.write.SlotShare;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * A flusher's own connection, kept from one flush to the next, and the share of the slots the
 * flusher writes through it.
 *
 * <p>The flusher keeps its connection while the counters are open — it is given back only when it
 * fails or the counters close — because a caller may be waiting for a flush while its own
 * transaction holds a connection of the same pool: were the flusher to borrow then, every
 * connection could be held by such callers and the flush would wait for the pool's timeout. For
 * the same reason it borrows one ahead, while idle, after a failure dropped the last. A connection
 * idle for more than {@link #IDLE_CHECK_NANOS} is checked before it is used (the server or a
 * firewall may have closed it meanwhile) and replaced if it is gone.
 *
 * <p>Whenever the connection is new, or was idle, the flusher's {@link SlotShare} is worked out
 * again: a new connection may reach another node of a cluster, or the cluster may have changed.
 */
public final class HeldConnection {
    /**
     * How long the connection may sit unused before it is checked: as long as a pool lets a
     * connection idle before it checks it on lending it out, give or take, so that a flusher under
     * load never pays for the check.
     */
    private static final long IDLE_CHECK_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** How long a flusher keeps to the slot it drew. */
    private static final long DRAW_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final int VALID_TIMEOUT_SECONDS = 5;

    private final Database database;
    private final SlotPicker slots;
    private final int flusher;
    private final int flushers;
    private final Ticker ticker;
    private Connection held;
    /** When the connection was last lent to an attempt, by the ticker. */
    private long lastUsed;
    private SlotShare share;
    /**
     * Which slot of its share the flusher writes, kept for {@link #DRAW_NANOS}: between two
     * roll-ups a hot counter then changes about one row per flusher, not every slot row, and a
     * fold takes from those few. Drawn again so that flushers of two processes that drew the same
     * slot do not keep waiting on each other's row locks.
     */
    private int draw;
    /** When {@link #draw} was drawn, by the ticker. */
    private long drawnAt;
    /**
     * The isolation level the connection was lent with, given back with it: the flusher's
     * transactions read committed (see {@code Dialect.snapshotPerTransactionByDefault}).
     */
    private Transactions.Isolation isolation = Transactions.Isolation.UNCHANGED;
    /** Whether the data source's connections take several statements in one packet; null until asked. */
    private Boolean multiStatements;

    public HeldConnection(Database database, SlotPicker slots, int flusher, int flushers, Ticker ticker) {
        this.database = database;
        this.slots = slots;
        this.flusher = flusher;
        this.flushers = flushers;
        this.ticker = ticker;
        this.share = SlotShare.of(flusher, flushers, Optional.empty());
        drawSlot(ticker.read());
    }

    private void drawSlot(long now) {
        draw = ThreadLocalRandom.current().nextInt(Integer.MAX_VALUE);
        drawnAt = now;
    }

    /**
     * The connection, borrowed if none is held, checked if it idled; each attempt sets its commit
     * mode.
     *
     * @throws SQLException if none could be had
     */
    public Connection get() throws SQLException {
        long now = ticker.read();
        if (held != null && now - lastUsed > IDLE_CHECK_NANOS) {
            try {
                if (!held.isValid(VALID_TIMEOUT_SECONDS)) {
                    release();
                } else {
                    learnShare(held);
                }
            } catch (SQLException e) {
                release();
            }
        }
        if (held == null) {
            held = borrow();
        }
        if (now - drawnAt > DRAW_NANOS) {
            drawSlot(now);
        }
        lastUsed = now;
        return held;
    }

    private Connection borrow() throws SQLException {
        Connection borrowed = database.connect();
        try {
            isolation = Transactions.readCommitted(borrowed, database.dialect());
            learnShare(borrowed);
            if (multiStatements == null) {
                multiStatements = database.dialect().takesMultiStatements(borrowed);
            }
            return borrowed;
        } catch (SQLException e) {
            borrowed.close();
            throw e;
        }
    }

    private void learnShare(Connection connection) throws SQLException {
        share = SlotShare.of(flusher, flushers, database.dialect().clusterNode(connection));
    }

    /** The connection if one is held, as it is, for work between flushes. */
    public Optional<Connection> ifHeld() {
        return Optional.ofNullable(held);
    }

    /**
     * Borrows the connection ahead of the next flush if none is held, so that the flusher holds
     * one before callers can hold every connection of the pool. A failure is left for the next
     * flush, which borrows again and reports it.
     */
    public void connectAhead() {
        if (held != null) {
            return;
        }
        try {
            get();
        } catch (SQLException | RuntimeException e) {
            release();
        }
    }

    /** Gives the connection back to the pool: after it failed, and when the counters close. */
    public void release() {
        if (held != null) {
            try {
                isolation.restore(held, null);
            } catch (SQLException | RuntimeException e) {
                // A connection that failed cannot be set; the pool discards it.
            }
            try {
                held.close();
            } catch (SQLException | RuntimeException e) {
                // The pool discards a connection it cannot reset; nothing is pending on it. A pool
                // closed under its connections may fail otherwise (HikariCP: a NullPointerException),
                // which must not end the flusher that gives the connection back.
            }
            held = null;
        }
    }

    /** Whether the connections take several statements in one packet; known once one was borrowed. */
    public boolean takesMultiStatements() {
        return Boolean.TRUE.equals(multiStatements);
    }

    /** The flusher's slot of its share, for one counter's row or bucket row. */
    public int slotFor(CounterKey key) {
        return share.pick(slots, key.recordType(), draw);
    }

    /** The slot of the flusher's allowance rows, where it spends bounded counters' headroom. */
    public int allowanceSlot() {
        return BoundedCounters.allowanceSlot(share.share());
    }
}
