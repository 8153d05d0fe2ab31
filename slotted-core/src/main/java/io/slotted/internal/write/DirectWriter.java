package io.slotted.internal.write;

import io.slotted.CounterOverflowException;
import io.slotted.Increment;
import io.slotted.LimitExceededException;
import io.slotted.SlottedException;
import io.slotted.TotalUnavailableException;
import io.slotted.internal.bucket.BucketClock;
import io.slotted.internal.dialect.Dialect;
import io.slotted.internal.dialect.SlotRow;
import io.slotted.internal.expiry.ExpiringCounters;
import io.slotted.internal.jdbc.Database;
import io.slotted.internal.jdbc.FailureReport;
import io.slotted.internal.jdbc.Retrier;
import io.slotted.internal.jdbc.Transactions;
import io.slotted.internal.keys.IdempotencyKeys;
import io.slotted.internal.read.CounterReader;
import io.slotted.internal.registry.TypeRegistry;
import io.slotted.internal.sql.CounterKey;
import io.slotted.internal.sql.SlotRange;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

/**
 * {@code DIRECT} mode: one upsert per increment into a random slot, committed on its own.
 *
 * <p>This is the Slotted Counter Pattern as first described, done safely: the slot is chosen in
 * Java, the statement binds every value, and lock conflicts are retried. Its throughput is bounded
 * by one commit per increment, which is why {@code GROUPED} exists. Batches and keyed increments,
 * in every write mode, are written here too, each in one transaction of its own.
 */
public final class DirectWriter implements CounterWriter {
    private final Database database;
    private final SlotPicker slots;
    private final TransactionSlots transactionSlots;
    private final Retrier retrier;
    private final StatsRecorder stats;
    private final IdempotencyKeys keys;
    private final TypeRegistry registry;
    private final CounterReader reader;
    private final BucketClock buckets;
    private final BoundedCounters bounded;
    private final ExpiringCounters expiring;

    /**
     * Creates the writer.
     *
     * @param database where to write
     * @param slots how slots are chosen
     * @param retrier how contention is retried
     * @param keys where idempotency keys are recorded
     * @param registry the type registry, re-read now and then on the writes' own connections
     * @param reader how totals a write could not learn are read
     * @param stats where applied increments are counted
     * @param buckets which time bucket an increment accepted now counts in
     * @param expiring which types expire, whose writes take the counter's expiry lock
     */
    public DirectWriter(Database database, SlotPicker slots, Retrier retrier, IdempotencyKeys keys,
            TypeRegistry registry, CounterReader reader, StatsRecorder stats, BucketClock buckets,
            ExpiringCounters expiring) {
        this.expiring = expiring;
        this.reader = reader;
        this.registry = registry;
        this.bounded = new BoundedCounters(database, registry, buckets);
        this.buckets = buckets;
        this.database = database;
        this.slots = slots;
        this.transactionSlots = new TransactionSlots(slots);
        this.retrier = retrier;
        this.keys = keys;
        this.stats = stats;
    }

    /**
     * One upsert in auto-commit; for a type that keeps time buckets, a transaction that also
     * upserts the bucket row.
     */
    @Override
    public void add(CounterKey key, long delta) {
        long bucketStart = buckets.startOf(key.recordType());
        if (bucketStart != BucketClock.NONE || bounded.bounded(key.recordType()) || expiring.expiring(key.recordType())) {
            writeTransaction(deltas(key, bucketStart, delta), single(key, delta), List.of(bucketStart), null, null,
                    describe(key, delta), Set.of());
            return;
        }
        boolean written = retrier.write(describe(key, delta), (connection, dialect) -> {
            registry.refreshForWriting(connection);
            if (bounded.bounded(key.recordType()) || expiring.expiring(key.recordType())) {
                return false; // limits, or expiries, another process recorded, learned just now
            }
            upsertAndCommit(connection, dialect, row(key, delta));
            return true;
        });
        if (!written) {
            writeTransaction(deltas(key, bucketStart, delta), single(key, delta), List.of(bucketStart), null, null,
                    describe(key, delta), Set.of());
            return;
        }
        stats.applied(1);
    }

