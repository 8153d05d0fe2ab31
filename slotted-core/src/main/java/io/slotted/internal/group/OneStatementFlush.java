package io.slotted.internal.group;

import io.slotted.SlottedException;
import io.slotted.internal.dialect.BucketRow;
import io.slotted.internal.dialect.Dialect;
import io.slotted.internal.dialect.PreparedFlush;
import io.slotted.internal.dialect.SlotRow;
import io.slotted.internal.dialect.statements.AllowanceSpend;
import io.slotted.internal.dialect.statements.SpendStatements;
import io.slotted.internal.expiry.ExpiringCounters;
import io.slotted.internal.group.commit.FlushAttempts;
import io.slotted.internal.group.commit.FlushLedger;
import io.slotted.internal.group.commit.HeldConnection;
import io.slotted.internal.jdbc.Database;
import io.slotted.internal.sql.CounterKey;
import io.slotted.internal.sql.FlushMark;
import io.slotted.internal.sql.TableName;
import io.slotted.internal.write.BoundedCounters;
import io.slotted.internal.write.BucketRows;
import io.slotted.internal.write.SlotRows;
import io.slotted.internal.write.WrittenTotals;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The common flush as one statement: the flusher's mark set to the flush's number and the slot
 * rows' deltas added, in one multi-row upsert in auto-commit ({@link Dialect#oneStatementFlushSql}).
 * That is one round trip and one commit, as a {@code DIRECT} increment, with one more row, and no
 * second table: a ledger row in a transaction costs the server about as much as the whole upsert.
 *
 * <p>It serves a flush that carries no idempotency keys (only the ledger's transaction records
 * them), has rows to write, and has no more counters than the dialect puts in one statement
 * ({@link Dialect#rowsPerAddingStatement}) and no counter of an expiring type, on a database that
 * has the upsert; and only as a flush's first try, or a retry after failures that left nothing
 * behind. A counter that keeps time buckets is written as its pending rows, one per bucket, in
 * the same upsert ({@link OneRowPerBucket}). One whose type cannot (limits, an owner column it
 * folds into) keeps its bucket rows: in the same statement where the database writes two tables in
 * one ({@link Dialect#oneStatementBucketedFlushSql}); elsewhere the statement and the bucket rows'
 * upserts go as one batch in a transaction, which the drivers send in one round trip, and commit
 * together. A flush whose bounded counters the
 * flusher's allowances can take spends them and sets the mark in one statement
 * ({@link SpendStatements#andMarkAlone}), alone when it has nothing else to write, else in a
 * transaction with the other rows after it.
 *
 * <p>Its statement commits itself, so once it is sent a lost connection leaves the outcome
 * unknown, and every later attempt goes through {@link LedgerFlush#resolve}, which looks for the
 * mark. The statement sets the mark only where the mark does not hold the flush's number yet
 * ({@link FlushLedger}: the retry fences it), so a statement held up on its way until after its
 * retry was written fails whole instead of counting twice.
 */
final class OneStatementFlush {
    private final Database database;
    private final FlushLedger ledger;
    private final HeldConnection held;
    private final BoundedCounters bounded;
    private final ExpiringCounters expiring;
    private final OneRowPerBucket oneRowPerBucket;

    OneStatementFlush(Database database, FlushLedger ledger, HeldConnection held, BoundedCounters bounded,
            ExpiringCounters expiring, OneRowPerBucket oneRowPerBucket) {
        this.oneRowPerBucket = oneRowPerBucket;
        this.bounded = bounded;
        this.expiring = expiring;
        this.database = database;
        this.ledger = ledger;
        this.held = held;
    }

    /**
     * The flush as one statement, if it has no idempotency keys, fits one statement, and the
     * database has the upsert for it. A flush with increments of bounded counters that the
     * flusher's allowances can take ({@link BoundedCounters#spends}) spends them and sets the mark
     * in one statement instead, with the other counters' rows upserted after it; one with a
     * counter that must be decided under its lock has none. Picks the flush's slots: the registry
     * must be current.
     *
     * @param prepare whether a statement that commits by itself goes prepared where the dialect
     *     has it: when no caller waits for a total, which a prepared statement does not answer
     */
    Optional<Marked> statement(Flush flush, long seq, boolean prepare) {
        Dialect dialect = database.dialect();
        if (!flush.keyed().isEmpty() || flush.counters() > dialect.rowsPerAddingStatement()
                || expiring.anyExpiring(flush.sums().keySet())) {
            return Optional.empty(); // an expiring counter is written under its expiry lock, in a transaction
        }
        List<AllowanceSpend> spends = List.of();
        if (bounded.anyBounded(flush.sums().keySet())) {
            Optional<List<AllowanceSpend>> fromAllowances = bounded.spends(Flush.keysOf(flush.pending()),
                    Flush.deltasOf(flush.pending()), flush.sums(), held.allowanceSlot());
            if (fromAllowances.isEmpty()) {
                return Optional.empty();
            }
            spends = fromAllowances.get();
        }
        Set<CounterKey> spent = spends.stream().map(AllowanceSpend::key).collect(Collectors.toSet());
        List<SlotRow> counterRows = new ArrayList<>(flush.deltas().counterRows(held::slotFor));
        counterRows.removeIf(row -> spent.contains(row.key()));
        OneRowPerBucket.Rows split = oneRowPerBucket.split(counterRows, flush.deltas().bucketRows(held::slotFor),
                dialect.rowsPerAddingStatement());
        List<SlotRow> rows = split.rows();
        List<BucketRow> bucketRows = split.bucketRows();
        if (spends.isEmpty()) {
            return rows.isEmpty() ? Optional.empty() : upsert(ledger.mark(seq), rows, bucketRows, prepare);
        }
        int spendCount = spends.size();
        if (!ledger.markCertain()) {
            return Optional.empty(); // an UPDATE of a mark pruned as abandoned would spend unmarked
        }
        Optional<SpendStatements> spending = dialect.spendStatements(database.table());
        if (spending.isEmpty()) {
            return Optional.empty();
        }
        if (rows.isEmpty() && bucketRows.isEmpty()) {
            return Optional.of(new Marked(spending.get().andMarkAlone(ledger.mark(seq), spends), spendCount + 1,
                    List.of(), List.of(), true, Optional.empty()));
        }
        return Optional.of(new Marked(spending.get().andMark(ledger.mark(seq), spends), spendCount + 1, rows,
                bucketRows, false, Optional.empty()));
    }

    /**
     * The upsert that sets the mark and adds the slot rows: with the bucket rows in it where the
     * database writes both tables in one statement, else with the bucket rows left for the
     * transaction that sends it. Only the form that is sent is built, prepared or text: a flush
     * builds one on every try.
     */
    private Optional<Marked> upsert(FlushMark mark, List<SlotRow> rows, List<BucketRow> bucketRows,
            boolean prepare) {
        Dialect dialect = database.dialect();
        TableName table = database.table();
        if (bucketRows.isEmpty()) {
            Optional<PreparedFlush> prepared = prepare ? dialect.oneStatementFlushPrepared(table, mark, rows)
                    : Optional.empty();
            if (prepared.isPresent()) {
                return Optional.of(Marked.prepared(prepared.get()));
            }
            return dialect.oneStatementFlushSql(table, mark, rows)
                    .map(sql -> new Marked(sql, 0, List.of(), List.of(), true, Optional.empty()));
        }
        if (bucketRows.size() <= dialect.rowsPerAddingStatement()) {
            Optional<PreparedFlush> prepared = prepare
                    ? dialect.oneStatementBucketedFlushPrepared(table, database.buckets(), mark, rows, bucketRows)
                    : Optional.empty();
            if (prepared.isPresent()) {
                return Optional.of(Marked.prepared(prepared.get()));
            }
            Optional<String> bucketed = dialect.oneStatementBucketedFlushSql(table, database.buckets(), mark, rows,
                    bucketRows);
            if (bucketed.isPresent()) {
                return Optional.of(new Marked(bucketed.get(), 0, List.of(), List.of(), true, Optional.empty()));
            }
        }
        return dialect.oneStatementFlushSql(table, mark, rows)
                .map(sql -> new Marked(sql, 0, List.of(), bucketRows, true, Optional.empty()));
    }

    /**
     * Writes the flush's statement: alone in auto-commit when it spends no allowance and no
     * counter of the flush keeps time buckets. Otherwise in a transaction: the statement and the
     * bucket rows' upserts as one batch, which the drivers send in one round trip, then, after
     * spends, the other counters' rows, and COMMIT. Either way the mark commits with the rows, so
     * a lost commit is resolved as for any marked flush. If an allowance did not cover its spend,
     * the transaction is rolled back and nothing is written: the caller then decides the flush's
     * increments under the counters' locks.
     *
     * <p>The totals of the counters in {@code learn} come with the statement where the
     * connections take several statements in one packet; else from a query right after it in
     * auto-commit, or before COMMIT in the transaction (see {@link WrittenTotals}). The query
     * after an auto-commit flush follows a flush that has landed: if it fails, the flush stands
     * and the totals are read again as reads do.
     *
     * @param marked the flush's statement, from {@link #statement}
     * @param learn the counters whose totals to learn
     * @param commit passed before the statement that commits is sent
     * @return the totals learned, none if {@code learn} is empty; empty if an allowance did not
     *     cover its spend
     */
    Optional<Map<CounterKey, Long>> write(Connection connection, Flush flush, Marked marked, Set<CounterKey> learn,
            FlushAttempts.CommitPoint commit) throws SQLException {
        boolean alone = marked.alone() && marked.bucketRows().isEmpty();
        connection.setAutoCommit(alone);
        if (alone && marked.spends()) {
            commit.pass();
            return spendAlone(connection, marked, learn);
        }
        if (marked.prepared().isPresent()) {
            commit.pass();
            PreparedFlush prepared = marked.prepared().get();
            try (PreparedStatement statement = connection.prepareStatement(prepared.sql())) {
                long[] parameters = prepared.parameters();
                for (int i = 0; i < parameters.length; i++) {
                    statement.setLong(i + 1, parameters[i]);
                }
                statement.executeUpdate();
            }
            return Optional.of(Map.of());
        }
        if (alone) {
            commit.pass();
            return Optional.of(alone(connection, marked.sql(), learn));
        }
        if (!marked.spends()) {
            commit.pass(); // the statement begins as a flush that commits by itself, for the fault proxy
        }
        return inTransaction(connection, marked, learn, commit);
    }

    private Map<CounterKey, Long> alone(Connection connection, String marked, Set<CounterKey> learn)
            throws SQLException {
        Dialect dialect = database.dialect();
        try (Statement statement = connection.createStatement()) {
            Optional<String> answering = learn.isEmpty() ? Optional.empty() : answeringTotals(dialect, marked, learn);
            if (answering.isPresent()) {
                return WrittenTotals.execute(statement, answering.get());
            }
            statement.executeUpdate(marked);
        }
        return learn.isEmpty() ? Map.of() : totalsAfterLanding(connection, dialect, learn);
    }

    /**
     * The spends and the mark as one statement that commits by itself: it lands whole, or fails
     * with an error of its own, having changed nothing, when an allowance did not cover its spend
     * ({@link SpendStatements#andMarkAlone}).
     */
    private Optional<Map<CounterKey, Long>> spendAlone(Connection connection, Marked marked, Set<CounterKey> learn)
            throws SQLException {
        Dialect dialect = database.dialect();
        try (Statement statement = connection.createStatement()) {
            int updated = statement.executeUpdate(marked.sql());
            if (updated != marked.rowsToUpdate()) {
                // A row it names was not there: an allowance row, which Slotted never deletes, or
                // the mark, which it prunes only from a flusher long gone (FlushLedger#markCertain).
                throw new SlottedException("a flush updated " + updated + " rows instead of " + marked.rowsToUpdate()
                        + ": an allowance row of a bounded counter (slot below 0) or the flusher's mark was deleted"
                        + " while it was being spent; allowance rows must not be deleted by hand");
            }
        } catch (SQLException e) {
            if (dialect.spendStatements(database.table()).filter(spending -> spending.fellShort(e)).isPresent()) {
                return Optional.empty();
            }
            throw e;
        }
        return Optional.of(learn.isEmpty() ? Map.of() : totalsAfterLanding(connection, dialect, learn));
    }

    private Optional<Map<CounterKey, Long>> inTransaction(Connection connection, Marked marked,
            Set<CounterKey> learn, FlushAttempts.CommitPoint commit) throws SQLException {
        Dialect dialect = database.dialect();
        try (Statement statement = connection.createStatement()) {
            statement.addBatch(marked.sql());
            for (String upsert : BucketRows.statements(dialect, database.buckets(), marked.bucketRows())) {
                statement.addBatch(upsert);
            }
            int[] updated = statement.executeBatch();
            if (marked.spends() && updated[0] != marked.rowsToUpdate()) {
                connection.rollback();
                return Optional.empty();
            }
        }
        SlotRows.upsert(connection, dialect, database.table(), marked.rowsAfter());
        Map<CounterKey, Long> totals = learn.isEmpty() ? Map.of()
                : WrittenTotals.query(connection, dialect, database.table(), learn);
        commit.pass();
        connection.commit();
        return Optional.of(totals);
    }

    /**
     * The flush followed by the query of its totals in the same packet, one round trip, where the
     * data source's connections take several statements; empty otherwise.
     */
    private Optional<String> answeringTotals(Dialect dialect, String marked, Set<CounterKey> learn) {
        return held.takesMultiStatements()
                ? dialect.flushThenTotalsSql(marked, dialect.totalsSql(database.table(), learn))
                : Optional.empty();
    }

    /** A failed query drops the connection, which may be broken: the flush itself stands. */
    private Map<CounterKey, Long> totalsAfterLanding(Connection connection, Dialect dialect, Set<CounterKey> learn) {
        try {
            return WrittenTotals.query(connection, dialect, database.table(), learn);
        } catch (SQLException e) {
            held.release();
            return Map.of();
        }
    }

    /**
     * A flush's statement, and what goes with it.
     *
     * @param sql the statement that sets the mark: the upsert of the flush's rows, or the spends
     *     from allowances; when {@code prepared} is present, its text, with places for the numbers
     * @param rowsToUpdate for spends, the rows the statement updates if every allowance covered
     *     its spend, the mark's included; 0 for an upsert
     * @param rowsAfter for spends in a transaction, the other counters' rows, upserted after it
     * @param bucketRows the bucket rows the statement does not write itself, upserted with it in
     *     a transaction
     * @param alone whether the statement commits by itself, in auto-commit, when it leaves no
     *     bucket rows to write
     * @param prepared the statement with its numbers as parameters, sent instead of text: built
     *     only for a statement that commits by itself when no caller waits for a total, where the
     *     dialect has it
     */
    record Marked(String sql, int rowsToUpdate, List<SlotRow> rowsAfter, List<BucketRow> bucketRows, boolean alone,
            Optional<PreparedFlush> prepared) {
        /** The upsert, prepared, that commits by itself and leaves nothing to a transaction. */
        static Marked prepared(PreparedFlush prepared) {
            return new Marked(prepared.sql(), 0, List.of(), List.of(), true, Optional.of(prepared));
        }

        /** Whether the statement spends from allowances. */
        boolean spends() {
            return rowsToUpdate > 0;
        }
    }
}
