package io.slotted.internal.group;

import io.slotted.LimitExceededException;
import io.slotted.OutcomeUnknownException;
import io.slotted.SlottedConfig;
import io.slotted.SlottedException;
import io.slotted.Ticker;
import io.slotted.TotalUnavailableException;
import io.slotted.internal.bucket.BucketClock;
import io.slotted.internal.dialect.Dialect;
import io.slotted.internal.dialect.Failure;
import io.slotted.internal.expiry.ExpiringCounters;
import io.slotted.internal.group.commit.FlushAttempts;
import io.slotted.internal.group.commit.FlushLedger;
import io.slotted.internal.group.commit.HeldConnection;
import io.slotted.internal.jdbc.Database;
import io.slotted.internal.jdbc.Transactions;
import io.slotted.internal.keys.IdempotencyKeys;
import io.slotted.internal.mutation.Mutation;
import io.slotted.internal.read.CounterReader;
import io.slotted.internal.registry.TypeRegistry;
import io.slotted.internal.schema.SchemaMigrator;
import io.slotted.internal.sql.CounterKey;
import io.slotted.internal.write.BoundedCounters;
import io.slotted.internal.write.SlotPicker;
import io.slotted.internal.write.StatsRecorder;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes one flusher's flushes: each flush committed exactly once, by one of two protocols.
 *
 * <ul>
 *   <li>{@link OneStatementFlush}: the common flush — no idempotency keys, at most
 *       the counters the dialect puts in one statement, a database with a multi-row
 *       upsert — as one statement in auto-commit that also sets the flusher's mark, so a lone
 *       increment costs one round trip and one commit, as in {@code DIRECT} mode;</li>
 *   <li>{@link LedgerFlush}: any other flush, as a transaction that claims the flush's number in
 *       the {@link FlushLedger}.</li>
 * </ul>
 *
 * <p>Either may lose its connection. {@link FlushAttempts} retries the flush with the same number
 * and, once a lost connection may have taken a commit with it, tells every later attempt so; such
 * an attempt is always {@link LedgerFlush#resolve}, with causal reads on a cluster, which writes
 * the flush again only if neither the mark nor the ledger shows it landed, and fences the mark
 * against the lost statement. Either way no increment is applied twice or silently lost.
 *
 * <p>One thread at a time writes through a writer — a flusher thread, or in {@code GROUPED} mode a
 * caller whose turn it is ({@link FlushTurns}) — and the writer keeps its connection from one
 * flush to the next ({@link HeldConnection}); after any failure the connection is rolled back and
 * dropped, so a broken one is never reused.
 *
 * <p>The writing thread's interrupt is held back while it writes, since it writes for other
 * callers too: each attempt starts with the interrupt cleared (on a virtual thread an interrupt
 * would close the socket under the next statement), and {@link #giveBackInterrupt()} restores it
 * once the thread is done writing. An interrupt that cuts a statement off is a lost connection
 * like any other.
 */
final class FlushWriter {
    private static final Logger LOG = LoggerFactory.getLogger(FlushWriter.class);

    private final Database database;
    private final HeldConnection held;
    private final FlushLedger ledger;
    private final OneStatementFlush oneStatement;
    private final LedgerFlush ledgerFlush;
    private final FlushAttempts attempts;
    private final BoundedCounters bounded;
    private final ExpiringCounters expiring;
    private final TypeRegistry registry;
    private final CounterReader reader;
    private final StatsRecorder stats;
    private final Ticker ticker;
    /** Whether the writing thread was interrupted while it wrote; given back when it is done. */
    private boolean interruptHeld;

    FlushWriter(Database database, SlottedConfig config, int index, String flusherId,
            IdempotencyKeys keys, TypeRegistry registry, CounterReader reader, StatsRecorder stats) {
        this.database = database;
        this.held = new HeldConnection(database, new SlotPicker(registry), index, config.flushers(),
                config.ticker());
        this.ledger = new FlushLedger(database, database.table().withSuffix(SchemaMigrator.LEDGER_SUFFIX),
                flusherId, config.clock());
        this.bounded = new BoundedCounters(database, registry, BucketClock.of(config, registry::limits));
        this.expiring = new ExpiringCounters(database, config, registry);
        OneRowPerBucket oneRowPerBucket = new OneRowPerBucket(config.buckets(), registry, bounded, expiring);
        this.oneStatement = new OneStatementFlush(database, ledger, held, bounded, expiring, oneRowPerBucket);
        this.ledgerFlush = new LedgerFlush(database, ledger, keys, held, stats, bounded, expiring, oneRowPerBucket);
        this.attempts = new FlushAttempts(database.table(), config, stats);
        this.registry = registry;
        this.reader = reader;
        this.stats = stats;
        this.ticker = config.ticker();
    }

    /**
     * Writes a flush durably. A counter whose slot row would leave its range (see
     * {@code SlotRange}) is split off, and then its increments one from another, so that exactly
     * the increments that fit are applied, in the order they came, and only the others fail.
     *
     * @param flush what to write
     * @param onFailure told of each part that could not be written, with the reason
     */
    void write(Flush flush, FailureHandler onFailure) {
        if (Mutation.ACK_BEFORE_COMMIT.planted()) {
            flush.pending().stream().filter(p -> !p.wantsTotal()).forEach(Pending::complete);
        }
        try {
            long started = ticker.read();
            long seq = ledger.nextFlush();
            Written written;
            try {
                written = attempts.untilCommitted(flush.describe(), outcomeUnknown -> attempt(flush, seq, outcomeUnknown));
            } catch (FlushAttempts.Overflow overflow) {
                if (overflow.afterLostCommit() && !fenceOff(flush, seq)) {
                    flush.clearRefusals(); // the lost statement landed after all, applying every increment
                    written = new Written(Map.of(), Map.of());
                } else {
                    split(flush, overflow, onFailure);
                    return;
                }
            }
            int refused = reportRefusals(flush.deliverRefusals());
            stats.flushed(flush.increments() - deliver(written.verdicts()) - refused, ticker.read() - started);
            if (flush.wantsTotals()) {
                answerTotals(flush, written.totals());
            }
        } catch (SlottedException e) {
            onFailure.failed(flush, e);
        }
    }

    /**
     * Writes the parts of a flush that would overflow a slot, each under a number of its own: one
     * part per counter, or per increment of a lone counter, so that only what overflows fails.
     */
    private void split(Flush flush, FlushAttempts.Overflow overflow, FailureHandler onFailure) {
        if (flush.increments() == 1) {
            onFailure.failed(flush, overflow.reported());
            return;
        }
        List<Flush> parts = flush.counters() == 1 ? flush.perIncrement() : flush.perCounter();
        parts.forEach(part -> write(part, onFailure));
    }

    /**
     * Before a flush whose COMMIT was lost is split, or failed, for overflowing a slot: makes sure
     * its lost statement can never land, or learns that it did. The resolution that overflowed was
     * rolled back, and its fence with it, and the parts may never move the mark (a part that
     * overflows too, or keyed parts, written through the ledger), so a statement held up on the way
     * could still land and count what the callers are told failed, or what the parts write again.
     * A transaction of its own sets the mark one past the flush's number, and the flusher skips that
     * number: the mark at the flush's number still means the statement landed, one past it that
     * the fence did, so a fence whose own COMMIT is lost is learned like any other.
     *
     * @return true if the lost statement is fenced off; false if it had landed after all
     * @throws OutcomeUnknownException if neither could be learned
     */
    private boolean fenceOff(Flush flush, long seq) {
        try {
            return attempts.untilCommitted("fence off " + flush.describe(), outcomeUnknown -> fenceAttempt(seq));
        } catch (SlottedException e) {
            throw new OutcomeUnknownException(flush.describe() + ": the connection was lost during COMMIT, the"
                    + " attempt that resolved it would overflow a slot, and whether the lost one landed could not be"
                    + " learned (" + e.getMessage() + "); the increments may or may not have been applied", e);
        } finally {
            ledger.skipPast(seq + 1);
        }
    }

    private FlushAttempts.Attempt<Boolean> fenceAttempt(long seq) {
        return onHeldConnection((connection, commit) -> {
            Dialect dialect = database.dialect();
            connection.setAutoCommit(false);
            Dialect.SessionSetting causal = dialect.causalReads(connection);
            boolean fenced = ledger.fenceAbove(connection, seq);
            causal.restore();
            commit.pass();
            connection.commit();
            return fenced;
        });
    }

    /** Told when a flush could not be written. */
    @FunctionalInterface
    interface FailureHandler {
        void failed(Flush flush, SlottedException reason);
    }

    /**
     * One attempt on the held connection. Returns its failure instead of throwing it, with whether
     * it had sent what commits it, which only the attempt knows.
     *
     * @param outcomeUnknown whether an earlier attempt's COMMIT was cut off, so that the flush may
     *     already be in the database
     */
    private FlushAttempts.Attempt<Written> attempt(Flush flush, long seq, boolean outcomeUnknown) {
        return onHeldConnection((connection, commit) -> {
            Map<Pending, IdempotencyKeys.Verdict> verdicts = new IdentityHashMap<>();
            ledger.registerOnce(connection);
            bounded.agree(connection, flush.sums().keySet());
            expiring.agree(connection, flush.sums().keySet());
            Map<CounterKey, Long> totals = outcomeUnknown
                    ? afterLostCommit(connection, database.dialect(), flush, seq, verdicts, commit)
                    : firstTry(connection, flush, seq, verdicts, commit);
            return new Written(verdicts, totals);
        });
    }

    /** Work of one attempt on the held connection, which passes the commit point when it sends what commits. */
    @FunctionalInterface
    private interface AttemptWork<T> {
        T run(Connection connection, FlushAttempts.CommitPoint commit) throws SQLException;
    }

    /**
     * Runs an attempt's work on the held connection. After any failure the connection is rolled
     * back (unless lost) and dropped, so that a broken one is never reused.
     */
    private <T> FlushAttempts.Attempt<T> onHeldConnection(AttemptWork<T> work) {
        holdBackInterrupt();
        Connection connection;
        try {
            connection = held.get();
        } catch (SQLException e) {
            return FlushAttempts.Attempt.failed(e, Failure.CONNECTION, false);
        }
        FlushAttempts.CommitPoint commit = new FlushAttempts.CommitPoint();
        try {
            return FlushAttempts.Attempt.committed(work.run(connection, commit));
        } catch (SQLException e) {
            Failure kind = database.dialect().classify(e);
            if (kind != Failure.CONNECTION) {
                Transactions.rollbackQuietly(connection, e);
            }
            held.release();
            return FlushAttempts.Attempt.failed(e, kind, commit.passed());
        }
    }

    /** The flush as one statement where it can be, else as the ledger's transaction. */
    private Map<CounterKey, Long> firstTry(Connection connection, Flush flush, long seq,
            Map<Pending, IdempotencyKeys.Verdict> verdicts, FlushAttempts.CommitPoint commit) throws SQLException {
        refreshSlotCounts(connection);
        // Only before anything of the flush can have landed: a flush whose COMMIT was cut off is
        // still resolved, and written again if it did not land, whatever the schema became.
        registry.checkWritable();
        flush.clearRefusals(); // what an earlier attempt decided did not commit: this one decides anew
        Set<CounterKey> learn = totalsToLearn(flush);
        Optional<OneStatementFlush.Marked> statement = oneStatement.statement(flush, seq, learn.isEmpty());
        if (statement.isPresent()) {
            Optional<Map<CounterKey, Long>> totals = oneStatement.write(connection, flush, statement.get(), learn,
                    commit);
            if (totals.isPresent()) {
                return totals.get();
            }
            return ledgerFlush.write(connection, flush, seq, verdicts, learn, commit, false); // an allowance ran out
        }
        return ledgerFlush.write(connection, flush, seq, verdicts, learn, commit, true);
    }

    /**
     * The flush after a COMMIT was cut off. On a cluster the reads wait until the node has applied
     * what the cluster committed: the node that took the lost COMMIT may be gone, and another must
     * not report the flush missing merely because it has not applied it yet.
     */
    private Map<CounterKey, Long> afterLostCommit(Connection connection, Dialect dialect, Flush flush, long seq,
            Map<Pending, IdempotencyKeys.Verdict> verdicts, FlushAttempts.CommitPoint commit) throws SQLException {
        Dialect.SessionSetting causal = dialect.causalReads(connection);
        refreshSlotCounts(connection);
        Map<CounterKey, Long> totals = ledgerFlush.resolve(connection, flush, seq, verdicts, totalsToLearn(flush),
                commit);
        causal.restore();
        return totals;
    }

    /**
     * Before any slot is picked, on every attempt: the registry holds the slot counts every
     * process follows, and a shrink waits for every writer to have read them. It stays on the
     * flush's path for that reason: refreshed between flushes instead, it could be older than
     * {@link TypeRegistry#REFRESH} by the time a flush that idled or waited to retry picks its
     * slots. It reads only when the view is stale, once a second at most.
     */
    private void refreshSlotCounts(Connection connection) throws SQLException {
        registry.refreshIfStale(connection);
    }

    /**
     * The counters whose totals the flush learns as it writes: those its callers want, unless
     * their type folds into an owner column, whose totals add the column and are read after.
     */
    private Set<CounterKey> totalsToLearn(Flush flush) {
        if (!flush.wantsTotals()) {
            return Set.of();
        }
        Set<CounterKey> wanted = flush.wantedTotals();
        wanted.removeIf(key -> registry.folds(key.recordType()));
        return wanted;
    }

    /**
     * Counts the increments the limits refused. A caller released before its increment was decided
     * (a {@code BUFFERED} process writing a type whose limits another process recorded) cannot be
     * told: its increment is counted as dropped and logged.
     *
     * @return how many were refused
     */
    private int reportRefusals(Map<Pending, LimitExceededException> refused) {
        int untold = 0;
        LimitExceededException first = null;
        for (Map.Entry<Pending, LimitExceededException> refusal : refused.entrySet()) {
            if (refusal.getKey().callerReleased()) {
                untold++;
                first = first == null ? refusal.getValue() : first;
            }
        }
        if (untold > 0) {
            stats.dropped(untold);
            LOG.error("dropped {} buffered increments that the limits refused, such as: {}", untold,
                    first.getMessage());
        }
        return refused.size();
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
     * Gives the callers that want them their counters' totals: those the flush learned in its own
     * round trip, and the others read now, as reads do (a type folding into an owner column, a
     * flush whose lost commit was resolved). A read that fails then fails only those callers,
     * saying that their increments were applied.
     */
    private void answerTotals(Flush flush, Map<CounterKey, Long> learned) {
        holdBackInterrupt();
        Map<CounterKey, Long> totals = new HashMap<>(learned);
        Set<CounterKey> missing = flush.wantedTotals();
        missing.removeAll(totals.keySet());
        if (!missing.isEmpty()) {
            try {
                totals.putAll(readTotals(missing));
            } catch (SlottedException | SQLException e) {
                flush.pending().stream().filter(p -> p.wantsTotal() && missing.contains(p.key()))
                        .forEach(p -> p.fail(new TotalUnavailableException("the increment of counter "
                                + p.key() + " was applied, but its total could not be read after it: "
                                + e.getMessage() + "; do not apply it again, read the counter", e)));
            }
        }
        flush.answer(totals);
    }

    /**
     * Reads totals on the held connection, not on one borrowed from the pool, which callers
     * waiting for this flush may be holding; on a borrowed one only if the flush left the flusher
     * without a connection.
     */
    private Map<CounterKey, Long> readTotals(Set<CounterKey> keys) throws SQLException {
        Optional<Connection> connection = held.ifHeld();
        if (connection.isEmpty()) {
            return reader.totals(keys);
        }
        try {
            Map<CounterKey, Long> totals = reader.totals(connection.get(), keys);
            if (!connection.get().getAutoCommit()) {
                connection.get().rollback(); // ends the read's transaction before the next flush begins one
            }
            return totals;
        } catch (SQLException e) {
            held.release();
            throw e;
        }
    }

    /**
     * Between flushes, and while idle: tells the ledger the flusher lives, when that is due, on
     * the connection it holds (never one borrowed for it). Off the flush's path, no caller waits
     * for it, and a marked flush stays one round trip. A failure is tried again next time, with a
     * day's margin (see {@link FlushLedger}); a lost connection is dropped, as after a flush.
     */
    void keepAlive() {
        Optional<Connection> connection = held.ifHeld();
        if (connection.isEmpty()) {
            return;
        }
        try {
            ledger.touchIfDue(connection.get());
        } catch (SQLException e) {
            LOG.debug("could not tell the flush ledger that flusher {} lives; trying again later",
                    ledger.flusherId(), e);
            if (database.dialect().classify(e) == Failure.CONNECTION) {
                held.release();
            }
        }
    }

    private void holdBackInterrupt() {
        interruptHeld |= Thread.interrupted();
    }

    /** Restores the interrupt held back while the calling thread wrote, once it is done writing. */
    void giveBackInterrupt() {
        holdBackInterrupt();
        if (interruptHeld) {
            interruptHeld = false;
            Thread.currentThread().interrupt();
        }
    }

    /** Borrows the flusher's connection ahead of its next flush if it holds none (see {@link HeldConnection}). */
    void connectAhead() {
        held.connectAhead();
    }

    /** Gives the held connection back to the pool: after it failed, and when the counters close. */
    void releaseConnection() {
        held.release();
    }

    /** What a committed attempt found: what each keyed increment's key found, and the totals it learned. */
    private record Written(Map<Pending, IdempotencyKeys.Verdict> verdicts, Map<CounterKey, Long> totals) {
    }
}
