package io.slotted.internal.expiry;

import io.slotted.ExpiryRule;
import io.slotted.SlottedConfig;
import io.slotted.internal.dialect.Dialect;
import io.slotted.internal.dialect.Failure;
import io.slotted.internal.dialect.statements.ExpiryStatements;
import io.slotted.internal.jdbc.Database;
import io.slotted.internal.mutation.Mutation;
import io.slotted.internal.registry.TypeRegistry;
import io.slotted.internal.schema.SchemaMigrator;
import io.slotted.internal.sql.CounterKey;
import io.slotted.internal.sql.TableName;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The counters of the expiring types and the one lock that keeps them exact: each such counter's
 * row in the expiry table ({@code <table>_expiry}).
 *
 * <p>Every write of an expiring counter — a flush, a direct write, a set, a new expiry — first
 * locks the counter's expiry row in its transaction, by a locking read that also reads the
 * expiry (creating the row first if it is missing: an insert of the missing rows alone, so that
 * a write of a counter seen before changes no expiry row), and, if the expiry has passed, clears
 * the counter there: deletes its slot rows and its expiry, then writes. So the
 * writes of one counter and its clearing happen one after another, and a write either commits
 * before the clearing, and is deleted with the expired counter, or after it, and counts in the
 * new one. Without the lock a write that created a new slot row while the counter was being
 * cleared could commit unseen by the clearing statement (PostgreSQL's statement snapshot) and
 * carry an expired increment into the counter that had read 0 since.
 *
 * <p>A read does not lock: it reads a counter whose expiry has passed as 0, whether or not it
 * was cleared yet. Which moment has passed is decided by the process's clock, as for windows.
 */
public final class ExpiringCounters {
    private static final int IDS_PER_READ = 500;
    private static final int DUPLICATE_KEY_REPEATS = 10;

    private final Database database;
    private final SlottedConfig config;
    private final TypeRegistry registry;
    private final TableName expiry;

    /**
     * Creates the counters' view of the expiry table.
     *
     * @param database the database and its counter table
     * @param config the types this process was told expire, and the clock
     * @param registry the types every process was told expire, as the registry records them
     */
    public ExpiringCounters(Database database, SlottedConfig config, TypeRegistry registry) {
        this.database = database;
        this.config = config;
        this.registry = registry;
        this.expiry = database.table().withSuffix(SchemaMigrator.EXPIRY_SUFFIX);
    }

    /**
     * The expiry table's name.
     *
     * @return the checked name
     */
    public TableName table() {
        return expiry;
    }

    /**
     * Whether a type's counters may expire: this process was told so, or the registry records
     * that another was (as its cached view has it).
     *
     * @param recordType the type
     * @return true if its writes take the counters' expiry locks
     */
    public boolean expiring(int recordType) {
        return registry.expiring(recordType);
    }

    /**
     * Before the first write of a type this process was told expires: records it in the registry,
     * so that every other process writing it takes the expiry locks too.
     *
     * @param connection a connection in auto-commit, between transactions
     * @param keys the counters about to be written
     * @throws SQLException if the registry cannot be read or written
     */
    public void agree(Connection connection, Collection<CounterKey> keys) throws SQLException {
        if (config.expiringTypes().isEmpty()) {
            return;
        }
        for (int type : keys.stream().map(CounterKey::recordType).distinct().toList()) {
            registry.agreeOnExpiring(connection, type);
        }
    }

    /**
     * Whether any of some counters may expire.
     *
     * @param keys the counters
     * @return true if one is of an expiring type
     */
    public boolean anyExpiring(Collection<CounterKey> keys) {
        if (!registry.anyExpiring()) {
            return false;
        }
        for (CounterKey key : keys) {
            if (expiring(key.recordType())) {
                return true;
            }
        }
        return false;
    }

    /** The time now, by the process's clock, in epoch milliseconds. */
    public long now() {
        return config.clock().millis();
    }

    /**
     * In the caller's transaction, before it writes the counters: locks the expiry rows of those
     * of expiring types, in key order, as every writer does, and clears each whose expiry has
     * passed. Counters of other types are left alone.
     *
     * @param connection a connection in the writer's transaction
     * @param dialect its database's dialect
     * @param keys the counters the transaction writes
     * @return each locked counter's expiry, none for those without one
     * @throws SQLException if the database fails
     */
    public Map<CounterKey, Long> lockAndClear(Connection connection, Dialect dialect, Collection<CounterKey> keys)
            throws SQLException {
        if (!anyExpiring(keys)) {
            return Map.of();
        }
        List<CounterKey> locked = new ArrayList<>(new TreeSet<>(keys.stream()
                .filter(key -> expiring(key.recordType())).toList()));
        if (locked.isEmpty()) {
            return Map.of();
        }
        Map<CounterKey, Long> expiries = new HashMap<>();
        boolean locking = !Mutation.EXPIRY_WITHOUT_LOCK.planted();
        Set<CounterKey> found = read(connection, dialect, locked, locking, expiries);
        if (found.size() < locked.size()) {
            List<CounterKey> missing = locked.stream().filter(key -> !found.contains(key)).toList();
            insertMissing(connection, dialect, missing);
            read(connection, dialect, missing, locking, expiries);
        }
        long now = now();
        Map<CounterKey, Long> live = new HashMap<>();
        for (Map.Entry<CounterKey, Long> entry : expiries.entrySet()) {
            if (entry.getValue() <= now) {
                clear(connection, dialect, entry.getKey());
            } else {
                live.put(entry.getKey(), entry.getValue());
            }
        }
        return live;
    }

    /**
     * Gives a locked counter an expiry, under {@code rule}, in the caller's transaction, which
     * {@link #lockAndClear} began; a time already past clears the counter now.
     *
     * @param connection a connection in the transaction
     * @param dialect its dialect
     * @param key the counter, locked
     * @param currentMs its expiry as {@link #lockAndClear} found it, or null for none
     * @param atMs the new expiry
     * @param rule when the new one replaces the current one
     * @return true if set; false if the counter reads 0 or the rule kept the current expiry
     * @throws SQLException if the database fails
     */
    public boolean expireLocked(Connection connection, Dialect dialect, CounterKey key, Long currentMs, long atMs,
            ExpiryRule rule) throws SQLException {
        if (readsZero(connection, key) || !rule.allows(currentMs, atMs)) {
            return false;
        }
        if (atMs <= now()) {
            clear(connection, dialect, key);
        } else {
            setExpiry(connection, dialect, key, atMs);
        }
        return true;
    }

    /**
     * Sets or takes away a locked counter's expiry, in the caller's transaction.
     *
     * @param connection a connection in the transaction
     * @param dialect its dialect
     * @param key the counter, locked
     * @param atMs the new expiry, or null for none
     * @throws SQLException if the database fails
     */
    public void setExpiry(Connection connection, Dialect dialect, CounterKey key, Long atMs) throws SQLException {
        try (PreparedStatement update = connection.prepareStatement(statements(dialect).setExpiry())) {
            if (atMs == null) {
                update.setNull(1, Types.BIGINT);
            } else {
                update.setLong(1, atMs);
            }
            update.setInt(2, key.recordType());
            update.setLong(3, key.recordId());
            update.executeUpdate();
        }
    }

    /**
     * Reads counters' expiries without locking them, leaving out those that have none or have
     * passed: for reads.
     *
     * @param connection an open connection
     * @param dialect its dialect
     * @param keys the counters, of expiring types
     * @return each counter with a future expiry, mapped to it
     * @throws SQLException if the database fails
     */
    public Map<CounterKey, Long> liveExpiries(Connection connection, Dialect dialect, Collection<CounterKey> keys)
            throws SQLException {
        long now = now();
        Map<CounterKey, Long> live = new HashMap<>();
        expiries(connection, dialect, keys).forEach((key, at) -> {
            if (at > now) {
                live.put(key, at);
            }
        });
        return live;
    }

    /**
     * Creates the counters' missing expiry rows, which the counters' writers then lock; a row
     * another transaction created meanwhile is left as it is.
     */
    private void insertMissing(Connection connection, Dialect dialect, List<CounterKey> keys) throws SQLException {
        ExpiryStatements statements = statements(dialect);
        int per = statements.rowsPerInsert();
        for (int from = 0; from < keys.size(); from += per) {
            List<CounterKey> chunk = keys.subList(from, Math.min(keys.size(), from + per));
            try (PreparedStatement statement = connection.prepareStatement(statements.insertMissing(chunk.size()))) {
                int at = 1;
                for (CounterKey key : chunk) {
                    statement.setInt(at++, key.recordType());
                    statement.setLong(at++, key.recordId());
                }
                executeRepeatingLostInserts(statement, dialect);
            }
        }
    }

    /**
     * Runs an insert of missing rows; on H2, a {@code MERGE} that lost the race to create a row is
     * repeated at once: the losing statement changed nothing and the row now exists.
     */
    private static void executeRepeatingLostInserts(PreparedStatement statement, Dialect dialect)
            throws SQLException {
        for (int attempt = 1; ; attempt++) {
            try {
                statement.executeUpdate();
                return;
            } catch (SQLException e) {
                if (dialect.classify(e) != Failure.DUPLICATE_KEY || attempt >= DUPLICATE_KEY_REPEATS) {
                    throw e;
                }
            }
        }
    }

    /** The counters' expiries, without locking them, leaving out those without one. */
    private Map<CounterKey, Long> expiries(Connection connection, Dialect dialect, Collection<CounterKey> keys)
            throws SQLException {
        Map<CounterKey, Long> expiries = new HashMap<>();
        read(connection, dialect, keys, false, expiries);
        return expiries;
    }

    /**
     * Reads the counters' expiry rows, locking them in key order if {@code locking}: puts each
     * expiry into {@code expiries}, and answers which counters have a row.
     */
    private Set<CounterKey> read(Connection connection, Dialect dialect, Collection<CounterKey> keys, boolean locking,
            Map<CounterKey, Long> expiries) throws SQLException {
        Set<CounterKey> rows = new HashSet<>();
        Map<Integer, List<Long>> idsByType = new TreeMap<>();
        keys.forEach(key -> idsByType.computeIfAbsent(key.recordType(), type -> new ArrayList<>()).add(key.recordId()));
        for (Map.Entry<Integer, List<Long>> type : idsByType.entrySet()) {
            List<Long> ids = type.getValue().stream().sorted().toList();
            for (int from = 0; from < ids.size(); from += IDS_PER_READ) {
                List<Long> chunk = ids.subList(from, Math.min(ids.size(), from + IDS_PER_READ));
                ExpiryStatements sql = statements(dialect);
                try (PreparedStatement select = connection.prepareStatement(locking ? sql.lockExpiries(chunk.size())
                        : sql.expiries(chunk.size()))) {
                    select.setInt(1, type.getKey());
                    int at = 2;
                    for (Long id : chunk) {
                        select.setLong(at++, id);
                    }
                    try (ResultSet found = select.executeQuery()) {
                        while (found.next()) {
                            CounterKey key = new CounterKey(type.getKey(), found.getLong(1));
                            rows.add(key);
                            long expires = found.getLong(2);
                            if (!found.wasNull()) {
                                expiries.put(key, expires);
                            }
                        }
                    }
                }
            }
        }
        return rows;
    }

    /** Clears a locked counter: deletes its slot rows and its expiry, in the caller's transaction. */
    void clear(Connection connection, Dialect dialect, CounterKey key) throws SQLException {
        try (PreparedStatement delete = connection.prepareStatement(statements(dialect).deleteSlots())) {
            delete.setInt(1, key.recordType());
            delete.setLong(2, key.recordId());
            delete.executeUpdate();
        }
        setExpiry(connection, dialect, key, null);
    }

    /**
     * Whether a locked counter's slot rows sum to 0: every writer of it holds the lock, so no
     * write of it is half seen.
     */
    private boolean readsZero(Connection connection, CounterKey key) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(database.slotStatements().total())) {
            select.setInt(1, key.recordType());
            select.setLong(2, key.recordId());
            try (ResultSet row = select.executeQuery()) {
                BigDecimal sum = row.next() ? row.getBigDecimal(1) : null;
                return sum == null || sum.signum() == 0;
            }
        }
    }

    /**
     * The expiry table's statements, in a database's dialect.
     *
     * @param dialect the database's dialect
     * @return the statements
     */
    public ExpiryStatements statements(Dialect dialect) {
        return dialect.expiryStatements(expiry, database.table());
    }

    /**
     * The expiring types, for the sweep.
     *
     * @return the record types
     */
    Set<Integer> types() {
        return config.expiringTypes();
    }
}
