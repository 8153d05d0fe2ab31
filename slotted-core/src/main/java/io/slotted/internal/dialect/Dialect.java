package io.slotted.internal.dialect;

import io.slotted.OwnerColumn;
import io.slotted.internal.dialect.schema.SchemaScript;
import io.slotted.internal.dialect.statements.BucketStatements;
import io.slotted.internal.dialect.statements.ExpiryStatements;
import io.slotted.internal.dialect.statements.KeyStatements;
import io.slotted.internal.dialect.statements.LedgerStatements;
import io.slotted.internal.dialect.statements.NameStatements;
import io.slotted.internal.dialect.statements.OwnerStatements;
import io.slotted.internal.dialect.statements.RegistryStatements;
import io.slotted.internal.dialect.statements.SlotStatements;
import io.slotted.internal.dialect.statements.SpendStatements;
import io.slotted.internal.sql.CounterKey;
import io.slotted.internal.sql.FlushMark;
import io.slotted.internal.sql.SlotRange;
import io.slotted.internal.sql.TableName;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;
import java.sql.Statement;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * What differs between databases: the upsert statement, the DDL, and what an error code means.
 *
 * <p>Failures are classified by SQLState and vendor code, never by exception class alone, because
 * drivers disagree: MariaDB Connector/J reports a lock-wait timeout as 1205/HY000 while MySQL
 * Connector/J reports 1205/40001, and PostgreSQL uses its own 55P03 and 40P01. The codes shared
 * by the standard (class 08 for connections, 22003 for numeric overflow, 40001 for serialization)
 * are decided here; each dialect adds its vendor's codes.
 */
public abstract class Dialect {
    /**
     * Begins every one-statement flush, so that it can be told apart in the server's process list
     * and logs (and by the tests' fault proxy, which cuts connections as it passes).
     */
    public static final String FLUSH_COMMENT = "/* slotted flush */ ";

    /**
     * The database's name for messages and reports.
     *
     * @return a short name such as {@code MariaDB}
     */
    public abstract String name();

    /**
     * The statements of a flush ledger and its flushers' marks.
     *
     * @param counters the counter table, which holds the marks
     * @param ledger the ledger table
     * @return the statements
     */
    public LedgerStatements ledgerStatements(TableName counters, TableName ledger) {
        return new LedgerStatements(counters, ledger);
    }

    /**
     * The statements of a type registry.
     *
     * @param registry the registry table
     * @return the statements
     */
    public RegistryStatements registryStatements(TableName registry) {
        return new RegistryStatements(registry);
    }

    /**
     * The statements that read, lock and delete slot rows outside the flush.
     *
     * @param counters the counter table
     * @return the statements
     */
    public SlotStatements slotStatements(TableName counters) {
        return new SlotStatements(counters);
    }

    /**
     * The statements that read, lock and delete time bucket rows outside the flush.
     *
     * @param buckets the bucket table
     * @param counters the counter table, which holds the pending rows of buckets
     * @return the statements
     */
    public BucketStatements bucketStatements(TableName buckets, TableName counters) {
        return new BucketStatements(buckets, counters);
    }

    /**
     * The statements of an idempotency key table: recording a key is each database's own.
     *
     * @param keys the key table
     * @return the statements
     */
    public abstract KeyStatements keyStatements(TableName keys);

    /**
     * The statements of the expiry table: creating its missing rows is each database's own.
     *
     * @param expiry the expiry table
     * @param counters the counter table
     * @return the statements
     */
    public abstract ExpiryStatements expiryStatements(TableName expiry, TableName counters);

    /**
     * The statements that read and write a type's owner column beside its slot rows.
     *
     * @param owner the owner column
     * @param slots the counter table
     * @return the statements
     */
    public OwnerStatements ownerStatements(OwnerColumn owner, TableName slots) {
        return new OwnerStatements(owner, slots);
    }

    /**
     * The folder of the database's schema file in the jar ({@link SchemaScript}).
     *
     * @return one of {@link SchemaScript#DATABASES}
     */
    public abstract String schemaDatabase();

    /**
     * The database's schema file: the DDL of every table, the one source {@code migrate()} runs.
     *
     * @return the file
     */
    public final SchemaScript schemaScript() {
        return SchemaScript.of(schemaDatabase());
    }

    /**
     * The database's schema file that upgrades a schema made before versions were recorded.
     *
     * @return the file
     */
    public final SchemaScript schemaUpgradeFromUnversioned() {
        return SchemaScript.fromUnversioned(schemaDatabase());
    }

