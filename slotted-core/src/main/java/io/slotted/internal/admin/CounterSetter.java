package io.slotted.internal.admin;

import io.slotted.CounterOverflowException;
import io.slotted.LimitExceededException;
import io.slotted.Limits;
import io.slotted.internal.dialect.SlotRow;
import io.slotted.internal.expiry.ExpiringCounters;
import io.slotted.internal.jdbc.Database;
import io.slotted.internal.jdbc.Retrier;
import io.slotted.internal.jdbc.Transactions;
import io.slotted.internal.mutation.Mutation;
import io.slotted.internal.owner.OwnerShape;
import io.slotted.internal.dialect.statements.OwnerStatements;
import io.slotted.internal.registry.Registration;
import io.slotted.internal.registry.TypeRegistry;
import io.slotted.internal.sql.CounterKey;
import io.slotted.internal.write.CounterRows;
import io.slotted.internal.write.SlotRows;
import io.slotted.internal.write.StatsRecorder;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * Sets a counter exactly.
 *
 * <p>One transaction takes the counter's lock (an upsert of nothing into its slot-0 row, so that
 * sets of one counter run one after another), locks the counter's slot rows (and, for a fold-mode
 * type, its owner row), deletes exactly the rows it locked and writes the new total: into the
 * owner column for a fold-mode type with an owner row, else into slot 0, and on into slots 1, 2 …
 * when it is more than one slot row holds. An increment committed before the set started is in a
 * locked row and so replaced; one that waited for the locks, or created a slot row the set never
 * read, commits after it and counts on top. That makes the set linearizable with the increments
 * around it.
 */
public final class CounterSetter {
    private final Database database;
    private final Retrier retrier;
    private final TypeRegistry registry;
    private final StatsRecorder stats;
    private final ExpiringCounters expiring;

    /**
     * Creates the setter.
     *
     * @param database the database
     * @param retrier how failures are retried and reported
     * @param registry which types fold into an owner column
     * @param stats where retries are counted
     * @param expiring which types expire, and their lock
     */
    public CounterSetter(Database database, Retrier retrier, TypeRegistry registry, StatsRecorder stats,
            ExpiringCounters expiring) {
        this.expiring = expiring;
        this.database = database;
        this.retrier = retrier;
        this.registry = registry;
        this.stats = stats;
    }

    /**
     * Sets a counter.
     *
     * @param key the counter
     * @param count the new total
     */
    public void set(CounterKey key, long count) {
        set(key, count, null);
    }

    /**
     * Sets a counter and, for an expiring type, its expiry: a set takes a counter's expiry away,
     * as Redis's {@code SET} does, unless it gives one.
     *
     * @param key the counter
     * @param count the new total
     * @param expiresMs when it expires (epoch milliseconds), or null for never
     */
    public void set(CounterKey key, long count, Long expiresMs) {
        if (expiresMs != null && !expiring.expiring(key.recordType())) {
            throw new IllegalArgumentException("record_type " + key.recordType() + " does not expire: give the"
                    + " counters expiring(" + key.recordType() + ") to set counters of it with an expiry");
        }
        retrier.write("set counter " + key + " to " + count, (connection, dialect) -> {
            registry.refreshForWriting(connection);
            Limits limits = registry.limits(key.recordType());
            if (limits.windowed() || !limits.allow(count)) {
                throw LimitExceededException.ofSet(key.toString(), count, limits);
            }
            Optional<Registration> folds = registry.registration(connection, key.recordType())
                    .filter(Registration::folds);
            expiring.agree(connection, List.of(key));
            return Transactions.inTransaction(connection, () -> {
                // An expiring counter's expiry row first, as every writer of it takes it.
                expiring.lockAndClear(connection, dialect, List.of(key));
                // The counter's lock first (its slot-0 row, as every limit decision takes it): a
                // set that waited for another would otherwise lock only the rows it saw when it
                // began, which the other deleted, and add its total to the rows the other wrote.
                if (!Mutation.SET_WITHOUT_COUNTER_LOCK.planted() || limits.bounded()) {
                    SlotRows.upsertOne(connection, dialect, database.table(), new SlotRow(key, 0, 0), stats::retried);
                }
                List<CounterRows> locked = List.copyOf(SlotRows.lock(connection, database.slotStatements(),
                        key.recordType(), List.of(key.recordId()), SlotRows.EVERY_SLOT).values());
                // Increments pending for a bucket stay in their rows, which the bucket still counts
                // (PendingSlots): the other rows are set to what the total needs beside them.
                long settled = Math.subtractExact(count, locked.isEmpty() ? 0 : locked.get(0).pendingTotal());
                boolean inColumn = folds.isPresent()
                        && setOwnerColumn(connection, folds.get(), key, settled);
                List<SlotRow> rows = inColumn || settled == 0 ? List.of()
                        : SlotRows.spread(key, settled, registry.slots(key.recordType()));
                SlotRows.delete(connection, database.slotStatements(), key.recordType(), locked);
                for (SlotRow row : rows) {
                    SlotRows.upsertOne(connection, dialect, database.table(), row, stats::retried);
                }
                if (expiring.expiring(key.recordType())) {
                    expiring.setExpiry(connection, dialect, key, expiresMs);
                }
                connection.commit();
                return null;
            });
        });
    }

    /** Locks the owner row and sets its column; false if the counter has no owner row. */
    private boolean setOwnerColumn(Connection connection, Registration binding, CounterKey key,
            long count) throws SQLException {
        OwnerStatements owner = database.ownerStatements(binding.owner());
        try (PreparedStatement lock = connection.prepareStatement(owner.lockSql(1))) {
            lock.setLong(1, key.recordId());
            try (ResultSet row = lock.executeQuery()) {
                if (!row.next()) {
                    return false;
                }
            }
        }
        var range = OwnerShape.check(connection, database.dialectOf(connection), binding.owner()).folded();
        if (!range.holds(count)) {
            throw new CounterOverflowException("cannot set counter " + key + " to " + count + ": its"
                    + " owner column " + binding.owner() + " is " + range.describe()
                    + "; nothing was changed");
        }
        try (PreparedStatement update = connection.prepareStatement(owner.setSql())) {
            update.setLong(1, count);
            update.setLong(2, key.recordId());
            update.executeUpdate();
        }
        return true;
    }
}
