package io.slotted.internal.group;

import io.slotted.OutcomeUnknownException;
import io.slotted.SlottedConfig;
import io.slotted.SlottedException;
import io.slotted.Ticker;
import io.slotted.TotalUnavailableException;
import io.slotted.internal.dialect.BucketRow;
import io.slotted.internal.dialect.ClusterNode;
import io.slotted.internal.dialect.Dialect;
import io.slotted.internal.dialect.Failure;
import io.slotted.internal.dialect.SlotRow;
import io.slotted.internal.jdbc.Database;
import io.slotted.internal.jdbc.FailureReport;
import io.slotted.internal.jdbc.RetryPolicy;
import io.slotted.internal.jdbc.Transactions;
import io.slotted.internal.registry.TypeRegistry;
import io.slotted.internal.keys.IdempotencyKeys;
import io.slotted.internal.read.CounterReader;
import io.slotted.internal.schema.SchemaMigrator;
import io.slotted.internal.sql.CounterKey;
import io.slotted.internal.sql.TableName;
import io.slotted.internal.write.BucketRows;
import io.slotted.internal.write.Deltas;
import io.slotted.internal.write.SlotPicker;
import io.slotted.internal.write.SlotRows;
import io.slotted.internal.write.StatsRecorder;
import io.slotted.internal.write.WrittenTotals;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Writes one flusher's flushes: each flush in one transaction, committed exactly once.
 *
 * <p>In the common case (no idempotency keys, a flush of at most {@value #ROWS_PER_STATEMENT}
 * counters) a flush is one upsert statement in auto-commit that also sets the flusher's mark to
 * the flush's number, so a lone increment costs one round trip and one commit, as in
 * {@code DIRECT} mode. When counters of the flush keep time buckets, the same statement and the
 * bucket rows' upsert go in one batch, in a transaction, and commit together. Otherwise a transaction claims the flush's sequence number in
 * the {@link FlushLedger}, upserts one row per counter in counter order, and commits. Failures
 * before COMMIT leave nothing behind (the
 * server rolls back a transaction whose connection is gone), so they are retried up to the
 * configured attempts. A connection lost during COMMIT leaves the outcome unknown; the same flush is
 * then retried with the same sequence number until the ledger says whether it landed, for up to
 * the configured resolution time. Either way no increment is applied twice or silently lost.
 *
 * <p>Slots: with {@code F} flushers, flusher {@code f} writes only the slots it owns
 * ({@link SlotPicker#pickOwned}), one of them at random per counter per flush. On a node of a
 * multi-primary cluster (Galera) of {@code N} nodes, the node with index {@code n} owns
 * {@code F} of {@code N × F} shares: its flusher {@code f} owns share {@code n × F + f}, so that
 * processes on different nodes never write the same slot rows and never fail each other's
 * certification at COMMIT. The position is read whenever the flusher borrows a connection (after
 * any failure) and after it idled, so it follows the cluster's membership. A flush whose COMMIT
 * was cut off reads the mark and the ledger with causal reads, which wait until the node has
 * applied what the cluster committed: the node that took the lost COMMIT may be gone, and another
 * must not report the flush missing merely because it has not applied it yet.
 */
final class FlushWriter {
    /** Keeps one statement's text to tens of kilobytes, well under every server's packet limit. */
    private static final int ROWS_PER_STATEMENT = 1_000;
    /**
     * How long the held connection may sit unused before it is checked: as long as a pool lets a
     * connection idle before it checks it on lending it out, give or take, so that a flusher under
     * load never pays for the check.
     */
    private static final long IDLE_CHECK_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final int VALID_TIMEOUT_SECONDS = 5;
    private final Database database;
    private final SlottedConfig config;
    private final int index;
    private final FlushLedger ledger;
    private final IdempotencyKeys keys;
    private final StatsRecorder stats;
    private final RetryPolicy retryPolicy;
    private final SlotPicker slots;
    private final TypeRegistry registry;
    private final CounterReader reader;
    private final Ticker ticker;
    private long nextSeq = 1;
    private boolean registered;
    private Connection held;
    /** When the held connection was last lent to an attempt, by the ticker. */
    private long lastUsed;
    /** This flusher's share of the slots, and how many shares there are: see the class comment. */
    private int share;
    private int shares;
    /** Whether the data source's connections take several statements in one packet; null until asked. */
    private Boolean multiStatements;

    FlushWriter(Database database, SlottedConfig config, int index, String flusherId,
            IdempotencyKeys keys, TypeRegistry registry, CounterReader reader, StatsRecorder stats) {
        this.database = database;
        this.config = config;
        this.index = index;
        this.ledger = new FlushLedger(database, database.table().withSuffix(SchemaMigrator.LEDGER_SUFFIX),
                flusherId, config.clock());
        this.keys = keys;
        this.stats = stats;
        this.retryPolicy = RetryPolicy.forFlushes(config, stats::retried);
        this.slots = new SlotPicker(registry);
        this.registry = registry;
        this.reader = reader;
        this.ticker = config.ticker();
        this.share = index;
        this.shares = config.flushers();
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
        try {
            long started = ticker.read();
            Attempt written = writeOnce(flush, nextSeq++);
            stats.flushed(flush.increments() - deliver(written.verdicts), ticker.read() - started);
            if (flush.wantsTotals()) {
                answerTotals(flush, written.totals);
            }
        } catch (OverflowInFlush overflow) {
            if (flush.increments() == 1) {
                onFailure.failed(flush, overflow.reported);
                return;
            }
            List<Flush> parts = flush.counters() == 1 ? flush.perIncrement() : flush.perCounter();
            parts.forEach(part -> write(part, onFailure));
        } catch (SlottedException e) {
            onFailure.failed(flush, e);
        }
    }

    /**
     * Gives the callers that want them their counters' totals: those the flush learned in its own
     * round trip, and the others read now, as reads do (a type folding into an owner column, a
     * flush whose lost commit was resolved). A read that fails then fails only those callers,
     * saying that their increments were applied.
     */
    private void answerTotals(Flush flush, Map<CounterKey, Long> learned) {
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
        if (held == null) {
            return reader.totals(keys);
        }
        try {
            Map<CounterKey, Long> totals = reader.totals(held, keys);
            if (!held.getAutoCommit()) {
                held.rollback(); // ends the read's transaction before the next flush begins one
            }
            return totals;
        } catch (SQLException e) {
            releaseConnection();
            throw e;
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
    private Attempt writeOnce(Flush flush, long seq) {
        String operation = describe(flush);
        long resolveBy = 0;
        boolean outcomeUnknown = false;
        for (int attempt = 1; ; attempt++) {
            Attempt result = attempt(flush, seq, outcomeUnknown);
            if (result.failure == null) {
                return result;
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
     * One attempt. Returns its failure instead of throwing it, to keep the loop plain.
     *
     * <p>The common flush (no idempotency keys, at most {@value #ROWS_PER_STATEMENT} counters,
     * a database with a multi-row upsert) is one statement in auto-commit: the flusher's mark and
     * the slot rows together ({@link Dialect#oneStatementFlushSql}). That is one round trip and
     * one commit, as a {@code DIRECT} increment, with one more row. Any other flush, and any
     * attempt after one whose outcome was lost, is a transaction: it locks the mark and learns
     * whether a lost attempt landed, claims the flush's number in the ledger, records the keys,
     * upserts and commits.
     *
     * <p>The flusher keeps its connection from one flush to the next (see {@link #heldConnection}).
     * After any failure the connection is rolled back and dropped, so a broken one is never
     * reused.
     *
     * @param mayHaveCommitted whether an earlier attempt's COMMIT was cut off, so that the flush
     *     may already be in the database
     */
    private Attempt attempt(Flush flush, long seq, boolean mayHaveCommitted) {
        Connection connection;
        try {
            connection = heldConnection();
        } catch (SQLException e) {
            return new Attempt(e, Failure.CONNECTION, false, null, null);
        }
        Dialect dialect = database.dialect();
        boolean commitSent = false;
        Map<Pending, IdempotencyKeys.Verdict> verdicts = new IdentityHashMap<>();
        try {
            registerOnce(connection, dialect);
            if (mayHaveCommitted) {
                dialect.causalReads(connection, true);
            }
            // Before any slot is picked: the registry holds the slot counts every process follows.
            registry.refreshIfStale(connection);
            Optional<String> oneStatement = mayHaveCommitted ? Optional.empty() : oneStatement(dialect, flush, seq);
            List<BucketRow> bucketRows = flush.deltas().bucketRows(this::slotFor);
            connection.setAutoCommit(oneStatement.isPresent() && bucketRows.isEmpty());
            keys.pruneIfDue(connection, dialect);
            ledger.touchIfDue(connection);
            Set<CounterKey> learn = totalsToLearn(flush);
            if (oneStatement.isPresent()) {
                commitSent = true;
                Map<CounterKey, Long> totals = writeMarked(connection, dialect, flush, seq, oneStatement.get(),
                        bucketRows, learn);
                return Attempt.succeeded(verdicts, totals);
            }
            if (mayHaveCommitted && ledger.markShows(connection, seq)) {
                connection.rollback();
                dialect.causalReads(connection, false);
                stats.outcomeResolved();
                return Attempt.succeeded(verdicts, Map.of());
            }
            Map<CounterKey, Long> totals = Map.of();
            if (claimedAndWritten(connection, dialect, flush, seq, verdicts)) {
                if (!learn.isEmpty()) {
                    totals = WrittenTotals.query(connection, dialect, database.table(), learn);
                }
                commitSent = true;
                connection.commit();
            }
            if (mayHaveCommitted) {
                dialect.causalReads(connection, false);
            }
            return Attempt.succeeded(verdicts, totals);
        } catch (SQLException e) {
            Failure kind = dialect.classify(e);
            if (kind != Failure.CONNECTION) {
                Transactions.rollbackQuietly(connection, e);
            }
            releaseConnection();
            return new Attempt(e, kind, commitSent, null, null);
        }
    }

    /**
     * Writes the flush's marked upsert: alone in auto-commit when no counter of the flush keeps
     * time buckets; otherwise in the open transaction, followed by the bucket rows and COMMIT.
     * The statements go as one batch, which the drivers send in one round trip. Either way the
     * mark commits with the rows, so a lost commit is resolved as for any marked flush.
     *
     * <p>The totals of the counters in {@code learn} come from the upsert itself where the
     * database can answer them in that statement; else from a query of them right after it in
     * auto-commit, or before COMMIT in the transaction (see {@link WrittenTotals}). The query
     * after an auto-commit flush follows a flush that has landed: if it fails, the flush stands
     * and the totals are read again as reads do.
     *
     * @return the totals learned, none if {@code learn} is empty
     */
    private Map<CounterKey, Long> writeMarked(Connection connection, Dialect dialect, Flush flush, long seq,
            String marked, List<BucketRow> bucketRows, Set<CounterKey> learn) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            if (bucketRows.isEmpty()) {
                Optional<String> answering = learn.isEmpty() ? Optional.empty()
                        : answeringTotals(dialect, marked, learn);
                if (answering.isPresent()) {
                    return WrittenTotals.execute(statement, answering.get());
                }
                statement.executeUpdate(marked);
                return learn.isEmpty() ? Map.of() : totalsAfterLanding(connection, dialect, learn);
            }
            statement.addBatch(marked);
            for (String upsert : BucketRows.statements(dialect, database.buckets(), bucketRows)) {
                statement.addBatch(upsert);
            }
            statement.executeBatch();
        }
        Map<CounterKey, Long> totals = learn.isEmpty() ? Map.of()
                : WrittenTotals.query(connection, dialect, database.table(), learn);
        connection.commit();
        return totals;
    }

    /**
     * The flush followed by the query of its totals in the same packet, one round trip, where the
     * data source's connections take several statements; empty otherwise.
     */
    private Optional<String> answeringTotals(Dialect dialect, String marked, Set<CounterKey> learn) {
        return Boolean.TRUE.equals(multiStatements)
                ? dialect.flushThenTotalsSql(marked, dialect.totalsSql(database.table(), learn))
                : Optional.empty();
    }

    private Map<CounterKey, Long> totalsAfterLanding(Connection connection, Dialect dialect,
            Set<CounterKey> learn) {
        try {
            return WrittenTotals.query(connection, dialect, database.table(), learn);
        } catch (SQLException e) {
            releaseConnection();
            return Map.of();
        }
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
     * Claims the flush's number in the ledger and, if the claim takes, records its keys and writes
     * its rows in the open transaction.
     *
     * @return true if the transaction holds the flush and must be committed; false if the ledger
     *     shows an earlier attempt committed it (the transaction is then rolled back)
     */
    private boolean claimedAndWritten(Connection connection, Dialect dialect, Flush flush, long seq,
            Map<Pending, IdempotencyKeys.Verdict> verdicts) throws SQLException {
        String flushRef = ledger.flusherId() + ":" + seq;
        if (ledger.claim(connection, seq) == FlushLedger.Claim.ALREADY_COMMITTED) {
            recallKeys(connection, dialect, flush, flushRef, verdicts);
            connection.rollback();
            stats.outcomeResolved();
            return false;
        }
        Deltas applied = recordKeys(connection, dialect, flush, flushRef, verdicts);
        SlotRows.upsert(connection, dialect, database.table(), applied.counterRows(this::slotFor));
        BucketRows.upsert(connection, dialect, database.buckets(), applied.bucketRows(this::slotFor));
        return true;
    }

    /**
     * The flush as one statement, if it has no idempotency keys, has rows to write, fits one
     * statement, and the database has the upsert for it.
     */
    private Optional<String> oneStatement(Dialect dialect, Flush flush, long seq) {
        if (!flush.keyed().isEmpty() || flush.counters() > ROWS_PER_STATEMENT) {
            return Optional.empty();
        }
        List<SlotRow> rows = flush.deltas().counterRows(this::slotFor);
        if (rows.isEmpty()) {
            return Optional.empty();
        }
        return dialect.oneStatementFlushSql(database.table(), ledger.mark(seq), rows);
    }

    /**
     * Borrows the flusher's connection ahead of its next flush if it holds none: when the
     * counters are built, and whenever the flusher idles after a failure dropped its connection,
     * so that it holds one before callers can hold every connection of the pool. A failure is
     * left for the next flush, which borrows again and reports it.
     */
    void connectAhead() {
        if (held != null) {
            return;
        }
        try {
            heldConnection();
        } catch (SQLException | RuntimeException e) {
            releaseConnection();
        }
    }

    /**
     * The flusher's connection, borrowed when it has none; each attempt sets its commit mode. The
     * flusher keeps it while the counters are open — it is given back only when it fails or the
     * counters close — because a caller may be waiting for this flush while its own transaction
     * holds a connection of the same pool: were the flusher to borrow then, every connection could
     * be held by such callers and the flush would wait for the pool's timeout. A connection idle
     * for more than {@link #IDLE_CHECK_NANOS} is checked first (the server or a firewall may have
     * closed it meanwhile) and replaced if it is gone.
     *
     * <p>Whenever the connection is new, or was idle, the flusher's share of the slots is worked
     * out again: a new connection may reach another node of a cluster, or the cluster may have
     * changed.
     */
    private Connection heldConnection() throws SQLException {
        long now = ticker.read();
        if (held != null && now - lastUsed > IDLE_CHECK_NANOS) {
            try {
                if (!held.isValid(VALID_TIMEOUT_SECONDS)) {
                    releaseConnection();
                } else {
                    learnShare(held);
                }
            } catch (SQLException e) {
                releaseConnection();
            }
        }
        if (held == null) {
            Connection borrowed = database.connect();
            try {
                learnShare(borrowed);
                if (multiStatements == null) {
                    multiStatements = database.dialect().takesMultiStatements(borrowed);
                }
            } catch (SQLException e) {
                borrowed.close();
                throw e;
            }
            held = borrowed;
        }
        lastUsed = now;
        return held;
    }

    private void learnShare(Connection connection) throws SQLException {
        Optional<ClusterNode> node = database.dialect().clusterNode(connection);
        share = node.map(n -> n.index() * config.flushers() + index).orElse(index);
        shares = node.map(n -> n.size() * config.flushers()).orElse(config.flushers());
    }

    /**
     * Gives the held connection back to the pool: after it failed, and when the counters close.
     */
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
    private Deltas recordKeys(Connection connection, Dialect dialect, Flush flush,
            String flushRef, Map<Pending, IdempotencyKeys.Verdict> verdicts) throws SQLException {
        Deltas applied = flush.deltas().copy();
        for (Pending keyed : flush.keyed()) {
            IdempotencyKeys.Verdict verdict = keys.record(connection, dialect, keyed.idempotencyKey(),
                    IdempotencyKeys.fingerprint(keyed.key(), keyed.delta()), flushRef);
            verdicts.put(keyed, verdict);
            if (verdict.outcome() != IdempotencyKeys.Outcome.APPLIED) {
                applied.remove(keyed.key(), keyed.bucketStart(), keyed.delta());
            }
        }
        return applied;
    }

    /** The flush had committed in an earlier attempt: learn what its keys found then. */
    private void recallKeys(Connection connection, Dialect dialect, Flush flush, String flushRef,
            Map<Pending, IdempotencyKeys.Verdict> verdicts) throws SQLException {
        Set<String> seen = new HashSet<>();
        for (Pending keyed : flush.keyed()) {
            verdicts.put(keyed, keys.recall(connection, dialect, keyed.idempotencyKey(),
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
        connection.setAutoCommit(false);
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

    /** A slot this flusher owns, for one counter's row or bucket row. */
    private int slotFor(CounterKey key) {
        return slots.pickOwned(key.recordType(), share, shares);
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

    /**
     * The outcome of one transaction: its failure, or what its idempotency keys found and the
     * totals it learned.
     */
    private record Attempt(SQLException failure, Failure kind, boolean commitSent,
            Map<Pending, IdempotencyKeys.Verdict> verdicts, Map<CounterKey, Long> totals) {
        static Attempt succeeded(Map<Pending, IdempotencyKeys.Verdict> verdicts, Map<CounterKey, Long> totals) {
            return new Attempt(null, null, false, verdicts, totals);
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