    /**
     * The query of the schema version recorded in the schema table: one row, null when it holds none.
     *
     * @param schema the schema table
     * @return the SQL text
     */
    public String schemaVersionSql(TableName schema) {
        return "SELECT MAX(version) FROM " + schema;
    }

    /**
     * Whether the database's JDBC metadata names a schema (a database, in MariaDB's words) as a
     * catalog, as MariaDB's and MySQL's drivers do, rather than as a schema.
     *
     * @return true when a table's schema is looked up as its catalog
     */
    public boolean catalogsAreSchemas() {
        return false;
    }

    /**
     * The statements of the name dictionary: its claim is each database's own.
     *
     * @param names the checked dictionary table name
     * @return the statements
     */
    public abstract NameStatements nameStatements(TableName names);

    /** {@code count} tuples of {@code width} parameters each: {@code (?, ?), (?, ?)}. */
    protected static String parameterTuples(int count, int width) {
        String tuple = "(" + String.join(", ", Collections.nCopies(width, "?")) + ")";
        return String.join(", ", Collections.nCopies(count, tuple));
    }

    /**
     * One statement that adds each row's delta to its bucket slot row, creating rows that are
     * missing, with the values written into the text. Only numbers are written in. The rows must
     * name distinct bucket slot rows, in the order their locks are to be taken.
     *
     * @param buckets the checked bucket table name
     * @param rows the bucket slot rows and their deltas
     * @return the SQL text
     */
    public abstract String upsertBucketsSql(TableName buckets, List<BucketRow> rows);

    /**
     * How many rows one statement that adds to rows may carry. A thousand keeps a statement's
     * text to tens of kilobytes, well under every server's packet limit.
     *
     * @return the most rows per statement
     */
    public int rowsPerAddingStatement() {
        return 1_000;
    }

    /** The bucket rows as comma-separated tuples. */
    protected static String bucketTuples(List<BucketRow> rows) {
        StringBuilder text = new StringBuilder(rows.size() * 40);
        for (BucketRow row : rows) {
            text.append(text.length() == 0 ? "" : ", ").append(row.tuple());
        }
        return text.toString();
    }

    /**
     * Whether an existing idempotency key column compares keys exactly; one made by an earlier
     * release may not, and is converted by the statement of the schema file that upgrades it.
     *
     * @param jdbcType the existing column's {@link java.sql.Types} constant
     * @return true where nothing needs converting
     */
    public boolean keyColumnComparesExactly(int jdbcType) {
        return true;
    }

    /**
     * A slot row's new value, checked by the database: {@code value} itself, or the statement
     * fails with the database's out-of-range error when it leaves what a slot row may hold (see
     * {@link SlotRange}). Every upsert writes an existing row's new count through this.
     *
     * @param value the new count, an expression over the row and the inserted values
     * @return the checked expression
     */
    protected String checkedSlotValue(String value) {
        // Widened first: an INT count column (the original pattern's table) would otherwise multiply in 32 bits.
        return "(CAST(" + value + " AS BIGINT) * " + SlotRange.CHECK_FACTOR + " / " + SlotRange.CHECK_FACTOR + ")";
    }

    /**
     * The isolation level whose transactions read one snapshot of the whole database, for reads
     * that must see every table as of one moment (a recount's source and counters).
     *
     * @return a {@link Connection} isolation constant
     */
    public int snapshotIsolation() {
        return Connection.TRANSACTION_REPEATABLE_READ;
    }

    /**
     * Whether a transaction at the connection's default isolation keeps one snapshot from its
     * first plain read on: InnoDB's {@code REPEATABLE READ}. A write transaction there runs at
     * {@code READ COMMITTED} instead ({@code Transactions.readCommitted}), since its reads
     * after its locks (a registry read, the totals it learns before COMMIT) must see every row as
     * committed then: at a snapshot taken before another counter's locks, the totals learned mixed
     * rows as they were with rows as this transaction wrote them. PostgreSQL and H2 read committed
     * by default, and are left as they are, at no cost.
     *
     * @return true if write transactions ask for {@code READ COMMITTED}
     */
    public boolean snapshotPerTransactionByDefault() {
        return false;
    }

    /**
     * Whether one statement reading two tables sees both as of one moment. True where each
     * statement reads one snapshot (MariaDB and MySQL's InnoDB, PostgreSQL); where it is false, a
     * fold-mode read runs in a {@link #snapshotIsolation()} transaction instead.
     *
     * @return true if a single statement is enough
     */
    public boolean statementReadsOneSnapshot() {
        return true;
    }