    /** Runs synchronously: a direct write is one statement and needs no queue. */
    @Override
    public CompletableFuture<Void> addAsync(CounterKey key, long delta) {
        try {
            add(key, delta);
            return CompletableFuture.completedFuture(null);
        } catch (SlottedException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * One upsert in auto-commit that answers the counter's total where the database can do both
     * in one statement, else followed by a query of the total on the same connection. A type
     * that keeps time buckets is written in a transaction, and a type folding into an owner
     * column has its total read after, as reads do: one more round trip for either.
     */
    @Override
    public long addAndGet(CounterKey key, long delta) {
        if (bounded.bounded(key.recordType()) || expiring.expiring(key.recordType())) {
            return boundedAddAndGet(key, delta);
        }
        if (buckets.startOf(key.recordType()) != BucketClock.NONE) {
            add(key, delta);
            return totalAfterApplying(key);
        }
        Upserted upserted = retrier.write(describe(key, delta), (connection, dialect) -> {
            registry.refreshForWriting(connection);
            if (bounded.bounded(key.recordType()) || expiring.expiring(key.recordType())) {
                return Upserted.LIMITS_LEARNED; // limits, or expiries, another process recorded, learned just now
            }
            SlotRow row = row(key, delta);
            Optional<String> answering = registry.folds(key.recordType()) ? Optional.empty()
                    : dialect.upsertAnsweringTotalSql(database.table(), row);
            if (answering.isPresent() && connection.getAutoCommit()) {
                try (Statement statement = connection.createStatement()) {
                    return new Upserted(WrittenTotals.execute(statement, answering.get()).get(key));
                }
            }
            upsertAndCommit(connection, dialect, row);
            return new Upserted(registry.folds(key.recordType()) ? null : totalAfterLanding(connection, dialect, key));
        });
        if (upserted == Upserted.LIMITS_LEARNED) {
            return boundedAddAndGet(key, delta);
        }
        stats.applied(1);
        return upserted.total() != null ? upserted.total() : totalAfterApplying(key);
    }

    /**
     * What an {@link #addAndGet} upsert learned: the total, or null to read it after; or that it
     * wrote nothing, because the type turned out to have limits.
     */
    private record Upserted(Long total) {
        static final Upserted LIMITS_LEARNED = new Upserted(null);
    }

    /**
     * {@link #addAndGet} of a counter with limits: a transaction that decides it and learns the
     * total before COMMIT; or, for limits per window, answers the window's count right after it.
     */
    private long boundedAddAndGet(CounterKey key, long delta) {
        return boundedAddAndGet(key, delta, buckets.startOf(key.recordType()));
    }

    @Override
    public long refund(CounterKey key, long delta, long windowStart) {
        return boundedAddAndGet(key, delta, windowStart);
    }

    private long boundedAddAndGet(CounterKey key, long delta, long bucketStart) {
        Written written = writeTransaction(deltas(key, bucketStart, delta), single(key, delta), List.of(bucketStart),
                null, null, describe(key, delta), Set.of(key));
        if (written.windowCounts().containsKey(0)) {
            return written.windowCounts().get(0);
        }
        Long total = written.totals().get(key);
        return total != null ? total : totalAfterApplying(key);
    }

    /** Totals read after a batch landed; a failure to read them says the batch stands. */
    private Map<CounterKey, Long> totalsAfterApplying(Set<CounterKey> keys, String operation) {
        try {
            return reader.totals(keys);
        } catch (SlottedException e) {
            throw new TotalUnavailableException(operation + " was applied, but the totals could not"
                    + " be read after it: " + e.getMessage() + "; do not apply it again, read the counters", e);
        }
    }

    /** A total read after the increment landed; a failure to read it says the increment stands. */
    private long totalAfterApplying(CounterKey key) {
        try {
            return reader.get(key);
        } catch (SlottedException e) {
            throw new TotalUnavailableException("the increment of counter " + key + " was applied, but"
                    + " its total could not be read after it: " + e.getMessage() + "; do not apply it"
                    + " again, read the counter", e);
        }
    }

    /** The total after a landed upsert; null, to be read again, if the query fails. */
    private Long totalAfterLanding(Connection connection, Dialect dialect, CounterKey key) {
        try {
            return WrittenTotals.query(connection, dialect, database.table(), List.of(key)).get(key);
        } catch (SQLException e) {
            return null;
        }
    }

    /** Runs synchronously, as {@link #addAsync} does. */
    @Override
    public CompletableFuture<Long> addAndGetAsync(CounterKey key, long delta) {
        try {
            return CompletableFuture.completedFuture(addAndGet(key, delta));
        } catch (SlottedException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * Records the key and applies the increment in one transaction, so that either both land or
     * neither does. A replay or a conflict writes nothing. If the commit's outcome is unknown, the
     * caller retries with the same key and cannot count twice.
     */
    @Override
    public boolean add(CounterKey key, long delta, String idempotencyKey) {
        long bucketStart = buckets.startOf(key.recordType());
        return writeTransaction(deltas(key, bucketStart, delta), single(key, delta), List.of(bucketStart),
                idempotencyKey,
                IdempotencyKeys.fingerprint(key, delta),
                describe(key, delta) + " with idempotency key '" + idempotencyKey + "'", Set.of()).applied();
    }

    /** Runs synchronously, as {@link #addAsync(CounterKey, long)} does. */
    @Override
    public CompletableFuture<Boolean> addAsync(CounterKey key, long delta, String idempotencyKey) {
        try {
            return CompletableFuture.completedFuture(add(key, delta, idempotencyKey));
        } catch (SlottedException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * Writes a batch in one transaction: summed per counter, rows in counter order so that
     * concurrent batches cannot deadlock, with its idempotency key if it has one.
     *
     * @param increments the batch
     * @param idempotencyKey the batch's key, or null
     * @return true if applied; false if the key showed a replay
     * @throws CounterOverflowException if a counter's sum within the batch is more than one slot
     *     row may take ({@link SlotRange#MAX_DELTA} either way)
     */
    public boolean addAll(List<Increment> increments, String idempotencyKey) {
        String fingerprint = idempotencyKey == null ? null : IdempotencyKeys.fingerprint(increments);
        List<Long> starts = bucketStarts(increments);
        return writeTransaction(batchDeltas(increments, starts), increments, starts, idempotencyKey, fingerprint,
                describeBatch(increments), Set.of()).applied();
    }

    /**
     * Writes a batch in one transaction, as {@link #addAll} does, and answers each increment's
     * total as if the batch had run alone, one increment after another: the totals of its
     * counters are queried in the transaction, before COMMIT, where they include the batch and
     * everything committed before it; an increment's total is then its counter's total less what
     * the batch adds to that counter after it. A counter folding into an owner column has its
     * total read after the commit, as reads do.
     *
     * @param increments the batch
     * @return the total of each increment's counter right after it, in the batch's order
     * @throws CounterOverflowException as {@link #addAll} does
     * @throws TotalUnavailableException if the batch was applied but a total could not be read
     */
    public List<Long> addAllAndGet(List<Increment> increments) {
        Set<CounterKey> counters = new HashSet<>();
        increments.forEach(increment -> counters.add(new CounterKey(increment.recordType(), increment.recordId())));
        List<Long> starts = bucketStarts(increments);
        Written written = writeTransaction(batchDeltas(increments, starts), increments, starts, null, null,
                describeBatch(increments), counters);
        Map<CounterKey, Long> totals = new HashMap<>(written.totals());
        if (totals.size() < counters.size()) {
            Set<CounterKey> unread = new HashSet<>(counters);
            unread.removeAll(totals.keySet());
            totals.putAll(totalsAfterApplying(unread, describeBatch(increments)));
        }
        List<Long> answers = new ArrayList<>(eachAfterItsIncrement(increments, totals));
        written.windowCounts().forEach(answers::set); // a windowed type's answer is its window's count
        return List.copyOf(answers);
    }

    /** Each increment's total, walking back from the batch's end: a counter's total less what follows. */
    private static List<Long> eachAfterItsIncrement(List<Increment> increments, Map<CounterKey, Long> totals) {
        Long[] answers = new Long[increments.size()];
        for (int i = increments.size() - 1; i >= 0; i--) {
            Increment increment = increments.get(i);
            CounterKey key = new CounterKey(increment.recordType(), increment.recordId());
            long total = totals.get(key);
            answers[i] = total;
            totals.put(key, total - increment.delta());
        }
        return List.of(answers);
    }

    /** Each increment's time bucket, by when the batch was accepted. */
    private List<Long> bucketStarts(List<Increment> increments) {
        return increments.stream().map(increment -> buckets.startOf(increment.recordType())).toList();
    }

    private Deltas batchDeltas(List<Increment> increments, List<Long> starts) {
        Deltas deltas = new Deltas();
        for (int i = 0; i < increments.size(); i++) {
            Increment increment = increments.get(i);
            CounterKey key = new CounterKey(increment.recordType(), increment.recordId());
            if (!deltas.tryAdd(key, starts.get(i), increment.delta())) {
                throw new CounterOverflowException("the batch's increments to counter " + key
                        + " add up to more than one slot row may take at once (" + SlotRange.MAX_DELTA
                        + " either way); nothing was applied: split the batch");
            }
        }
        return deltas;
    }

    private static String describeBatch(List<Increment> increments) {
        return "add a batch of " + increments.size() + " increments";
    }

    /**
     * Writes corrections of counters' totals in one transaction, counted in no time bucket: a
     * repair restores what was lost, it is not new traffic in the bucket of the moment.
     *
     * @param corrections the amounts to add, at most one per counter
     * @throws CounterOverflowException if a correction is more than one slot row may take;
     *     nothing is applied
     */
    public void correct(List<Increment> corrections) {
        Deltas deltas = new Deltas();
        for (Increment correction : corrections) {
            CounterKey key = new CounterKey(correction.recordType(), correction.recordId());
            if (!deltas.tryAdd(key, BucketClock.NONE, correction.delta())) {
                throw new CounterOverflowException("cannot correct counter " + key + " by "
                        + correction.delta() + ": one slot row takes at most " + SlotRange.MAX_DELTA
                        + " either way; nothing was applied");
            }
        }
        writeTransaction(deltas, corrections, BoundedCounters.IN_NO_WINDOW, null, null,
                "correct " + corrections.size() + " counters", Set.of());
    }

    /**
     * Writes deltas in one read-committed transaction, with an idempotency key if there is one,
     * and queries the totals of the counters in {@code learn} before COMMIT, but for those whose type folds into an
     * owner column, as the registry says once re-read for this transaction: their totals hold the
     * column too, and are read after. (Decided before the registry was read, a new process's first
     * batch took a folded counter's slots for its total, without the column.) The increments of bounded counters
     * are decided under their counters' locks ({@link BoundedCounters}): if the limits refuse any
     * of them, nothing is written and the first refusal is thrown, so a batch is applied all or
     * nothing.
     */
    private Written writeTransaction(Deltas deltas, List<Increment> increments, List<Long> windows,
            String idempotencyKey, String fingerprint, String operation, Set<CounterKey> learn) {
        List<CounterKey> counters = increments.stream().map(i -> new CounterKey(i.recordType(), i.recordId())).toList();
        Written written = retrier.write(operation, (connection, dialect) -> {
            registry.refreshForWriting(connection);
            bounded.agree(connection, counters);
            expiring.agree(connection, counters);
            boolean autoCommit = connection.getAutoCommit();
            Transactions.Isolation isolation = Transactions.readCommitted(connection, dialect);
            connection.setAutoCommit(false);
            SQLException failure = null;
            try {
                IdempotencyKeys.Verdict found = IdempotencyKeys.Verdict.APPLIED;
                if (idempotencyKey != null) {
                    keys.pruneIfDue(connection, dialect);
                    found = keys.record(connection, dialect, idempotencyKey, fingerprint, "direct");
                }
                Map<CounterKey, Long> totals = Map.of();
                Map<Integer, Long> windowCounts = Map.of();
                if (found.outcome() == IdempotencyKeys.Outcome.APPLIED) {
                    expiring.lockAndClear(connection, dialect, counters);
                }
                if (found.outcome() == IdempotencyKeys.Outcome.APPLIED && bounded.anyBounded(counters)) {
                    Decided decided = bounded.decide(connection, dialect, counters,
                            increments.stream().map(Increment::delta).toList(), windows);
                    if (decided.firstRefusal().isPresent()) {
                        connection.rollback();
                        return new Written(found, totals, Map.of(), decided.firstRefusal().get());
                    }
                    windowCounts = decided.windowCounts();
                }
                if (found.outcome() == IdempotencyKeys.Outcome.APPLIED) {
                    SlotRows.upsert(connection, dialect, database.table(), deltas.counterRows(this::slotFor));
                    BucketRows.upsert(connection, dialect, database.buckets(), deltas.bucketRows(this::slotFor));
                    Set<CounterKey> inTheSlots = learn.stream().filter(key -> !registry.folds(key.recordType()))
                            .collect(Collectors.toSet());
                    if (!inTheSlots.isEmpty()) {
                        totals = WrittenTotals.query(connection, dialect, database.table(), inTheSlots);
                    }
                }
                connection.commit();
                return new Written(found, totals, windowCounts, null);
            } catch (SQLException e) {
                failure = e;
                Transactions.rollbackQuietly(connection, e);
                throw e;
            } finally {
                Transactions.restoreAutoCommit(connection, autoCommit, failure);
                isolation.restore(connection, failure);
            }
        });
        if (written.verdict().outcome() == IdempotencyKeys.Outcome.CONFLICT) {
            throw written.verdict().conflict();
        }
        if (written.refused() != null) {
            throw written.refused();
        }
        stats.applied(written.applied() ? increments.size() : 0);
        return written;
    }

    /**
     * What a transaction's key found, the totals it learned before COMMIT, the window's count
     * after each increment of a windowed type (by position), and what the limits refused, if they
     * refused anything (when nothing was written).
     */
    private record Written(IdempotencyKeys.Verdict verdict, Map<CounterKey, Long> totals,
            Map<Integer, Long> windowCounts, LimitExceededException refused) {
        boolean applied() {
            return verdict.outcome() == IdempotencyKeys.Outcome.APPLIED;
        }
    }

    @Override
    public void close() {
        // Nothing is held between calls.
    }

    /**
     * Writes one increment on the caller's connection inside the caller's transaction, without
     * committing and without retrying contention (a deadlock has already aborted the caller's
     * transaction, which the caller must retry as a whole). A counter incremented before on the
     * same connection goes to the same slot ({@link TransactionSlots}), whose lock the transaction
     * already holds.
     *
     * @param connection the caller's connection
     * @param key the counter
     * @param delta the amount
     */
    public void addInTransaction(Connection connection, CounterKey key, long delta) {
        String operation = describe(key, delta) + " in the caller's transaction";
        Dialect dialect;
        try {
            dialect = database.dialectOf(connection);
        } catch (SQLException e) {
            throw FailureReport.unavailable(operation, e);
        }
        registry.checkWritable();
        long bucketStart = buckets.startOf(key.recordType());
        try {
            expiring.lockAndClear(connection, dialect, List.of(key));
            if (bounded.bounded(key.recordType())) {
                registry.checkLimitsAgainstView(key.recordType());
                LimitExceededException refused = bounded.decide(connection, dialect, List.of(key), List.of(delta),
                        List.of(bucketStart)).refusals().get(0);
                if (refused != null) {
                    throw refused;
                }
            }
            SlotRow row = new SlotRow(key, transactionSlots.slotFor(connection, key), delta);
            SlotRows.upsertOne(connection, dialect, database.table(), row, stats::retried);
            if (bucketStart != BucketClock.NONE) {
                BucketRows.upsert(connection, dialect, database.buckets(),
                        deltas(key, bucketStart, delta).bucketRows(this::slotFor));
            }
        } catch (SQLException e) {
            throw FailureReport.of(operation, database.table(), dialect.classify(e), e, 1, true);
        }
    }

    private void upsertAndCommit(Connection connection, Dialect dialect, SlotRow row)
            throws SQLException {
        boolean autoCommit = connection.getAutoCommit();
        try {
            SlotRows.upsertOne(connection, dialect, database.table(), row, stats::retried);
            if (!autoCommit) {
                connection.commit();
            }
        } catch (SQLException e) {
            if (!autoCommit) {
                Transactions.rollbackQuietly(connection, e);
            }
            throw e;
        }
    }

    private SlotRow row(CounterKey key, long delta) {
        return new SlotRow(key, slotFor(key), delta);
    }

    private int slotFor(CounterKey key) {
        return slots.pick(key.recordType());
    }

    private static Deltas deltas(CounterKey key, long bucketStart, long delta) {
        Deltas deltas = new Deltas();
        deltas.tryAdd(key, bucketStart, delta);
        return deltas;
    }

    private static List<Increment> single(CounterKey key, long delta) {
        return List.of(new Increment(key.recordType(), key.recordId(), delta));
    }

    private static String describe(CounterKey key, long delta) {
        return "add " + delta + " to counter " + key;
    }
}
