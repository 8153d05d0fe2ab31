package io.slotted.internal.rollup;

import io.slotted.internal.jdbc.Database;
import io.slotted.internal.jdbc.Retrier;
import io.slotted.internal.jdbc.Transactions;
import io.slotted.internal.write.CounterRows;
import io.slotted.internal.write.SlotRows;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Deletes the slot rows that fold-mode roll-ups left at 0 once their counters have gone cold.
 *
 * <p>A roll-up leaves the rows it folds at 0 rather than deleting them, so that a counter's next
 * increment updates its row instead of inserting it again. Rows nobody increments any more would
 * then stay forever, and every roll-up's listing reads past them. So every {@link #EVERY}, after a
 * roll-up of the type, the sweep lists the counters whose rows all hold 0 and keeps those this
 * process's roll-ups have not visited since its last listing (see {@link WarmCounters}): counters
 * at 0 for at least that long. It deletes their rows over the next roll-ups, at most
 * {@value #PER_PASS} counters after each, so that a sweep never holds up a roll-up by more than a
 * couple of its chunks and the lag stays bounded; a counter visited again in the meantime is left
 * alone. A release sweeps every counter at 0, cold or not, at once.
 *
 * <p>The sweep takes the roll-up's locking discipline: a chunk of {@value RollUpPass#CHUNK}
 * counters per transaction, at read committed, their rows read and locked
 * ({@code SELECT … FOR UPDATE}, in key order like every writer), and only a counter whose locked
 * rows all hold 0 has them deleted, each by its whole key and only if it still holds 0. An increment
 * that committed before the lock is seen and keeps the counter's rows; one that waits for the lock
 * finds the row gone and inserts it anew; one that creates a row the sweep never read is not
 * touched. None is lost.
 */
final class ZeroRowSweep {
    /** How long a counter stays at 0, unvisited, before its rows are deleted. */
    static final Duration EVERY = Duration.ofMinutes(1);
    /** Counters swept after one roll-up: two chunks. */
    static final int PER_PASS = 2 * RollUpPass.CHUNK;

    private final Database database;
    private final Retrier retrier;
    private final Clock clock;
    private final Map<Integer, WarmCounters> warm = new ConcurrentHashMap<>();
    /** Each type's cold counters still to sweep, ascending. */
    private final Map<Integer, List<Long>> pending = new ConcurrentHashMap<>();

    ZeroRowSweep(Database database, Retrier retrier, Clock clock) {
        this.database = database;
        this.retrier = retrier;
        this.clock = clock;
    }

    /**
     * What the type's roll-ups visit is recorded here until the sweep's next listing.
     *
     * @param recordType the type
     * @return the type's warm counters, starting now if it has none yet
     */
    WarmCounters warm(int recordType) {
        return warm.computeIfAbsent(recordType, type -> new WarmCounters(clock.millis()));
    }

    /**
     * Lists the type's cold counters at 0 if that is due, and deletes the rows of the next of them.
     *
     * @param recordType a fold-mode type, under its roller's lock
     * @return how many rows were deleted
     */
    long sweepSome(int recordType) {
        long now = clock.millis();
        WarmCounters counters = warm(recordType);
        if (counters.due(now, EVERY.toMillis())) {
            pending.put(recordType, counters.cold(zeroIds(recordType)));
            counters.restart(now);
        }
        List<Long> queue = pending.getOrDefault(recordType, List.of());
        if (queue.isEmpty()) {
            return 0;
        }
        int taken = Math.min(PER_PASS, queue.size());
        pending.put(recordType, List.copyOf(queue.subList(taken, queue.size())));
        return delete(recordType, counters.cold(queue.subList(0, taken)));
    }

    /**
     * Deletes the rows of every counter of the type at 0, for a release.
     *
     * @param recordType the type, under its roller's lock
     * @return how many rows were deleted
     */
    long sweepAll(int recordType) {
        warm.remove(recordType);
        pending.remove(recordType);
        return delete(recordType, zeroIds(recordType));
    }

    private List<Long> zeroIds(int recordType) {
        return retrier.read("list the counters of record_type " + recordType + " at 0",
                (connection, dialect) -> SlotRows.zeroIds(connection, database.slotStatements(), recordType));
    }

    private long delete(int recordType, List<Long> ids) {
        long deleted = 0;
        for (int from = 0; from < ids.size(); from += RollUpPass.CHUNK) {
            List<Long> chunk = ids.subList(from, Math.min(ids.size(), from + RollUpPass.CHUNK));
            deleted += retrier.write("delete the rows at 0 of " + chunk.size() + " counters of record_type "
                    + recordType, (connection, dialect) -> Transactions.inTransaction(connection, () -> {
                        List<CounterRows> stillZero = SlotRows.lock(connection, database.slotStatements(),
                                recordType, chunk, SlotRows.EVERY_SLOT).values().stream().filter(CounterRows::allZero).toList();
                        long rows = SlotRows.deleteZeros(connection, database.slotStatements(), recordType,
                                stillZero);
                        connection.commit();
                        return rows;
                    }));
        }
        return deleted;
    }
}
