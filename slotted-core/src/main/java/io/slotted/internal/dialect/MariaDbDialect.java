package io.slotted.internal.dialect;

import io.slotted.internal.dialect.statements.BucketStatements;
import io.slotted.internal.dialect.statements.ExpiryStatements;
import io.slotted.internal.dialect.statements.KeyStatements;
import io.slotted.internal.dialect.statements.MariaDbSlotStatements;
import io.slotted.internal.dialect.statements.NameStatements;
import io.slotted.internal.dialect.statements.SlotStatements;
import io.slotted.internal.dialect.statements.SpendStatements;
import io.slotted.internal.sql.CounterKey;
import io.slotted.internal.sql.FlushMark;
import io.slotted.internal.sql.SlotRange;
import io.slotted.internal.sql.TableName;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * MariaDB, and the ground {@link MySqlDialect} builds on.
 *
 * <p>The single-row upsert is {@code INSERT … ON DUPLICATE KEY UPDATE count = count + ?} with the
 * delta bound twice, rather than the {@code VALUES(count)} form MySQL 8.0.20 deprecated. InnoDB
 * takes the row lock for the insert-or-update atomically, so concurrent upserts of one slot
 * serialise on that row without ever losing an increment.
 *
 * <p>A multi-row upsert must refer to each row's own delta. MySQL 8.0.19 and later name the
 * inserted row with an alias ({@code AS new … count + new.count}); MariaDB has no row alias, and
 * there {@code VALUES(count)} is the supported form, not a deprecated one. The dialect uses each
 * server's own form.
 *
 * <p>On a MariaDB Galera node ({@code wsrep_on}), the dialect also tells where the node stands in
 * its cluster ({@code wsrep_local_index} of {@code wsrep_cluster_size}), for node-affine slots,
 * and turns causal reads on ({@code wsrep_sync_wait}) when a flush whose COMMIT was cut off must
 * learn from another node whether it landed: without it that node may not have applied the
 * flush yet and would report it missing.
 */
public class MariaDbDialect extends Dialect {
    /** "BIGINT value is out of range", an arithmetic overflow. */
    private static final int OUT_OF_RANGE = 1690;
    private static final String CLUSTER_STATUS = "SHOW GLOBAL STATUS WHERE Variable_name IN"
            + " ('wsrep_ready', 'wsrep_cluster_size', 'wsrep_local_index')";

    private final boolean galera;

    /**
     * Creates the dialect.
     *
     * @param galera true on a node of a MariaDB Galera cluster
     */
    public MariaDbDialect(boolean galera) {
        this.galera = galera;
    }

