package io.slotted.internal.group;

import io.slotted.OutcomeUnknownException;
import io.slotted.SlottedConfig;
import io.slotted.SlottedException;
import io.slotted.Ticker;
import io.slotted.internal.dialect.Dialect;
import io.slotted.internal.dialect.Failure;
import io.slotted.internal.dialect.OneTripFlush;
import io.slotted.internal.dialect.SlotRow;
import io.slotted.internal.jdbc.Database;
import io.slotted.internal.jdbc.FailureReport;
import io.slotted.internal.jdbc.RetryPolicy;
import io.slotted.internal.jdbc.Transactions;
import io.slotted.internal.registry.TypeRegistry;
import io.slotted.internal.keys.IdempotencyKeys;
import io.slotted.internal.schema.SchemaMigrator;
import io.slotted.internal.sql.CounterKey;
import io.slotted.internal.write.SlotPicker;
import io.slotted.internal.write.SlotRows;
import io.slotted.internal.write.StatsRecorder;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Writes one flusher's flushes: each flush in one transaction, committed exactly once.
 *
 * <p>A transaction claims the flush's sequence number in the {@link FlushLedger}, upserts one row
 * per counter in counter order, and commits. In the common case (no idempotency keys, a flush
 * of at most {@value #ROWS_PER_STATEMENT} counters, MariaDB or PostgreSQL) all three go to the
 * server in one round trip ({@link OneTripFlush}), so a lone increment waits for one round trip,
 * as in {@code DIRECT} mode; otherwise the claim takes a round trip of its own, and its result
 * decides what follows. Failures before COMMIT leave nothing behind (the
 * server rolls back a transaction whose connection is gone), so they are retried up to the
 * configured attempts. A connection lost during COMMIT leaves the outcome unknown; the same flush is
 * then retried with the same sequence number until the ledger says whether it landed, for up to
 * the configured resolution time. Either way no increment is applied twice or silently lost.
 *
 * <p>Slots: with {@code F} flushers, flusher {@code f} writes only the slots it owns
 * ({@link SlotPicker#pickOwned}), one of them at random per counter per flush.
 */
final class FlushWriter {
    /** Keeps one statement's text to tens of kilobytes, well under every server's packet limit. */
    private static final int ROWS_PER_STATEMENT = 1_000;
    private final Database database;
    private final SlottedConfig config;
    private final int index;
    private final FlushLedger ledger;
    private final IdempotencyKeys keys;
    private final StatsRecorder stats;
    private final RetryPolicy retryPolicy;
    private final SlotPicker slots;
    private final TypeRegistry registry;
    private final Ticker ticker;
    private long nextSeq = 1;
    private boolean registered;
    private Connection held;

    FlushWriter(Database database, SlottedConfig config, int index, String flusherId,
            IdempotencyKeys keys, TypeRegistry registry, StatsRecorder stats) {
        this.database = database;
        this.config = config;
        this.index = index;
        this.ledger = new FlushLedger(database.table().withSuffix(SchemaMigrator.LEDGER_SUFFIX),
                flusherId, config.clock());
        this.keys = keys;
        this.stats = stats;
        this.retryPolicy = RetryPolicy.forFlushes(config, stats::retried);
        this.slots = new SlotPicker(registry);
        this.registry = registry;
        this.ticker = config.ticker();
    }

    /**
     * Writes a flush durably. A counter whose slot would overflow is split off so that only its
     * own increments fail.
     *
     * @param flush what to write
     * @param onFailure told of each part that could not be written, with the reason
     */
    void write(Flush flush, FailureHandler onFailure) {
        try {
            long started = ticker.read();
            Map<Pending, IdempotencyKeys.Verdict> verdicts = writeOnce(flush, nextSeq++);
            stats.flushed(flush.increments() - deliver(verdicts), ticker.read() - started);
        } catch (OverflowInFlush overflow) {
            if (flush.counters() == 1) {
                onFailure.failed(flush, overflow.reported);
                return;
            }
            flush.perCounter().forEach(part -> write(part, onFailure));
        } catch (SlottedException e) {
            onFailure.failed(flush, e);
        }
    }

    /** Told when a flush could not be written. */
    @FunctionalInterface
    interface FailureHandler {
        void failed(Flush flush, SlottedException reason);
    }

    /**
     * Tells keyed callers what their key found: a replay is marked before the caller's future
     * completes; a conflict fails the caller's future.
     *
     * @return how many increments were not applied
     */
    private static int deliver(Map<Pending, IdempotencyKeys.Verdict> verdicts) {
        int notApplied = 0;
        for (Map.Entry<Pending, IdempotencyKeys.Verdict> entry : verdicts.entrySet()) {
            IdempotencyKeys.Verdict verdict = entry.getValue();
            switch (verdict.outcome()) {
                case APPLIED -> { }
                case REPLAYED -> entry.getKey().markReplayed();
                case CONFLICT -> entry.getKey().fail(verdict.conflict());
            }
            notApplied += verdict.outcome() == IdempotencyKeys.Outcome.APPLIED ? 0 : 1;
        }
        return notApplied;
    }

    /**
     * Tries a flush until it commits. Before a COMMIT was cut off, the retry policy's attempts
     * apply. After, the outcome is unknown and the flush is tried until the ledger tells, or until
     * the resolution time runs out: giving up earlier would leave callers not knowing what could
     * still be learned.
     */
    private Map<Pending, IdempotencyKeys.Verdict> writeOnce(Flush flush, long seq) {
        String operation = describe(flush);
        long resolveBy = 0;
        boolean outcomeUnknown = false;
        for (int attempt = 1; ; attempt++) {
            Attempt result = attempt(flush, seq);
            if (result.failure == null) {
                return result.verdicts;
            }
            Failure kind = result.kind;
            if (result.commitSent && kind == Failure.CONNECTION && !outcomeUnknown) {
                outcomeUnknown = true;
                resolveBy = ticker.read() + config.outcomeResolutionTimeout().toNanos();
                stats.outcomeUnknown();
            }
            boolean again = outcomeUnknown
                    ? retryPolicy.retries(kind) && ticker.read() - resolveBy < 0
                    : retryPolicy.allowsAnother(attempt, kind);
            if (!again) {
                throw reportFor(operation, kind, result.failure, attempt, outcomeUnknown);
            }
            retryPolicy.pauseAfter(attempt, operation);
        }
    }

    private SlottedException reportFor(String operation, Failure kind, SQLException failure,
            int attempts, boolean outcomeUnknown) {
        if (outcomeUnknown && kind == Failure.CONNECTION) {
            return new OutcomeUnknownException(operation + " in table " + database.table()
                    + ": the connection was lost during COMMIT and the outcome could not be learned"
                    + " within " + config.outcomeResolutionTimeout().toMillis() + "ms (" + attempts
                    + " attempts); the increments may or may not have been applied", failure);
        }
        SlottedException reported = FailureReport.of(
                operation, database.table(), kind, failure, attempts, false);
        if (kind == Failure.OVERFLOW) {
            throw new OverflowInFlush(reported);
        }
        return reported;
    }

    /**
     * One transaction. Returns its failure instead of throwing it, to keep the loop plain.
     *
     * <p>The flusher keeps its connection, in manual-commit mode, from one flush to the next while
     * there is work: handing it back to the pool after every flush would cost two extra round trips
     * (the pool resets auto-commit, the next flush turns it off again), which is most of what a
     * lone caller would wait for beyond the commit itself. After any failure the connection is
     * rolled back and dropped, so a broken one is never reused.
     */
    private Attempt attempt(Flush flush, long seq) {
        Connection connection;
        try {
            connection = heldConnection();
        } catch (SQLException e) {
            return new Attempt(e, Failure.CONNECTION, false, null);
        }
        Dialect dialect = database.dialect();
        boolean commitSent = false;
        String flushRef = ledger.flusherId() + ":" + seq;
        Map<Pending, IdempotencyKeys.Verdict> verdicts = new IdentityHashMap<>();
        try {
            registerOnce(connection, dialect);
            registry.refreshIfStale(connection);
            keys.pruneIfDue(connection);
            Optional<OneTripFlush> oneTrip = oneTrip(dialect, flush, seq);
            if (oneTrip.isPresent()) {
                commitSent = true;
                if (oneTrip.get().run(connection)) {
                    return Attempt.succeeded(verdicts);
                }
                commitSent = false; // not claimed, nothing written: the ledger decides below
            }
            if (ledger.claim(connection, seq) == FlushLedger.Claim.ALREADY_COMMITTED) {
                recallKeys(connection, flush, flushRef, verdicts);
                connection.rollback();
                stats.outcomeResolved();
                return Attempt.succeeded(verdicts);
            }
            SortedMap<CounterKey, Long> sums =
                    recordKeys(connection, dialect, flush, flushRef, verdicts);
            SlotRows.upsert(connection, dialect, database.table(), rows(sums));
            commitSent = true;
            connection.commit();
            return Attempt.succeeded(verdicts);
        } catch (SQLException e) {
            Failure kind = dialect.classify(e);
            if (kind != Failure.CONNECTION) {
                // Also a one-trip flush that failed before its COMMIT: its transaction is open.
                Transactions.rollbackQuietly(connection, e);
            }
            releaseConnection();
            return new Attempt(e, kind, commitSent, null);
        }
    }

    /**
     * The flush in one round trip, if it has no idempotency keys and the database can. A flush
     * whose increments cancel out has no rows to write and takes the careful path, which claims
     * its number all the same.
     */
    private Optional<OneTripFlush> oneTrip(Dialect dialect, Flush flush, long seq) {
        List<SlotRow> rows = rows(flush.sums());
        if (!flush.keyed().isEmpty() || rows.isEmpty() || rows.size() > ROWS_PER_STATEMENT) {
            return Optional.empty();
        }
        return dialect.oneTripFlush(database.table(), ledger.claimSqlWithValues(seq), rows);
    }

    private Connection heldConnection() throws SQLException {
        if (held == null) {
            Connection connection = database.connect();
            try {
                connection.setAutoCommit(false);
            } catch (SQLException e) {
                connection.close();
                throw e;
            }
            held = connection;
        }
        return held;
    }

    /** Gives the held connection back to the pool; the flusher calls this when it goes idle. */
    void releaseConnection() {
        if (held != null) {
            try {
                held.close();
            } catch (SQLException e) {
                // The pool discards a connection it cannot reset; nothing is pending on it.
            }
            held = null;
        }
    }

    /**
     * Records each keyed increment's key; an increment whose key is a replay or a conflict is
     * taken back out of the sums, so that only new keys' increments are written.
     */
    private SortedMap<CounterKey, Long> recordKeys(Connection connection, Dialect dialect, Flush flush,
            String flushRef, Map<Pending, IdempotencyKeys.Verdict> verdicts) throws SQLException {
        SortedMap<CounterKey, Long> sums = new TreeMap<>(flush.sums());
        for (Pending keyed : flush.keyed()) {
            IdempotencyKeys.Verdict verdict = keys.record(connection, dialect, keyed.idempotencyKey(),
                    IdempotencyKeys.fingerprint(keyed.key(), keyed.delta()), flushRef);
            verdicts.put(keyed, verdict);
            if (verdict.outcome() != IdempotencyKeys.Outcome.APPLIED) {
                sums.merge(keyed.key(), -keyed.delta(), Long::sum);
            }
        }
        return sums;
    }

    /** The flush had committed in an earlier attempt: learn what its keys found then. */
    private void recallKeys(Connection connection, Flush flush, String flushRef,
            Map<Pending, IdempotencyKeys.Verdict> verdicts) throws SQLException {
        Set<String> seen = new HashSet<>();
        for (Pending keyed : flush.keyed()) {
            verdicts.put(keyed, keys.recall(connection, keyed.idempotencyKey(),
                    IdempotencyKeys.fingerprint(keyed.key(), keyed.delta()), flushRef,
                    seen.add(keyed.idempotencyKey())));
        }
    }

    /**
     * Before its first flush, a flusher prunes abandoned ledger rows and then registers its own,
     * each in transactions of their own that hold nothing else, so that flushers starting together
     * cannot deadlock on the ledger (see {@link FlushLedger#pruneAbandoned}). A registration whose
     * commit was lost may have landed; finding the row already there then means it did.
     */
    private void registerOnce(Connection connection, Dialect dialect) throws SQLException {
        if (registered) {
            return;
        }
        ledger.pruneAbandoned(connection);
        try {
            ledger.register(connection);
            connection.commit();
        } catch (SQLException e) {
            if (dialect.classify(e) != Failure.DUPLICATE_KEY) {
                throw e;
            }
            connection.rollback();
        }
        registered = true;
    }

    /** One row per counter, in a slot this flusher owns. */
    private List<SlotRow> rows(SortedMap<CounterKey, Long> sums) {
        return SlotRows.of(sums, key -> slots.pickOwned(key.recordType(), index, config.flushers()));
    }

    private static String describe(Flush flush) {
        Map.Entry<CounterKey, Long> first = flush.sums().firstEntry();
        if (flush.counters() == 1) {
            return "add " + first.getValue() + " to counter " + first.getKey() + " ("
                    + flush.increments() + " increments grouped)";
        }
        return "write " + flush.increments() + " increments to " + flush.counters()
                + " counters (the first " + first.getKey() + ")";
    }

    /** The outcome of one transaction: its failure, or what its idempotency keys found. */
    private record Attempt(SQLException failure, Failure kind, boolean commitSent,
            Map<Pending, IdempotencyKeys.Verdict> verdicts) {
        static Attempt succeeded(Map<Pending, IdempotencyKeys.Verdict> verdicts) {
            return new Attempt(null, null, false, verdicts);
        }
    }

    /** A slot would overflow: the flush must be split so that other counters still land. */
    private static final class OverflowInFlush extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final transient SlottedException reported;

        OverflowInFlush(SlottedException reported) {
            super(null, null, false, false);
            this.reported = reported;
        }
    }
}
