package io.slotted.internal.expiry;

import io.slotted.SlottedException;
import io.slotted.internal.background.Periodic;
import io.slotted.internal.dialect.Dialect;
import io.slotted.internal.jdbc.Retrier;
import io.slotted.internal.jdbc.Transactions;
import io.slotted.internal.sql.CounterKey;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes what expired counters leave behind, in the background: their slot rows and their
 * expiry rows, up to {@value #BATCH} counters a second, soonest expired first. Correctness never
 * depends on it (a read takes an expired counter as 0, a write clears it first); it only keeps
 * the table from holding counters that nobody writes again.
 *
 * <p>Each counter is removed in a transaction of its own that locks its expiry row, as writers do,
 * and checks again that it has expired: one written since (cleared, counting again) is left alone.
 */
public final class ExpirySweep implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ExpirySweep.class);
    /** Counters per run: a bounded amount of work, however many expired at once. */
    static final int BATCH = 500;
    private static final long TICK_MILLIS = 1_000;

    private final ExpiringCounters counters;
    private final Retrier retrier;
    private final ReentrantLock running = new ReentrantLock();
    private Periodic background;

    /**
     * Creates the sweep; starts nothing.
     *
     * @param counters the expiring types and their table
     * @param retrier how failures are retried and reported
     */
    public ExpirySweep(ExpiringCounters counters, Retrier retrier) {
        this.counters = counters;
        this.retrier = retrier;
    }

    /** Starts sweeping every second, if any type expires. */
    public void start() {
        if (!counters.types().isEmpty()) {
            background = Periodic.start("slotted-expiry-sweep", TICK_MILLIS, this::sweepQuietly);
        }
    }

    private void sweepQuietly() {
        try {
            sweep();
        } catch (SlottedException e) {
            LOG.debug("could not sweep expired counters from {}; trying again in a second", counters.table(), e);
        }
    }

    /**
     * Removes up to {@value #BATCH} expired counters now.
     *
     * @return how many were removed
     * @throws SlottedException if the database fails
     */
    public int sweep() {
        running.lock();
        try {
            List<CounterKey> due = retrier.read("find expired counters in " + counters.table(), this::due);
            int removed = 0;
            for (CounterKey key : due) {
                boolean gone = retrier.write("remove expired counter " + key, (connection, dialect) ->
                        Transactions.inTransaction(connection, () -> removeIfExpired(connection, dialect, key)));
                removed += gone ? 1 : 0;
            }
            return removed;
        } finally {
            running.unlock();
        }
    }

    private List<CounterKey> due(Connection connection, Dialect dialect) throws SQLException {
        List<CounterKey> due = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement(counters.statements(dialect).due())) {
            select.setLong(1, counters.now());
            select.setMaxRows(BATCH);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    due.add(new CounterKey(rows.getInt(1), rows.getLong(2)));
                }
            }
        }
        return due;
    }

    private boolean removeIfExpired(Connection connection, Dialect dialect, CounterKey key) throws SQLException {
        var sql = counters.statements(dialect);
        try (PreparedStatement lock = connection.prepareStatement(sql.lockOne())) {
            lock.setInt(1, key.recordType());
            lock.setLong(2, key.recordId());
            try (ResultSet row = lock.executeQuery()) {
                if (!row.next()) {
                    connection.commit();
                    return false;
                }
                long expires = row.getLong(1);
                if (row.wasNull() || expires > counters.now()) {
                    connection.commit();
                    return false;
                }
            }
        }
        for (String delete : List.of(sql.deleteSlots(), sql.deleteOne())) {
            try (PreparedStatement statement = connection.prepareStatement(delete)) {
                statement.setInt(1, key.recordType());
                statement.setLong(2, key.recordId());
                statement.executeUpdate();
            }
        }
        connection.commit();
        return true;
    }

    @Override
    public void close() {
        if (background != null) {
            background.close();
        }
    }
}