    @Override
    public Optional<ClusterNode> clusterNode(Connection connection) throws SQLException {
        if (!galera) {
            return Optional.empty();
        }
        Map<String, String> status = new HashMap<>();
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(CLUSTER_STATUS)) {
            while (rows.next()) {
                status.put(rows.getString(1).toLowerCase(Locale.ROOT), rows.getString(2));
            }
        }
        long size = parse(status.get("wsrep_cluster_size"));
        long index = parse(status.get("wsrep_local_index"));
        boolean ready = "ON".equalsIgnoreCase(status.get("wsrep_ready"));
        return ready && size > 1 && index >= 0 && index < size
                ? Optional.of(new ClusterNode((int) index, (int) size)) : Optional.empty();
    }

    private static long parse(String value) {
        try {
            return value == null ? -1 : Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            return -1; // a node outside the primary component reports an index of 2^64 - 1
        }
    }

    @Override
    public boolean locksOnlyLocally() {
        return galera;
    }

    /** InnoDB's default, {@code REPEATABLE READ}. */
    @Override
    public boolean snapshotPerTransactionByDefault() {
        return true;
    }

    /**
     * Turns on the read check of {@code wsrep_sync_wait} (its bit 1) unless the session has it
     * already, and gives the session back its own value after, not the server's default: an
     * operator who set causal reads on the pool's connections keeps them.
     */
    @Override
    public SessionSetting causalReads(Connection connection) throws SQLException {
        if (!galera) {
            return SessionSetting.UNCHANGED;
        }
        try (Statement statement = connection.createStatement()) {
            long before;
            try (ResultSet row = statement.executeQuery("SELECT @@SESSION.wsrep_sync_wait")) {
                row.next();
                before = row.getLong(1);
            }
            if ((before & 1) != 0) {
                return SessionSetting.UNCHANGED;
            }
            statement.execute("SET SESSION wsrep_sync_wait = " + (before | 1));
            return () -> {
                try (Statement restore = connection.createStatement()) {
                    restore.execute("SET SESSION wsrep_sync_wait = " + before);
                }
            };
        }
    }

    /** MariaDB's and MySQL's drivers call a database a catalog. */
    @Override
    public boolean catalogsAreSchemas() {
        return true;
    }

    @Override
    public String name() {
        return galera ? "MariaDB Galera" : "MariaDB";
    }

    @Override
    public String schemaDatabase() {
        return "mariadb";
    }

    @Override
    public String upsertSql(TableName table) {
        return "INSERT INTO " + table + " (record_type, record_id, slot, count) VALUES (?, ?, ?, ?)"
                + " ON DUPLICATE KEY UPDATE count = " + checkedSlotValue("count + ?");
    }

    /**
     * MariaDB and MySQL compute integers in 64 bits whatever the columns' types, and refuse an
     * overflow whatever the SQL mode; {@code DIV} keeps the quotient an integer ({@code /} would
     * make it a decimal).
     */
    @Override
    protected String checkedSlotValue(String value) {
        return "(" + value + ") * " + SlotRange.CHECK_FACTOR + " DIV " + SlotRange.CHECK_FACTOR;
    }

    /**
     * One {@code IN} list per type: MariaDB and MySQL read it as one index range per id, and have
     * no column names for a {@code VALUES} table before MariaDB 11.
     */
    @Override
    public String totalsSql(TableName table, Collection<CounterKey> keys) {
        Map<Integer, StringBuilder> idsByType = new TreeMap<>();
        for (CounterKey key : keys) {
            StringBuilder ids = idsByType.computeIfAbsent(key.recordType(), type -> new StringBuilder());
            ids.append(ids.length() == 0 ? "" : ", ").append(key.recordId());
        }
        StringBuilder where = new StringBuilder();
        idsByType.forEach((type, ids) -> where.append(where.length() == 0 ? "" : " OR ")
                .append("(record_type = ").append(type).append(" AND record_id IN (").append(ids).append("))"));
        return "SELECT record_type, record_id, SUM(count) FROM " + table + " WHERE " + where
                + " GROUP BY record_type, record_id";
    }

    /**
     * {@code INSERT IGNORE}, which skips a row that meets either unique key. MariaDB answers the
     * rows it inserted through {@code RETURNING} (10.5 and later). The names are checked before
     * binding (length, no NUL), so IGNORE hides nothing but the duplicates it is meant for.
     */
    @Override
    public NameStatements nameStatements(TableName names) {
        return new NameStatements(names) {
            @Override
            public String claim(int count) {
                return "INSERT IGNORE INTO " + names + " (record_type, name, record_id, created_ms) VALUES "
                        + parameterTuples(count, 4) + " RETURNING name, record_id";
            }
        };
    }

    /**
     * Earlier releases made the key column {@code VARCHAR(128) CHARACTER SET ascii COLLATE
     * ascii_bin}, in which "k" and "k " were one key; the schema files make it bytes, compared
     * exactly ({@code VARBINARY}: a {@code VARCHAR} would need a NO PAD collation, which MariaDB
     * and MySQL name differently).
     */
    @Override
    public boolean keyColumnComparesExactly(int jdbcType) {
        return jdbcType == Types.VARBINARY;
    }

    @Override
    public KeyStatements keyStatements(TableName keys) {
        return new KeyStatements(keys) {
            @Override
            public String insertIfAbsent() {
                return "INSERT IGNORE INTO " + keys + " (" + COLUMNS + ") VALUES (?, ?, ?, ?)";
            }
        };
    }

    /**
     * An allowance that falls short overflows a {@code BIGINT}, an error whatever the session's
     * {@code sql_mode} (a division by zero is one only in some modes), MariaDB's and MySQL's
     * "value is out of range" (1690). It is the error a fenced mark makes too, which a flush's own
     * try never meets: its number is new to the mark.
     */
    @Override
    public Optional<SpendStatements> spendStatements(TableName counters) {
        return Optional.of(new SpendStatements(counters, FLUSH_COMMENT, "ABS(count) + 9223372036854775807 + 1") {
            @Override
            public boolean fellShort(SQLException e) {
                return e.getErrorCode() == OUT_OF_RANGE;
            }
        });
    }

    /**
     * One {@code INSERT … ON DUPLICATE KEY UPDATE} whose update sets the mark row and adds to the
     * others; MySQL names the inserted row with an alias, MariaDB with {@code VALUES()}.
     */
    @Override
    public Optional<String> oneStatementFlushSql(TableName table, FlushMark mark, List<SlotRow> rows) {
        return Optional.of(FLUSH_COMMENT + upsert(table, tuples(mark, rows),
                "IF(record_type = " + FlushMark.RECORD_TYPE + ", " + FlushMark.unlessFenced("count", "%s") + ", "
                        + checkedSlotValue("count + %s") + ")"));
    }

    /**
     * Upserts tuples of (type, id, slot, delta), an existing row's count becoming {@code update},
     * in which {@code %s} stands for the inserted row's delta in this server's own form.
     */
    private String upsert(TableName table, String values, String update) {
        return onDuplicateKey("INSERT INTO " + table + " (record_type, record_id, slot, count) VALUES "
                + values, update);
    }

    /**
     * An insert of many rows that, for a row whose key exists, sets the count to {@code update},
     * in which {@code %s} stands for the inserted row's delta: MariaDB's {@code VALUES(count)}.
     *
     * @param insert {@code INSERT INTO … VALUES …}
     * @param update the new count of an existing row
     * @return the statement
     */
    protected String onDuplicateKey(String insert, String update) {
        return insert + " ON DUPLICATE KEY UPDATE count = " + update.replace("%s", "VALUES(count)");
    }

    @Override
    public String upsertBucketsSql(TableName buckets, List<BucketRow> rows) {
        String insert = "INSERT INTO " + buckets + " (record_type, bucket_start, record_id, slot, count)"
                + " VALUES " + bucketTuples(rows);
        return onDuplicateKey(insert, checkedSlotValue("count + %s"));
    }

    /**
     * A top-N groups every active counter of the window, about one group per row once closed
     * buckets are folded. By default the server aggregates through a temporary table keyed by id;
     * {@code SQL_BIG_RESULT} makes it sort the rows by id and aggregate them in order, which
     * measured faster with 100,000 groups (docs/benchmarks.md, "Time buckets").
     */
    @Override
    public SlotStatements slotStatements(TableName counters) {
        return new MariaDbSlotStatements(counters);
    }

    @Override
    public BucketStatements bucketStatements(TableName buckets, TableName counters) {
        return new BucketStatements(buckets, counters) {
            @Override
            protected String groupsManyRows() {
                return "SQL_BIG_RESULT ";
            }
        };
    }

    @Override
    protected long[] upsertValues(CounterKey key, int slot, long delta) {
        return new long[] {key.recordType(), key.recordId(), slot, delta, delta};
    }

    /**
     * Without a strict SQL mode MariaDB clamps an out-of-range value to the column's limit with
     * only a warning, so an overflowing slot would silently stop counting.
     */
    @Override
    public List<String> settingsWarnings(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet mode = statement.executeQuery("SELECT @@SESSION.sql_mode")) {
            String sqlMode = mode.next() ? String.valueOf(mode.getString(1)) : "";
            if (!sqlMode.contains("STRICT_TRANS_TABLES") && !sqlMode.contains("STRICT_ALL_TABLES")) {
                return List.of("sql_mode '" + sqlMode + "' is not strict: an increment that overflows"
                        + " a slot is clamped with a warning instead of failing; add"
                        + " STRICT_TRANS_TABLES to sql_mode");
            }
        }
        return List.of();
    }

    @Override
    protected Failure classifyVendorCode(int vendorCode, String sqlState) {
        return switch (vendorCode) {
            case 1205, 1213, 3572 -> Failure.CONTENTION;        // lock wait timeout, deadlock, NOWAIT (MySQL)
            case 1062 -> Failure.DUPLICATE_KEY;                 // duplicate entry
            case 1146 -> Failure.MISSING_TABLE;                 // no such table
            case 1054 -> Failure.WRONG_SHAPE;                   // unknown column
            case 1044, 1142, 1143 -> Failure.NOT_PERMITTED;     // database, table, column access denied
            case 1264, OUT_OF_RANGE -> Failure.OVERFLOW;        // out of range value
            case 1927, 2006, 2013 -> Failure.CONNECTION;        // killed, gone away, lost
            default -> Failure.OTHER;
        };
    }

    @Override
    public ExpiryStatements expiryStatements(TableName expiry, TableName counters) {
        return new ExpiryStatements(expiry, counters) {
            @Override
            public String insertMissing(int count) {
                return "INSERT IGNORE INTO " + expiry + " (record_type, record_id) VALUES " + parameterTuples(count, 2);
            }
        };
    }
}
