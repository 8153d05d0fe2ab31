package io.slotted.internal.write;

import io.slotted.LimitExceededException;
import io.slotted.Limits;
import io.slotted.SlottedException;
import io.slotted.internal.dialect.Dialect;
import io.slotted.internal.dialect.SlotRow;
import io.slotted.internal.jdbc.Database;
import io.slotted.internal.registry.TypeRegistry;
import io.slotted.internal.sql.CounterKey;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Decides which increments of counters with {@link Limits} are applied: each refused increment
 * counts nowhere, every other one is applied, exactly, across every process and write path.
 *
 * <p>Why it is exact. Every write of a bounded counter, in every process, takes the lock of the
 * counter's slot 0 row first (an upsert that adds 0, so that the row exists to be locked even for
 * a counter never written), in the transaction that writes the counter, and holds it until that
 * transaction ends. Writes of one bounded counter are therefore one after another; the one
 * holding the lock reads the counter's total over all its slots, which then includes every write
 * committed before it and cannot change under it, and decides its increments one by one, in the
 * order given, against that total: an increment that keeps the total within the limits is applied
 * and moves the total on, one that would take it outside is refused. What it decides commits with
 * its rows, or not at all. So no write ever takes a total outside (no oversell), and an increment
 * is refused only when, at that moment, the total left no room for it (no undersell: no share of
 * the headroom sits unused in another process).
 *
 * <p>The lock is taken once per write of the counter — once per flush in {@code GROUPED} mode,
 * where one flush decides every increment its callers queued — never once per increment. Locks
 * are taken in counter order, as every writer takes its rows, so two writes cannot deadlock on
 * each other. A flush whose COMMIT is cut off is resolved through the flush ledger: if it landed,
 * its callers get what that attempt decided; if not, the next attempt decides again, against the
 * total as it is then.
 *
 * <p>What it costs, and what would cost less. Deciding under the lock makes a bounded flush the
 * ledger's transaction (claim, lock, total, rows, COMMIT: four round trips) where an unbounded
 * one is a single statement, and the flushes of one hot counter, in every process, take turns on
 * its lock. The headroom is not spread: no flusher holds a share of it. The escrow method (O'Neil,
 * 1986) would let a flusher spend a share without the lock: each slot row of a bounded counter
 * would hold its share as its value, checked by the database when the row is written (a lower
 * bound: a row may not go below 0, with the bound itself and any surplus in a reserve row that
 * only locked writes change), so that a flush far from the bound stays one statement; a statement
 * that finds its share spent fails whole, and that flush takes this path, which refills its slot
 * from the reserve under the lock, or refuses. Reads would not change: a total is the sum of all
 * the counter's rows, reserve included.
 */
public final class BoundedCounters {
    private final Database database;
    private final TypeRegistry registry;

    /**
     * Creates the decisions of a counter table.
     *
     * @param database the database and its counter table
     * @param registry where the limits are recorded, and this process's own
     */
    public BoundedCounters(Database database, TypeRegistry registry) {
        this.database = database;
        this.registry = registry;
    }

    /**
     * Whether a counter type has limits, as this process knows them.
     *
     * @param recordType the type
     * @return true if its increments are decided here
     */
    public boolean bounded(int recordType) {
        return registry.limits(recordType).bounded();
    }

    /**
     * Whether any of some counters' types has limits.
     *
     * @param keys the counters
     * @return true if any is bounded
     */
    public boolean anyBounded(Collection<CounterKey> keys) {
        for (CounterKey key : keys) {
            if (bounded(key.recordType())) {
                return true;
            }
        }
        return false;
    }

    /**
     * Before a write, outside its transaction: makes sure the registry records the limits this
     * process was given for the types written ({@link TypeRegistry#agreeOnLimits}).
     *
     * @param connection a connection in auto-commit
     * @param keys the counters to be written
     * @throws SlottedException if the registry records other limits than this process's
     * @throws SQLException if the registry cannot be read or written
     */
    public void agree(Connection connection, Collection<CounterKey> keys) throws SQLException {
        for (CounterKey key : keys) {
            registry.agreeOnLimits(connection, key.recordType()); // a map lookup once they agree
        }
    }

    /**
     * Decides, in the caller's transaction, which increments to apply: those to bounded
     * counters, each counter under its lock, held until the transaction ends; the others are
     * always applied.
     *
     * @param connection a connection in a transaction, which the caller commits with the rows
     * @param dialect its database's dialect
     * @param keys each increment's counter
     * @param deltas each increment's amount, in the order they are decided
     * @return for each increment, null when it may be applied, else why it is refused
     * @throws SQLException if a lock or a read fails
     */
    public List<LimitExceededException> decide(Connection connection, Dialect dialect, List<CounterKey> keys,
            List<Long> deltas) throws SQLException {
        List<LimitExceededException> refusals = new ArrayList<>(Collections.nCopies(keys.size(), null));
        Map<CounterKey, List<Integer>> byCounter = new TreeMap<>();
        for (int i = 0; i < keys.size(); i++) {
            if (bounded(keys.get(i).recordType())) {
                byCounter.computeIfAbsent(keys.get(i), k -> new ArrayList<>()).add(i);
            }
        }
        for (Map.Entry<CounterKey, List<Integer>> counter : byCounter.entrySet()) {
            CounterKey key = counter.getKey();
            Limits limits = registry.limits(key.recordType());
            long total = lockAndRead(connection, dialect, key);
            for (int i : counter.getValue()) {
                long delta = deltas.get(i);
                if (limits.allowAdding(total, delta)) {
                    total += delta;
                } else {
                    refusals.set(i, new LimitExceededException(key.toString(), delta, total, limits));
                }
            }
        }
        return refusals;
    }

    /** Takes the counter's lock, its slot 0 row, and reads its total as committed before the lock. */
    private long lockAndRead(Connection connection, Dialect dialect, CounterKey key) throws SQLException {
        if (registry.folds(key.recordType())) {
            throw new SlottedException("counter " + key + " has limits and its type folds into an owner column:"
                    + " limits do not take the column into account yet; bind the type in copy mode, or drop"
                    + " its limits; nothing was applied");
        }
        SlotRows.upsertOne(connection, dialect, database.table(), new SlotRow(key, 0, 0), () -> { });
        try (PreparedStatement select = connection.prepareStatement(database.slotStatements().lockedTotal())) {
            select.setInt(1, key.recordType());
            select.setLong(2, key.recordId());
            try (ResultSet row = select.executeQuery()) {
                BigDecimal total = row.next() ? row.getBigDecimal(1) : null;
                return total == null ? 0 : total.longValueExact();
            }
        }
    }
}