    /**
     * The storage parameters a table has set, each {@code name=value}.
     *
     * @param connection an open connection
     * @param table the table
     * @return the parameters; empty where the database has none
     * @throws SQLException if the catalog cannot be read
     */
    public List<String> tableParameters(Connection connection, TableName table) throws SQLException {
        return List.of();
    }

    /**
     * The statement that sets storage parameters on a table.
     *
     * @param table the table
     * @param parameters each {@code name=value}
     * @return the SQL text
     * @throws UnsupportedOperationException where the database has no storage parameters
     */
    public String setTableParametersSql(TableName table, List<String> parameters) {
        throw new UnsupportedOperationException(name() + " has no storage parameters");
    }

    /**
     * A statement that adds a delta to one slot row, creating the row if it is missing. Its
     * parameters are bound by {@link #bindUpsert}.
     *
     * @param table the checked table name
     * @return the SQL text
     */
    public abstract String upsertSql(TableName table);

    /**
     * Binds one slot row's values to a statement made from {@link #upsertSql}.
     *
     * @param statement the prepared upsert
     * @param row the slot row and the amount to add to it
     * @throws SQLException if the driver rejects a value
     */
    public final void bindUpsert(PreparedStatement statement, SlotRow row) throws SQLException {
        long[] values = upsertValues(row.key(), row.slot(), row.delta());
        for (int i = 0; i < values.length; i++) {
            statement.setLong(i + 1, values[i]);
        }
    }

    /**
     * The flush as one statement, where this database can write it so: the flusher's mark set to
     * the flush's number and the slot rows' deltas added, in one multi-row upsert that commits on
     * its own (the connection in auto-commit) and so lands whole or not at all. The mark goes
     * first, as its record type sorts first, keeping rows in lock order, and is set only if it
     * holds a lower number ({@link FlushMark#unlessFenced}). Only numbers are
     * written into the text. Empty where the database has no such upsert; the flush then claims
     * its number in the ledger in a transaction.
     *
     * @param table the checked counter table name
     * @param mark the flusher's mark with this flush's number
     * @param rows the slot rows and their deltas, in lock order
     * @return the statement, or empty
     */
    public Optional<String> oneStatementFlushSql(TableName table, FlushMark mark, List<SlotRow> rows) {
        return Optional.empty();
    }

    /**
     * {@link #oneStatementFlushSql} with its numbers as parameters, where planning the statement
     * costs the database more than sending it: the text is then the same for every flush of as
     * many rows, and the driver prepares it once. Empty where the text is as good (the default).
     *
     * @param table the checked counter table name
     * @param mark the flusher's mark with this flush's number
     * @param rows the slot rows and their deltas, in lock order
     * @return the statement and its parameters, or empty
     */
    public Optional<PreparedFlush> oneStatementFlushPrepared(TableName table, FlushMark mark, List<SlotRow> rows) {
        return Optional.empty();
    }

    /**
     * {@link #oneStatementFlushSql} for a flush whose counters keep time buckets: the mark, the
     * slot rows and the bucket rows written by one statement that commits by itself, counter rows
     * locked before bucket rows as every writer takes them. Empty where the database cannot write
     * two tables in one statement (the default); the flush then writes both in a transaction.
     *
     * @param table the checked counter table name
     * @param buckets the bucket table
     * @param mark the flusher's mark with this flush's number
     * @param rows the slot rows and their deltas, in lock order
     * @param bucketRows the bucket rows and their deltas, in lock order, at most
     *     {@link #rowsPerAddingStatement}
     * @return the statement, or empty
     */
    public Optional<String> oneStatementBucketedFlushSql(TableName table, TableName buckets, FlushMark mark,
            List<SlotRow> rows, List<BucketRow> bucketRows) {
        return Optional.empty();
    }

    /**
     * {@link #oneStatementBucketedFlushSql} with its numbers as parameters, as
     * {@link #oneStatementFlushPrepared} is to {@link #oneStatementFlushSql}. Empty where the text
     * is as good (the default).
     *
     * @param table the checked counter table name
     * @param buckets the bucket table
     * @param mark the flusher's mark with this flush's number
     * @param rows the slot rows and their deltas, in lock order
     * @param bucketRows the bucket rows and their deltas, in lock order
     * @return the statement and its parameters, or empty
     */
    public Optional<PreparedFlush> oneStatementBucketedFlushPrepared(TableName table, TableName buckets,
            FlushMark mark, List<SlotRow> rows, List<BucketRow> bucketRows) {
        return Optional.empty();
    }

