package io.slotted.internal.group;

import io.slotted.LimitExceededException;
import io.slotted.internal.dialect.Dialect;
import io.slotted.internal.dialect.statements.AllowanceSpend;
import io.slotted.internal.expiry.ExpiringCounters;
import io.slotted.internal.group.commit.FlushAttempts;
import io.slotted.internal.group.commit.FlushLedger;
import io.slotted.internal.group.commit.HeldConnection;
import io.slotted.internal.jdbc.Database;
import io.slotted.internal.keys.IdempotencyKeys;
import io.slotted.internal.sql.CounterKey;
import io.slotted.internal.write.BoundedCounters;
import io.slotted.internal.write.BucketRows;
import io.slotted.internal.write.Decided;
import io.slotted.internal.write.Deltas;
import io.slotted.internal.write.SlotRows;
import io.slotted.internal.write.StatsRecorder;
import io.slotted.internal.write.WrittenTotals;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The flush as a transaction that claims its sequence number in the {@link FlushLedger}: for a
 * flush that carries idempotency keys, that does not fit one statement, on a database without the
 * one-statement upsert, and for every attempt after one whose COMMIT was cut off.
 *
 * <p>The transaction claims the flush's number, records the keys (an increment whose key shows a
 * replay or a conflict is taken back out of the sums), locks the expiry rows of counters of
 * expiring types and clears those expired ({@link ExpiringCounters}), upserts the slot rows and then the bucket
 * rows, each in key order, learns the totals its callers want, and commits. The claim makes the
 * commit idempotent: an attempt that finds the number already claimed knows an earlier attempt
 * committed the flush, writes nothing, and learns from the keys' rows what each key found then.
 *
 * <p>After a COMMIT was cut off, the flush may have landed either way: as one statement that set
 * the flusher's mark, or as this transaction. {@link #resolve} therefore first locks the mark,
 * which tells of the first and, where it does not hold the flush's number, is fenced to it in this
 * same transaction, so that a one-statement attempt still on its way can no longer land; then the
 * claim tells of the second. Only if neither shows the flush is it written again, and the fence
 * commits with it. On a cluster these reads are causal ({@link Dialect#causalReads}, set by the
 * caller): the node that took the lost COMMIT may be gone, and another must not report the flush
 * missing merely because it has not applied it yet.
 */
final class LedgerFlush {
    private final Database database;
    private final FlushLedger ledger;
    private final IdempotencyKeys keys;
    private final HeldConnection held;
    private final StatsRecorder stats;
    private final BoundedCounters bounded;
    private final OneRowPerBucket oneRowPerBucket;
    private final ExpiringCounters expiring;

    LedgerFlush(Database database, FlushLedger ledger, IdempotencyKeys keys, HeldConnection held,
            StatsRecorder stats, BoundedCounters bounded, ExpiringCounters expiring,
            OneRowPerBucket oneRowPerBucket) {
        this.oneRowPerBucket = oneRowPerBucket;
        this.bounded = bounded;
        this.expiring = expiring;
        this.database = database;
        this.ledger = ledger;
        this.keys = keys;
        this.held = held;
        this.stats = stats;
    }

    /**
     * Writes a flush that no earlier attempt can have committed. Its increments of bounded
     * counters are first tried on the flusher's allowances, if {@code tryAllowances}; where an
     * allowance does not cover them, the transaction is rolled back and written again with them
     * decided under the counters' locks ({@link BoundedCounters}).
     *
     * @param verdicts filled with what each keyed increment's key found
     * @param learn the counters whose totals to learn before COMMIT
     * @param commit passed right before COMMIT is sent
     * @param tryAllowances false when a try at spending the allowances has just failed
     * @return the totals learned, none if {@code learn} is empty
     */
    Map<CounterKey, Long> write(Connection connection, Flush flush, long seq, Map<Pending, IdempotencyKeys.Verdict> verdicts,
            Set<CounterKey> learn, FlushAttempts.CommitPoint commit, boolean tryAllowances) throws SQLException {
        begin(connection, flush);
        if (tryAllowances && bounded.anyBounded(flush.sums().keySet()) && bounded.spends(Flush.keysOf(flush.pending()),
                Flush.deltasOf(flush.pending()), flush.sums(), held.allowanceSlot()).isPresent()) {
            Optional<Map<CounterKey, Long>> totals = claimAndWrite(connection, flush, seq, verdicts, learn, commit,
                    true);
            if (totals.isPresent()) {
                return totals.get();
            }
            connection.rollback();
        }
        return claimAndWrite(connection, flush, seq, verdicts, learn, commit, false).orElseThrow();
    }

    /**
     * Writes a flush that an earlier attempt, whose COMMIT was cut off, may have committed: only
     * if neither the mark nor the ledger shows that it did.
     *
     * @param verdicts filled with what each keyed increment's key found
     * @param learn the counters whose totals to learn before COMMIT, if the flush is written now
     * @param commit passed right before COMMIT is sent
     * @return the totals learned; none if the flush had landed before, when they are read after
     */
    Map<CounterKey, Long> resolve(Connection connection, Flush flush, long seq,
            Map<Pending, IdempotencyKeys.Verdict> verdicts, Set<CounterKey> learn, FlushAttempts.CommitPoint commit)
            throws SQLException {
        begin(connection, flush);
        if (ledger.markShows(connection, seq)) {
            if (!ledger.claimed(connection, seq)) {
                flush.clearRefusals(); // it landed as one statement, which applies every increment
            }
            landedBefore(connection, flush, seq, verdicts);
            return Map.of();
        }
        return claimAndWrite(connection, flush, seq, verdicts, learn, commit, false).orElseThrow();
    }

    /**
     * Opens the transaction. Expired keys are pruned, when due, by the flushes that record keys,
     * before they record theirs: a key past its retention is then forgotten by the time a write
     * with the same key is decided, as in {@code DIRECT} mode; flushes without keys never wait for
     * it.
     */
    private void begin(Connection connection, Flush flush) throws SQLException {
        connection.setAutoCommit(false);
        if (!flush.keyed().isEmpty()) {
            keys.pruneIfDue(connection, database.dialect());
        }
    }

    /**
     * Claims the flush's number and writes the flush. With {@code fromAllowances}, its increments
     * of bounded counters are spent from the flusher's allowances; if one does not cover them,
     * this answers empty, and the caller rolls back. Without, they are decided under the
     * counters' locks.
     */
    private Optional<Map<CounterKey, Long>> claimAndWrite(Connection connection, Flush flush, long seq,
            Map<Pending, IdempotencyKeys.Verdict> verdicts, Set<CounterKey> learn, FlushAttempts.CommitPoint commit,
            boolean fromAllowances) throws SQLException {
        if (ledger.claim(connection, seq) == FlushLedger.Claim.ALREADY_COMMITTED) {
            landedBefore(connection, flush, seq, verdicts);
            return Optional.of(Map.of());
        }
        Dialect dialect = database.dialect();
        Deltas applied = recordKeys(connection, flush, seq, verdicts);
        expiring.lockAndClear(connection, dialect, applied.counters().keySet());
        if (fromAllowances) {
            if (!spendAllowances(connection, flush, verdicts, applied)) {
                return Optional.empty();
            }
        } else {
            decideLimits(connection, flush, verdicts, applied);
        }
        OneRowPerBucket.Rows rows = oneRowPerBucket.split(applied.counterRows(held::slotFor),
                applied.bucketRows(held::slotFor), Integer.MAX_VALUE);
        SlotRows.upsert(connection, dialect, database.table(), rows.rows());
        BucketRows.upsert(connection, dialect, database.buckets(), rows.bucketRows());
        Map<CounterKey, Long> totals = learn.isEmpty() ? Map.of()
                : WrittenTotals.query(connection, dialect, database.table(), learn);
        commit.pass();
        connection.commit();
        return Optional.of(totals);
    }

    /**
     * An earlier attempt committed the flush: learn what its keys found then, and write nothing.
     * The keys' rows name the flush that recorded them, which tells a key this flush applied from
     * one an earlier request had. A keyed flush shows in the mark too, not only in the claim: when
     * a retry that fenced the mark and wrote the flush lost its own COMMIT, and landed.
     */
    private void landedBefore(Connection connection, Flush flush, long seq,
            Map<Pending, IdempotencyKeys.Verdict> verdicts) throws SQLException {
        Set<String> seen = new HashSet<>();
        for (Pending keyed : flush.keyed()) {
            verdicts.put(keyed, keys.recall(connection, database.dialect(), keyed.idempotencyKey(),
                    IdempotencyKeys.fingerprint(keyed.key(), keyed.delta()), flushRef(seq),
                    seen.add(keyed.idempotencyKey())));
        }
        connection.rollback();
        stats.outcomeResolved();
    }

    /**
     * Records each keyed increment's key; an increment whose key is a replay or a conflict is
     * taken back out of the sums, so that only new keys' increments are written.
     */
    private Deltas recordKeys(Connection connection, Flush flush, long seq,
            Map<Pending, IdempotencyKeys.Verdict> verdicts) throws SQLException {
        Deltas applied = flush.deltas().copy();
        for (Pending keyed : flush.keyed()) {
            IdempotencyKeys.Verdict verdict = keys.record(connection, database.dialect(), keyed.idempotencyKey(),
                    IdempotencyKeys.fingerprint(keyed.key(), keyed.delta()), flushRef(seq));
            verdicts.put(keyed, verdict);
            if (verdict.outcome() != IdempotencyKeys.Outcome.APPLIED) {
                applied.remove(keyed.key(), keyed.bucketStart(), keyed.delta());
            }
        }
        return applied;
    }

    /**
     * Spends the increments of bounded counters from the flusher's allowances, taking each spent
     * sum out of the rows to write; false if an allowance does not cover its counter's increments,
     * or a counter must be decided under its lock.
     */
    private boolean spendAllowances(Connection connection, Flush flush, Map<Pending, IdempotencyKeys.Verdict> verdicts,
            Deltas applied) throws SQLException {
        List<Pending> decided = decided(flush, verdicts);
        Optional<List<AllowanceSpend>> spends = bounded.spends(Flush.keysOf(decided), Flush.deltasOf(decided),
                applied.counters(), held.allowanceSlot());
        if (spends.isEmpty() || !bounded.spend(connection, spends.get())) {
            return false;
        }
        spends.get().forEach(spend -> applied.counters().remove(spend.key()));
        return true;
    }

    /**
     * Decides the increments of bounded counters under each counter's lock
     * ({@link BoundedCounters}); a refused increment is taken back out of the sums. An increment
     * whose key showed a replay or a conflict is not decided: it is not applied either way. What
     * this attempt decides replaces what an earlier one did, which did not commit.
     */
    private void decideLimits(Connection connection, Flush flush, Map<Pending, IdempotencyKeys.Verdict> verdicts,
            Deltas applied) throws SQLException {
        flush.clearRefusals();
        if (!bounded.anyBounded(flush.sums().keySet())) {
            return;
        }
        List<Pending> decided = decided(flush, verdicts);
        Decided decisions = bounded.decide(connection, database.dialect(),
                Flush.keysOf(decided), Flush.deltasOf(decided), Flush.windowsOf(decided), held.allowanceSlot());
        for (int i = 0; i < decided.size(); i++) {
            Pending increment = decided.get(i);
            LimitExceededException refusal = decisions.refusals().get(i);
            if (refusal != null) {
                applied.remove(increment.key(), increment.bucketStart(), increment.delta());
                flush.refuse(increment, refusal);
            } else if (decisions.windowCounts().containsKey(i)) {
                flush.countInWindow(increment, decisions.windowCounts().get(i));
            }
        }
    }

    /**
     * The increments to decide, in their order: all but those whose key showed a replay or a
     * conflict, which are not applied either way.
     */
    private static List<Pending> decided(Flush flush, Map<Pending, IdempotencyKeys.Verdict> verdicts) {
        List<Pending> decided = new ArrayList<>();
        for (Pending increment : flush.pending()) {
            IdempotencyKeys.Verdict verdict = verdicts.get(increment);
            if (verdict == null || verdict.outcome() == IdempotencyKeys.Outcome.APPLIED) {
                decided.add(increment);
            }
        }
        return decided;
    }

    /** How the keys' rows name this flush. */
    private String flushRef(long seq) {
        return ledger.flusherId() + ":" + seq;
    }
}
