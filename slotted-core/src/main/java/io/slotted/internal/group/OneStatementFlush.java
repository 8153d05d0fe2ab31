package io.slotted.internal.group;

import io.slotted.internal.dialect.BucketRow;
import io.slotted.internal.dialect.Dialect;
import io.slotted.internal.dialect.SlotRow;
import io.slotted.internal.group.commit.FlushAttempts;
import io.slotted.internal.group.commit.FlushLedger;
import io.slotted.internal.group.commit.HeldConnection;
import io.slotted.internal.jdbc.Database;
import io.slotted.internal.sql.CounterKey;
import io.slotted.internal.write.BoundedCounters;
import io.slotted.internal.write.BucketRows;
import io.slotted.internal.write.WrittenTotals;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The common flush as one statement: the flusher's mark set to the flush's number and the slot
 * rows' deltas added, in one multi-row upsert in auto-commit ({@link Dialect#oneStatementFlushSql}).
 * That is one round trip and one commit, as a {@code DIRECT} increment, with one more row, and no
 * second table: a ledger row in a transaction costs the server about as much as the whole upsert.
 *
 * <p>It serves a flush that carries no idempotency keys (only the ledger's transaction records
 * them), has rows to write, and has no more counters than the dialect puts in one statement
 * ({@link Dialect#rowsPerAddingStatement}), on a database that has the upsert; and only as a flush's first try, or a retry after failures that left nothing
 * behind. When counters of the flush keep time buckets, the statement and the bucket rows'
 * upserts go as one batch in a transaction, which the drivers send in one round trip, and commit
 * together.
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

    OneStatementFlush(Database database, FlushLedger ledger, HeldConnection held, BoundedCounters bounded) {
        this.bounded = bounded;
        this.database = database;
        this.ledger = ledger;
        this.held = held;
    }

    /**
     * The flush as one statement, if it has no idempotency keys and no counter with limits (whose
     * increments are decided under a lock, in a transaction), has rows to write, fits one
     * statement, and the database has the upsert for it. Picks the flush's slots: the registry
     * must be current.
     */
    Optional<String> statement(Flush flush, long seq) {
        if (!flush.keyed().isEmpty() || flush.counters() > database.dialect().rowsPerAddingStatement()
                || bounded.anyBounded(flush.sums().keySet())) {
            return Optional.empty();
        }
        List<SlotRow> rows = flush.deltas().counterRows(held::slotFor);
        if (rows.isEmpty()) {
            return Optional.empty();
        }
        return database.dialect().oneStatementFlushSql(database.table(), ledger.mark(seq), rows);
    }

    /**
     * Writes the flush's statement: alone in auto-commit when no counter of the flush keeps time
     * buckets; otherwise in a transaction, followed by the bucket rows and COMMIT. Either way the
     * mark commits with the rows, so a lost commit is resolved as for any marked flush.
     *
     * <p>The totals of the counters in {@code learn} come with the statement where the
     * connections take several statements in one packet; else from a query right after it in
     * auto-commit, or before COMMIT in the transaction (see {@link WrittenTotals}). The query
     * after an auto-commit flush follows a flush that has landed: if it fails, the flush stands
     * and the totals are read again as reads do.
     *
     * @param statement the flush's statement, from {@link #statement}
     * @param learn the counters whose totals to learn
     * @param commit passed before anything is sent: the statement commits itself
     * @return the totals learned, none if {@code learn} is empty
     */
    Map<CounterKey, Long> write(Connection connection, Flush flush, String statement, Set<CounterKey> learn,
            FlushAttempts.CommitPoint commit) throws SQLException {
        List<BucketRow> bucketRows = flush.deltas().bucketRows(held::slotFor);
        connection.setAutoCommit(bucketRows.isEmpty());
        commit.pass();
        if (bucketRows.isEmpty()) {
            return alone(connection, statement, learn);
        }
        return withBuckets(connection, statement, bucketRows, learn);
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

    private Map<CounterKey, Long> withBuckets(Connection connection, String marked, List<BucketRow> bucketRows,
            Set<CounterKey> learn) throws SQLException {
        Dialect dialect = database.dialect();
        try (Statement statement = connection.createStatement()) {
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
}