    /**
     * Whether connections from this data source take several statements in one packet, which
     * lets a flush and the query of its totals go in one round trip: PgJDBC always sends the
     * statements of one string together; MariaDB's driver only with {@code allowMultiQueries}. It
     * asks the server: a connection that does not take them is refused the second statement (a
     * syntax error) and stays usable. Asked once per flusher, on its first connection: the
     * answer is a setting of the data source, the same for all its connections.
     *
     * @param connection a connection of the data source, in auto-commit
     * @return true if a multi-statement packet is accepted
     * @throws SQLException if the connection failed
     */
    public boolean takesMultiStatements(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("SELECT 1; SELECT 1");
            return true;
        } catch (SQLException e) {
            if (classify(e) == Failure.CONNECTION) {
                throw e;
            }
            return false;
        }
    }

    /**
     * Whether a row lock taken here holds back only this server's writers. On a node of a Galera
     * cluster a transaction on another node does not wait for it: the cluster orders two
     * transactions only by the rows each wrote, failing the later COMMIT of two that wrote the
     * same row. A lock that must hold across the cluster is then a row that each holder writes.
     *
     * @return true on a Galera node
     */
    public boolean locksOnlyLocally() {
        return false;
    }

    /**
     * The statements that spend from allowance rows and set the flusher's mark, where this
     * database has the one-statement flush ({@link #oneStatementFlushSql}).
     *
     * @param counters the checked counter table name
     * @return the statements; empty where the flush spends in the ledger's transaction instead
     */
    public Optional<SpendStatements> spendStatements(TableName counters) {
        return Optional.empty();
    }

    /**
     * The flush of {@link #oneStatementFlushSql} and the query of its totals as one packet of
     * two statements, for connections that {@link #takesMultiStatements take them}, so that a
     * flush learns its totals in its own round trip. The flush commits in auto-commit (or, on
     * PostgreSQL, in the packet's one implicit transaction) before the query runs, so the query
     * sees it. The totals do not ride in the flush's own statement: on MariaDB a subquery in
     * {@code INSERT … RETURNING} takes shared locks on the other slot rows, which other flushers
     * hold; on PostgreSQL a flush answering in a {@code WITH … RETURNING} was once counted twice in
     * the cut-COMMIT test under load, so a flush keeps the plain upsert its outcome resolution was
     * built around.
     *
     * @param flush the flush's statement
     * @param totals the query of its totals
     * @return the packet's text, or empty where the database has no use for it
     */
    public Optional<String> flushThenTotalsSql(String flush, String totals) {
        return Optional.of(flush + "; " + totals);
    }

    /**
     * One slot row's upsert in auto-commit that also answers its counter's total right after:
     * a row of {@code (record_type, record_id, total)}. Empty where the database cannot do both
     * in one statement; the writer then runs {@link #totalsSql} after the upsert.
     *
     * @param table the checked counter table name
     * @param row the slot row and its delta
     * @return the statement, or empty
     */
    public Optional<String> upsertAnsweringTotalSql(TableName table, SlotRow row) {
        return Optional.empty();
    }

    /**
     * The totals of counters, their slot rows summed: rows of {@code (record_type, record_id,
     * total)}, for the counters a write has just written. One scalar subquery per counter, an
     * equality on the primary key's first two columns, so that each counter's rows are found by
     * the index whatever the planner believes of the table: given an {@code IN} list of hundreds
     * of ids, PostgreSQL planned on statistics taken before the table grew (a new table, or
     * autovacuum off) and H2 on none, and both read every row of the type in each flush (PostgreSQL
     * 165 ms for 503 counters among 1.1 million rows, this form 36 ms; H2 a scan of 456,026 rows
     * where this form reads 35). Only numbers are written in.
     *
     * @param table the checked counter table name
     * @param keys the counters, at most a flush's worth
     * @return the SQL text
     */
    public String totalsSql(TableName table, Collection<CounterKey> keys) {
        StringBuilder values = new StringBuilder(keys.size() * 16);
        for (CounterKey key : keys) {
            values.append(values.length() == 0 ? "(" + key.recordType() + ", CAST(" + key.recordId() + " AS BIGINT))"
                    : ", (" + key.recordType() + ", " + key.recordId() + ")");
        }
        return "SELECT k.t, k.i, (SELECT SUM(c.count) FROM " + table + " c WHERE c.record_type = k.t"
                + " AND c.record_id = k.i) FROM (VALUES " + values + ") AS k(t, i)";
    }

    /**
     * The slots of one type's counters summed, prepared: rows of {@code (record_id, total)}, with
     * the type bound first and then each id. A prepared {@code IN} list, whose plan PostgreSQL
     * keeps per list length.
     *
     * @param table the checked counter table name
     * @param ids how many ids are bound
     * @return the SQL text
     */
    public String readTotalsSql(TableName table, int ids) {
        return "SELECT record_id, SUM(count) FROM " + table + " WHERE record_type = ? AND record_id IN ("
                + String.join(", ", Collections.nCopies(ids, "?")) + ") GROUP BY record_id";
    }

    /** The mark and the rows as comma-separated tuples. */
    protected static String tuples(FlushMark mark, List<SlotRow> rows) {
        return rows.isEmpty() ? mark.tuple() : mark.tuple() + ", " + tuples(rows);
    }

    /** The rows as comma-separated tuples. */
    protected static String tuples(List<SlotRow> rows) {
        StringBuilder text = new StringBuilder(rows.size() * 32);
        for (SlotRow row : rows) {
            text.append(text.length() == 0 ? "" : ", ").append(row.tuple());
        }
        return text.toString();
    }

    /**
     * The values of {@link #upsertSql}'s parameters, in order.
     *
     * @param key the counter
     * @param slot the slot row
     * @param delta the amount
     * @return record type, record id, slot and delta, and whatever more the dialect's SQL needs
     */
    protected long[] upsertValues(CounterKey key, int slot, long delta) {
        return new long[] {key.recordType(), key.recordId(), slot, delta};
    }

    /**
     * Where the node behind a connection stands in a multi-primary cluster, read anew each time:
     * membership changes move it.
     *
     * @param connection an open connection
     * @return the node's position; empty on a database that is not such a cluster (the default)
     * @throws SQLException if it cannot be read
     */
    public Optional<ClusterNode> clusterNode(Connection connection) throws SQLException {
        return Optional.empty();
    }

    /**
     * Makes the session's reads wait until the node has applied every transaction the cluster
     * committed before them; nothing on a database that is not a cluster (the default), where
     * every committed transaction is already visible.
     *
     * @param connection an open connection
     * @return what gives the session back the setting it had, which may already have been causal
     *     (an operator's {@code SET SESSION wsrep_sync_wait = 1} on the pool's connections)
     * @throws SQLException if the setting cannot be read or changed
     */
    public SessionSetting causalReads(Connection connection) throws SQLException {
        return SessionSetting.UNCHANGED;
    }

    /** A session setting changed for a while, and what puts it back. */
    @FunctionalInterface
    public interface SessionSetting {
        /** Nothing was changed. */
        SessionSetting UNCHANGED = () -> { };

        /**
         * Puts the setting back as it was.
         *
         * @throws SQLException if it cannot be set
         */
        void restore() throws SQLException;
    }

    /**
     * Problems with the database's settings that would make counting unsafe, as sentences that
     * say what to change.
     *
     * @param connection an open connection
     * @return warnings, possibly none
     * @throws SQLException if the settings cannot be read
     */
    public List<String> settingsWarnings(Connection connection) throws SQLException {
        return List.of();
    }

    /**
     * Decides what a failure means, looking through chained exceptions and causes for the first
     * code this dialect recognises.
     *
     * @param failure the driver's or pool's exception
     * @return its meaning; {@link Failure#OTHER} if nothing recognisable was found
     */
    public final Failure classify(SQLException failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql) {
                Failure kind = classifyOne(sql);
                if (kind != Failure.OTHER) {
                    return kind;
                }
            }
        }
        return Failure.OTHER;
    }

    private Failure classifyOne(SQLException e) {
        Failure vendor = classifyVendorCode(e.getErrorCode(), String.valueOf(e.getSQLState()));
        if (vendor != Failure.OTHER) {
            return vendor;
        }
        String state = String.valueOf(e.getSQLState());
        if (state.startsWith("08") || e instanceof SQLTransientConnectionException
                || e instanceof SQLNonTransientConnectionException) {
            return Failure.CONNECTION;
        }
        return switch (state) {
            case "22003" -> Failure.OVERFLOW;
            case "42501" -> Failure.NOT_PERMITTED;
            case "23505" -> Failure.DUPLICATE_KEY;
            case "40001" -> Failure.CONTENTION;
            case "42S02" -> Failure.MISSING_TABLE;
            case "42S22" -> Failure.WRONG_SHAPE;
            default -> Failure.OTHER;
        };
    }

    /**
     * The vendor's own codes: those the standard SQLStates do not cover, or cover wrongly.
     *
     * @param vendorCode {@link SQLException#getErrorCode()}
     * @param sqlState {@link SQLException#getSQLState()}, or the string {@code "null"}
     * @return the meaning, or {@link Failure#OTHER} to fall back to the standard codes
     */
    protected abstract Failure classifyVendorCode(int vendorCode, String sqlState);
}
