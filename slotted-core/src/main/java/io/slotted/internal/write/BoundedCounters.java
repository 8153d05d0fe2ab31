package io.slotted.internal.write;

import io.slotted.LimitExceededException;
import io.slotted.Limits;
import io.slotted.OwnerColumn;
import io.slotted.QuotaExceededException;
import io.slotted.SlottedException;
import io.slotted.internal.bucket.BucketClock;
import io.slotted.internal.dialect.BucketRow;
import io.slotted.internal.dialect.Dialect;
import io.slotted.internal.dialect.SlotRow;
import io.slotted.internal.dialect.statements.AllowanceSpend;
import io.slotted.internal.jdbc.Database;
import io.slotted.internal.mutation.Mutation;
import io.slotted.internal.registry.TypeRegistry;
import io.slotted.internal.sql.BucketKey;
import io.slotted.internal.sql.CounterKey;
import io.slotted.internal.sql.SlotRange;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Decides which increments of counters with {@link Limits} are applied: each refused increment
 * counts nowhere, every other one is applied, exactly, across every process and write path.
 *
 * <p>The headroom, and who may spend it. A counter with one bound (a lower one, such as stock
 * that may not go below 0, or an upper one, such as a quota) keeps, beside its ordinary slot
 * rows, allowance rows: one per share of the slots whose group-commit flusher spent from it
 * lately, in slot {@code -1 - f} for share {@code f}, below every ordinary slot (flusher
 * {@code f} of each process owns share {@code f}, so the flushers of one index in several
 * processes share a row, as they share ordinary rows). An allowance row holds the part of the
 * headroom (the distance from the total to the bound) that its flushers may spend without asking
 * anyone: for a lower bound a count of 0 or more, for an
 * upper bound a count of 0 or less, which the flusher spends by moving it towards 0. The
 * allowances are rows of the counter like any other: the total is still the sum of all its rows,
 * so reads, roll-ups and recounts see no difference. What makes it exact is one invariant,
 * stated here for a lower bound {@code L} (an upper bound is its mirror): <em>the ordinary rows
 * sum to at least {@code L}, and every allowance row holds 0 or more.</em> The total, their sum,
 * is then at least {@code L}.
 *
 * <p>Far from the bound ({@link #spends}): a flush decrementing a counter spends from its own
 * allowance row with a conditional {@code UPDATE} that adds the flush's sum only if the row holds
 * at least what the flush's increments need, taken in their order; the database checks it on the
 * row, under the row's lock, so two writers of one row cannot both spend its last unit. The row
 * stays at 0 or more; the ordinary rows are not touched, and a restock in the same flush adds to
 * the allowance with the rest. A flush whose increments of a counter all move the total away from
 * the bound (a restock) cannot break it: they go to the ordinary rows as any increment does. No
 * lock of the counter is taken. Where the database has the one-statement flush, the spends and
 * the flusher's mark are one statement that commits by itself, and lands whole or changes
 * nothing ({@code SpendStatements.andMarkAlone}); a flush whose mark shows it landed is found so
 * after a lost COMMIT, as any marked flush is. Elsewhere the spends go in the flush's transaction.
 * If an allowance does not cover its spend, nothing is written, and the flush is decided under
 * the locks. A flusher spends only from an allowance row that its last decision of the counter
 * found, and left holding something; otherwise it goes to the lock at once: near the bound a try
 * would only fail. No allowance row is ever deleted (a {@code set} leaves it at 0, the sweep of
 * rows at 0 passes it by), so a row once found is there for every later spend, and the
 * statement that commits by itself can be one plain {@code UPDATE} of the rows it names. The mark
 * it names is there too unless its flusher was away long enough to be pruned as abandoned; such a
 * flusher spends in the ledger's transaction instead, whose claim puts the mark back
 * ({@code FlushLedger.markCertain}). The decision that found a row is remembered with the row's
 * slot, which changes when the flusher's share does (a connection that reached another node).

 * <p>Near the bound, or when an allowance ran out ({@link #decide}): the write takes the
 * counter's lock, its slot 0 row (an upsert that adds 0, so that the row exists to be locked even
 * for a counter never written), in the transaction that writes the counter, and holds it until
 * that transaction ends, so that the writes that take it are one after another. Holding it, the
 * write reads and locks every row of the counter, allowances included, waiting for any flush
 * still spending one, so the total it sums includes every write committed before and cannot
 * move towards the bound under it: write transactions read committed, so a row another flush
 * inserts meanwhile (a restock, in a slot the counter did not have) is not locked, but such a
 * row only moves the total away from the bound, which leaves every decision made within it. It
 * decides its increments one by one, in the order given, against that total: an increment that
 * keeps the total within the limits is applied and moves the total on, one that would take it
 * outside is refused. Then it moves headroom: if the other allowances together
 * exceed the headroom left after its increments, it takes them all back into slot 0 (so no
 * headroom is stranded in another flusher's row, and a refusal means that, at that moment, the
 * total left no room: no undersell); and it gives its own flusher's allowance an eighth of the
 * headroom no other allowance holds. The moves keep the total, and the invariant: the allowances
 * hold no more than the headroom, so the ordinary rows stay at or above the bound. What it
 * decides commits with its rows, or not at all. Two-sided limits have no allowances: every write
 * takes the lock.
 *
 * <p>A type that folds into an owner column has the column as part of each counter's total. A
 * decision reads and locks the counter's owner row after its slot rows, the order in which a
 * roll-up takes them, so no roll-up moves a sum from the slots to the column under it. The column
 * counts with the ordinary rows in the invariant (the column and the ordinary rows together stay
 * at or above the bound): a roll-up moves every row of the counter, allowances included, into the
 * column, which keeps the total and leaves every allowance at 0, where a flush finds it short
 * and decides under the lock. An owner column's own {@code CHECK} matching the limits therefore
 * holds too. Limits are recorded for a folding type only once every process counts the column
 * ({@code TypeRegistry.GRACE} after the binding), and only if every total, column and slots, is
 * within them; a type that already has limits is not bound in fold mode, since binding adds each
 * column's value to its total at once.
 *
 * <p>On a Galera cluster a row lock holds back only the writers of its own node; the nodes
 * order transactions by the rows each wrote, failing the later COMMIT of two that wrote the same
 * row, which is then retried as a deadlock is. So there a decision writes its counter's slot 0
 * row for real (adds 1, then takes it away), and of two decisions made at once on two nodes the
 * second fails and decides again against the first's outcome. A hot bounded counter near its
 * bound then costs retries, as many as nodes decide at once.
 *
 * <p>Limits per window ({@link Limits#per}) bound each window's count, not the total. A windowed
 * type keeps its counts per window in the time bucket table, one bucket per window, and has no
 * allowances: every decision of a window takes the window's lock, its slot 0 bucket row (an
 * upsert that adds 0, so that a window's first increments from several processes at once find a
 * row to queue on), reads and locks the window's rows, and decides the increments counted in that
 * window, by the window each was accepted in, against their sum. The flush then writes them to
 * the window's rows with the rest of its bucket rows. The total counts on across windows and is
 * bound by nothing. An increment that counts in no window (a recount's correction, which
 * restores what was lost rather than counting new traffic) is not decided against any.
 *
 * <p>Decisions take their locks in counter order; within one counter, slot 0 first, then the
 * rest, as a {@code set} takes them. A spend's statement takes its rows in the order the database
 * picks, so it may deadlock with a decision over several counters; the database then aborts one,
 * which is retried as any deadlock is. A flush whose COMMIT is cut off is
 * resolved through the flush ledger: if it landed, its callers get what that attempt decided; if
 * not, the next attempt decides again, under the lock, against the total as it is then.
 */
public final class BoundedCounters {
    /** The allowance slot of a write that has none of its own: one outside a flusher. */
    public static final int NO_ALLOWANCE = 0;
    /**
     * The most one allowance is given at once: 2^30, so that a grant stays within even a table
     * whose count column is a 32-bit {@code INT}.
     */
    private static final long MOST_GRANTED = 1L << 30;
    /** The share of the free headroom a flusher's allowance is given: one eighth. */
    private static final int GRANTED_PART = 8;

    /** Forgotten past this many, which only costs their next flushes the lock. */
    private static final int MOST_REMEMBERED = 10_000;

    /**
     * The windows of increments that count in none, whatever their type: a recount's
     * corrections, which restore what was lost rather than count new traffic.
     */
    public static final List<Long> IN_NO_WINDOW = List.of();

    private final Database database;
    private final TypeRegistry registry;
    private final BucketClock buckets;
    /**
     * Allowance rows that this flusher's last decision of their counter found, locked, and left
     * holding something: the only ones its flushes spend from. Keyed by slot too, since a
     * flusher's share, and with it its allowance slot, changes when its connection reaches
     * another node of a cluster. The row is known to be there, since no
     * allowance row is ever deleted (at 0 it stays), so a spend can be one plain {@code UPDATE}
     * of the rows it names; and a counter near or at its bound, whose allowance was left empty,
     * goes straight to the lock, where a try at spending would only fail.
     */
    private final Set<Allowance> spendable = ConcurrentHashMap.newKeySet();

    /**
     * Creates the decisions of a counter table.
     *
     * @param database the database and its counter table
     * @param registry where the limits are recorded, and this process's own
     * @param buckets the window of an increment accepted now
     */
    public BoundedCounters(Database database, TypeRegistry registry, BucketClock buckets) {
        this.database = database;
        this.registry = registry;
        this.buckets = buckets;
    }

    /**
     * The slot of a flusher's allowance rows.
     *
     * @param share the flusher's share of the slots, from 0
     * @return a slot below 0
     */
    public static int allowanceSlot(int share) {
        return -1 - share;
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
     * What a flush spends from the flusher's allowances to apply its increments of bounded
     * counters without their locks: for each bounded counter whose increments, in their order,
     * move its total towards its bound, their sum and the counts the allowance row must hold to
     * cover every prefix of them. Counters whose increments only move away from the bound spend
     * nothing: their ordinary rows take them, as any counter's do.
     *
     * @param keys each increment's counter
     * @param deltas each increment's amount, in the order they are decided
     * @param sums the sum to write per counter
     * @param allowanceSlot the flusher's allowance slot
     * @return the spends, in counter order; empty if some bounded counter must be decided under
     *     its lock instead: its limits have two bounds, or this flusher's last decision of it did
     *     not find its allowance row or left it empty
     */
    public Optional<List<AllowanceSpend>> spends(List<CounterKey> keys, List<Long> deltas, Map<CounterKey, Long> sums,
            int allowanceSlot) {
        List<AllowanceSpend> spends = new ArrayList<>();
        for (Map.Entry<CounterKey, List<Long>> counter : byCounter(keys, deltas::get).entrySet()) {
            CounterKey key = counter.getKey();
            Side side = Side.of(registry.limits(key.recordType()));
            if (side == null) {
                return Optional.empty();
            }
            long needed = side.needed(counter.getValue());
            if (needed > 0) {
                if (!spendable.contains(new Allowance(key, allowanceSlot))) {
                    return Optional.empty();
                }
                long amount = sums.getOrDefault(key, 0L);
                spends.add(side.lower ? new AllowanceSpend(key, allowanceSlot, amount, needed, Long.MAX_VALUE)
                        : new AllowanceSpend(key, allowanceSlot, amount, Long.MIN_VALUE, -needed));
            }
        }
        return Optional.of(spends);
    }

    /**
     * Spends from allowances, in the caller's transaction, one statement each.
     *
     * @param connection a connection in a transaction, which the caller commits or rolls back
     * @param spends what to spend, from {@link #spends}
     * @return true if every allowance covered its spend; false if the transaction has to be
     *     rolled back and the increments decided under the locks
     * @throws SQLException if a statement fails
     */
    public boolean spend(Connection connection, List<AllowanceSpend> spends) throws SQLException {
        try (PreparedStatement update = connection.prepareStatement(database.slotStatements().spendAllowance())) {
            for (AllowanceSpend spend : spends) {
                update.setLong(1, spend.amount());
                update.setInt(2, spend.key().recordType());
                update.setLong(3, spend.key().recordId());
                update.setInt(4, spend.slot());
                update.setLong(5, spend.low());
                update.setLong(6, spend.high());
                if (update.executeUpdate() == 0) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Decides under the counters' locks, in the caller's transaction, which increments to apply:
     * those to bounded counters, each counter under its lock, held until the transaction ends;
     * the others are always applied. Moves the counters' headroom as the class comment says.
     *
     * @param connection a connection in a transaction, which the caller commits with the rows
     * @param dialect its database's dialect
     * @param keys each increment's counter
     * @param deltas each increment's amount, in the order they are decided
     * @param windows each increment's time bucket, the start of its window for a windowed type;
     *     {@code BucketClock.NONE} for an increment accepted before this process learned that its
     *     type is windowed, which counts in the window of now, written here; or
     *     {@link #IN_NO_WINDOW} for increments that count in none
     * @param allowanceSlot the writer's allowance slot, given a part of the headroom; or
     *     {@link #NO_ALLOWANCE}
     * @return for each increment whether it is refused and why, and the window's count after
     *     each applied increment of a windowed type
     * @throws SQLException if a lock, a read or a move fails
     */
    public Decided decide(Connection connection, Dialect dialect, List<CounterKey> keys,
            List<Long> deltas, List<Long> windows, int allowanceSlot) throws SQLException {
        List<LimitExceededException> refusals = new ArrayList<>(Collections.nCopies(keys.size(), null));
        Map<Integer, Long> windowCounts = new HashMap<>();
        for (Map.Entry<CounterKey, List<Integer>> counter : byCounter(keys, i -> i).entrySet()) {
            CounterKey key = counter.getKey();
            Limits limits = registry.limits(key.recordType());
            if (limits.windowed()) {
                decideInWindows(connection, dialect, key, limits, counter.getValue(), deltas, windows, refusals,
                        windowCounts);
                continue;
            }
            Map<Integer, Long> rows = lockAndRead(connection, dialect, key);
            long total = lockColumn(connection, key);
            for (long count : rows.values()) {
                total = Math.addExact(total, count);
            }
            for (int i : counter.getValue()) {
                long delta = deltas.get(i);
                if (limits.allowAdding(total, delta)) {
                    total += delta;
                } else {
                    refusals.set(i, new LimitExceededException(key.toString(), delta, total, limits));
                }
            }
            Side side = Side.of(limits);
            if (side != null) {
                moveHeadroom(connection, dialect, key, side, rows, total, allowanceSlot);
            }
        }
        return new Decided(refusals, windowCounts);
    }

    /**
     * {@link #decide} for a write outside a flusher, which holds no allowance.
     *
     * @param connection a connection in a transaction, which the caller commits with the rows
     * @param dialect its database's dialect
     * @param keys each increment's counter
     * @param deltas each increment's amount, in the order they are decided
     * @param windows each increment's time bucket, as {@link #decide(Connection, Dialect, List,
     *     List, List, int)} takes them
     * @return what was decided, as {@link #decide(Connection, Dialect, List, List, List, int)} answers
     * @throws SQLException if a lock, a read or a move fails
     */
    public Decided decide(Connection connection, Dialect dialect, List<CounterKey> keys,
            List<Long> deltas, List<Long> windows) throws SQLException {
        return decide(connection, dialect, keys, deltas, windows, NO_ALLOWANCE);
    }

    /**
     * Decides a windowed counter's increments, window by window in time order, each window under
     * its lock against the window's count. An increment accepted before this process knew the
     * type's window counts in the window of now: the caller writes it in no bucket row, so its
     * decision adds it to the window's slot 0 row, whose lock it holds.
     */
    private void decideInWindows(Connection connection, Dialect dialect, CounterKey key, Limits limits,
            List<Integer> increments, List<Long> deltas, List<Long> windows,
            List<LimitExceededException> refusals, Map<Integer, Long> windowCounts) throws SQLException {
        if (windows.isEmpty()) {
            return; // IN_NO_WINDOW
        }
        Map<Long, List<Integer>> byWindow = new TreeMap<>();
        for (int i : increments) {
            long window = windows.get(i) != BucketClock.NONE ? windows.get(i) : buckets.startOf(key.recordType());
            byWindow.computeIfAbsent(window, w -> new ArrayList<>()).add(i);
        }
        for (Map.Entry<Long, List<Integer>> window : byWindow.entrySet()) {
            long count = lockWindow(connection, dialect, key, window.getKey());
            Instant start = Instant.ofEpochSecond(window.getKey());
            long unwritten = 0;
            for (int i : window.getValue()) {
                long delta = deltas.get(i);
                if (!limits.allowAdding(count, delta) && !Mutation.WINDOW_UNCHECKED.planted()) {
                    refusals.set(i, new QuotaExceededException(key.toString(), delta, count, limits, start,
                            limits.window().endOf(start)));
                    continue;
                }
                count += delta;
                windowCounts.put(i, count);
                if (windows.get(i) == BucketClock.NONE) {
                    unwritten += delta;
                }
            }
            if (unwritten != 0) {
                BucketRows.upsert(connection, dialect, database.buckets(), List.of(new BucketRow(
                        new BucketKey(key.recordType(), window.getKey(), key.recordId()), 0, unwritten)));
            }
        }
    }

    /**
     * Takes a window's lock, its slot 0 bucket row, then reads and locks all its rows: the
     * counter's count in the window.
     */
    private long lockWindow(Connection connection, Dialect dialect, CounterKey key, long windowStart)
            throws SQLException {
        BucketKey window = new BucketKey(key.recordType(), windowStart, key.recordId());
        BucketRows.upsert(connection, dialect, database.buckets(), List.of(new BucketRow(window, 0, 0)));
        if (dialect.locksOnlyLocally()) {
            // As for a counter's lock: written for real and back, so that a cluster certifies it.
            BucketRows.upsert(connection, dialect, database.buckets(), List.of(new BucketRow(window, 0, 1)));
            BucketRows.upsert(connection, dialect, database.buckets(), List.of(new BucketRow(window, 0, -1)));
        }
        long count = 0;
        for (CounterRows rows : BucketRows.lock(connection, database.bucketStatements(), key.recordType(),
                windowStart, List.of(key.recordId()))) {
            count = Math.addExact(count, rows.total());
        }
        return count;
    }

    /** The increments of bounded counters, by counter in counter order, each as {@code of(index)}. */
    private <T> Map<CounterKey, List<T>> byCounter(List<CounterKey> keys, Function<Integer, T> of) {
        Map<CounterKey, List<T>> byCounter = new TreeMap<>();
        for (int i = 0; i < keys.size(); i++) {
            if (bounded(keys.get(i).recordType())) {
                byCounter.computeIfAbsent(keys.get(i), k -> new ArrayList<>()).add(of.apply(i));
            }
        }
        return byCounter;
    }

    /** Takes the counter's lock, its slot 0 row, then reads and locks all its rows: slot to count. */
    private Map<Integer, Long> lockAndRead(Connection connection, Dialect dialect, CounterKey key) throws SQLException {
        SlotRows.upsertOne(connection, dialect, database.table(), new SlotRow(key, 0, 0), () -> { });
        if (dialect.locksOnlyLocally()) {
            // Adding 0 changes nothing, which a cluster does not certify: the row is written for
            // real, and back, so that of two decisions on two nodes at once, one fails at COMMIT.
            SlotRows.upsertOne(connection, dialect, database.table(), new SlotRow(key, 0, 1), () -> { });
            SlotRows.upsertOne(connection, dialect, database.table(), new SlotRow(key, 0, -1), () -> { });
        }
        Map<Integer, Long> rows = new TreeMap<>();
        try (PreparedStatement select = connection.prepareStatement(database.slotStatements().lockCounter())) {
            select.setInt(1, key.recordType());
            select.setLong(2, key.recordId());
            try (ResultSet row = select.executeQuery()) {
                while (row.next()) {
                    rows.put(row.getInt(1), row.getLong(2));
                }
            }
        }
        return rows;
    }

    /**
     * For a counter whose type folds into an owner column, part of its total: reads and locks its
     * owner row, after its slot rows, as a roll-up takes them, so that no roll-up moves a sum from
     * the slots to the column under the decision. 0 for other types, and for a counter with no
     * owner row or a column that holds null.
     */
    private long lockColumn(Connection connection, CounterKey key) throws SQLException {
        Optional<OwnerColumn> owner = registry.foldsInto(connection, key.recordType());
        if (owner.isEmpty()) {
            return 0;
        }
        try (PreparedStatement lock = connection.prepareStatement(database.ownerStatements(owner.get()).lockSql(1))) {
            lock.setLong(1, key.recordId());
            try (ResultSet row = lock.executeQuery()) {
                return row.next() ? row.getLong(2) : 0;
            }
        }
    }

    /**
     * Moves headroom between slot 0 and the allowance rows, keeping the total: takes every other
     * allowance back if together they exceed the headroom left (or one holds the wrong sign), and
     * gives the writer's own allowance, if it has one, a part of what no other allowance holds.
     */
    private void moveHeadroom(Connection connection, Dialect dialect, CounterKey key, Side side,
            Map<Integer, Long> rows, long total, int allowanceSlot) throws SQLException {
        long headroom = side.headroom(total);
        long others = 0;
        boolean takeBack = false;
        for (Map.Entry<Integer, Long> row : rows.entrySet()) {
            if (SlotRange.allowance(row.getKey()) && row.getKey() != allowanceSlot) {
                long held = side.held(row.getValue());
                takeBack |= held < 0;
                others = saturatedAdd(others, Math.max(held, 0));
            }
        }
        takeBack |= others > headroom;
        long free = Math.max(0, takeBack ? headroom : headroom - others); // below 0 if already outside
        long granted = allowanceSlot == NO_ALLOWANCE ? 0 : Math.min(free / GRANTED_PART, MOST_GRANTED);
        List<SlotRow> moves = new ArrayList<>();
        long toSlotZero = 0;
        for (Map.Entry<Integer, Long> row : rows.entrySet()) {
            int slot = row.getKey();
            if (SlotRange.allowance(slot) && slot != allowanceSlot && takeBack && row.getValue() != 0) {
                moves.add(new SlotRow(key, slot, -row.getValue()));
                toSlotZero += row.getValue();
            }
        }
        if (allowanceSlot != NO_ALLOWANCE) {
            remember(new Allowance(key, allowanceSlot), rows.containsKey(allowanceSlot) && granted > 0);
            long own = rows.getOrDefault(allowanceSlot, 0L);
            long wanted = side.lower ? granted : -granted;
            if (wanted != own) {
                moves.add(new SlotRow(key, allowanceSlot, wanted - own));
                toSlotZero += own - wanted;
            }
        }
        if (toSlotZero != 0) {
            moves.add(new SlotRow(key, 0, toSlotZero));
        }
        moves.sort(Comparator.comparingInt(SlotRow::slot));
        for (SlotRow move : moves) {
            SlotRows.upsertOne(connection, dialect, database.table(), move, () -> { });
        }
    }

    /**
     * Remembers whether the flusher may spend from a counter's allowance. A row the decision did
     * not find, which it may just have given its first grant, is spendable from the next decision
     * on, which finds it committed.
     */
    private void remember(Allowance allowance, boolean spendableNow) {
        if (!spendableNow) {
            spendable.remove(allowance);
            return;
        }
        if (spendable.size() >= MOST_REMEMBERED) {
            spendable.clear();
        }
        spendable.add(allowance);
    }

    /** One allowance row: a counter's row in a flusher share's allowance slot. */
    private record Allowance(CounterKey key, int slot) {
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
    }

    /**
     * The one bound of limits that have one: which way the allowances hold headroom.
     *
     * @param lower true for a lower bound, whose allowances hold counts of 0 or more
     * @param bound the bound
     */
    private record Side(boolean lower, long bound) {
        /** The side of limits with exactly one bound; null for limits with two, or none, or per window. */
        static Side of(Limits limits) {
            if (limits.windowed()) {
                return null; // a window is decided under its lock, every time
            }
            boolean lower = limits.min() != Long.MIN_VALUE;
            boolean upper = limits.max() != Long.MAX_VALUE;
            if (lower == upper) {
                return null;
            }
            return lower ? new Side(true, limits.min()) : new Side(false, limits.max());
        }

        /** How far a total is from the bound, 0 or more for a total within it. */
        long headroom(long total) {
            long distance = lower ? total - bound : bound - total;
            boolean overflowed = lower ? (total >= 0 && bound < 0 && distance < 0)
                    : (bound >= 0 && total < 0 && distance < 0);
            return overflowed ? Long.MAX_VALUE : distance;
        }

        /** How much headroom an allowance row's count holds; below 0 if it holds the wrong sign. */
        long held(long count) {
            return lower ? count : -count;
        }

        /**
         * What an allowance must hold to take some increments, in their order, without any prefix
         * of them passing the bound: 0 if none moves the total towards the bound beyond where an
         * earlier one moved it away.
         */
        long needed(List<Long> deltas) {
            long running = 0;
            long needed = 0;
            for (long delta : deltas) {
                running += delta;
                needed = Math.max(needed, lower ? -running : running);
            }
            return needed;
        }
    }
}
