package io.slotted.internal.read;

import io.slotted.CounterOverflowException;
import io.slotted.internal.jdbc.Database;
import io.slotted.internal.bucket.BucketClock;
import io.slotted.internal.dialect.Dialect;
import io.slotted.internal.expiry.ExpiringCounters;
import io.slotted.internal.jdbc.Retrier;
import io.slotted.internal.jdbc.SqlWork;
import io.slotted.internal.jdbc.Transactions;
import io.slotted.internal.dialect.statements.OwnerStatements;
import io.slotted.internal.registry.Registration;
import io.slotted.internal.registry.TypeRegistry;
import io.slotted.internal.sql.CounterKey;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads counters by summing their slot rows.
 *
 * <p>Every database sums {@code BIGINT} into a wider type (DECIMAL or NUMERIC), so the total is read
 * as a {@link BigDecimal} and checked: a total beyond the signed 64-bit range is reported, never
 * wrapped, with the exact total in the exception. Many ids are read with one
 * {@code IN (…) GROUP BY} query per chunk, each touching only the rows of the requested counters.
 *
 * <p>A type bound to an owner column in fold mode reads the column and the slots in one statement
 * ({@link OwnerStatements}); which types fold comes from the {@link TypeRegistry}, re-read now and then
 * on the read's own connection.
 */
public final class CounterReader {
    /** Ids per query: well under every driver's and server's parameter limit. */
    static final int CHUNK = 500;
    private static final BigDecimal MIN = BigDecimal.valueOf(Long.MIN_VALUE);
    private static final BigDecimal MAX = BigDecimal.valueOf(Long.MAX_VALUE);

    private final Database database;
    private final Retrier retrier;
    private final TypeRegistry registry;
    private final BucketClock windows;
    private final ExpiringCounters expiring;

    /**
     * Creates the reader.
     *
     * @param database where to read
     * @param retrier how failures are reported
     * @param registry which types fold into an owner column, and which have limits per window
     * @param windows the window of now, for a windowed type's reads
     * @param expiring which types expire, for whose counters an expired one reads 0
     */
    public CounterReader(Database database, Retrier retrier, TypeRegistry registry, BucketClock windows,
            ExpiringCounters expiring) {
        this.expiring = expiring;
        this.database = database;
        this.retrier = retrier;
        this.registry = registry;
        this.windows = windows;
    }

    /**
     * Reads one counter: its total, or for a type with limits per window, its count in the
     * current window, as a limiter reads it.
     *
     * @param key the counter
     * @return its total or its window's count, 0 if it has no rows
     */
    public long get(CounterKey key) {
        return retrier.read("read counter " + key, (connection, dialect) -> {
            registry.refreshIfStale(connection);
            if (registry.limits(key.recordType()).windowed()) {
                return windowRead(key.recordType(), List.of(key.recordId())).run(connection, dialect)
                        .getOrDefault(key.recordId(), 0L);
            }
            if (expiring.expiring(key.recordType())) {
                return unlessExpiredRead(key.recordType(), List.of(key.recordId())).run(connection, dialect)
                        .getOrDefault(key.recordId(), 0L);
            }
            Optional<OwnerStatements> owner = foldsInto(connection, key.recordType());
            return consistently(connection, dialect, owner.isPresent(), () -> {
                try (PreparedStatement statement = connection.prepareStatement(
                        owner.map(OwnerStatements::totalSql).orElseGet(() -> database.slotStatements().total()))) {
                    int at = 1;
                    if (owner.isPresent()) {
                        statement.setLong(at++, key.recordId());
                    }
                    statement.setInt(at++, key.recordType());
                    statement.setLong(at, key.recordId());
                    try (ResultSet rows = statement.executeQuery()) {
                        return rows.next() ? toLong(rows.getBigDecimal(1), key) : 0L;
                    }
                }
            });
        });
    }

    /**
     * Reads many counters of one type.
     *
     * @param recordType the type
     * @param recordIds the ids, possibly repeated
     * @return each distinct id, in the order given, mapped to its total, or for a type with
     *     limits per window, its count in the current window
     */
    public Map<Long, Long> getAll(int recordType, Collection<Long> recordIds) {
        if (registry.limits(recordType).windowed()) {
            return inChunks(recordType, recordIds, (type, ids) -> retrier.read("read " + ids.size()
                    + " counters of record_type " + type + " in their window", windowRead(type, ids)));
        }
        return inChunks(recordType, recordIds, this::readChunk);
    }

    /** The read of some counters' counts in the current window of their type. */
    private SqlWork<Map<Long, Long>> windowRead(int recordType, List<Long> ids) {
        return (connection, dialect) -> {
            try (PreparedStatement statement = connection.prepareStatement(
                    database.bucketStatements().countsInBucket(ids.size()))) {
                statement.setInt(1, recordType);
                statement.setLong(2, windows.startOf(recordType));
                bindIds(statement, 3, ids);
                return collect(recordType, statement);
            }
        };
    }

    /**
     * Reads counters of any types: for a write that could not learn the totals of what it wrote
     * in its own round trip.
     *
     * @param keys the counters
     * @return each counter mapped to its total
     */
    public Map<CounterKey, Long> totals(Collection<CounterKey> keys) {
        return byType(keys, this::readChunk);
    }

    /**
     * As {@link #totals(Collection)}, on a connection the caller holds, without retrying: for a
     * flusher, which must not borrow another connection of a pool its callers may hold.
     *
     * @param connection an open connection in auto-commit mode
     * @param keys the counters
     * @return each counter mapped to its total
     * @throws SQLException if the read failed
     */
    public Map<CounterKey, Long> totals(Connection connection, Collection<CounterKey> keys) throws SQLException {
        Dialect dialect = database.dialectOf(connection);
        return byType(keys, (recordType, ids) -> chunkRead(recordType, ids).run(connection, dialect));
    }

    /** Reads one chunk of a type's counters, throwing {@code E} if it fails. */
    @FunctionalInterface
    private interface ChunkRead<E extends Exception> {
        Map<Long, Long> read(int recordType, List<Long> ids) throws E;
    }

    /** Reads counters of any types, each type's in chunks. */
    private static <E extends Exception> Map<CounterKey, Long> byType(Collection<CounterKey> keys,
            ChunkRead<E> read) throws E {
        Map<Integer, List<Long>> idsByType = new LinkedHashMap<>();
        keys.forEach(key -> idsByType.computeIfAbsent(key.recordType(), type -> new ArrayList<>()).add(key.recordId()));
        Map<CounterKey, Long> totals = new LinkedHashMap<>();
        for (Map.Entry<Integer, List<Long>> type : idsByType.entrySet()) {
            inChunks(type.getKey(), type.getValue(), read)
                    .forEach((id, total) -> totals.put(new CounterKey(type.getKey(), id), total));
        }
        return totals;
    }

    /**
     * Reads one type's counters {@value #CHUNK} at a time: each distinct id, in the order given,
     * mapped to its total, 0 for an id without rows.
     */
    private static <E extends Exception> Map<Long, Long> inChunks(int recordType, Collection<Long> recordIds,
            ChunkRead<E> read) throws E {
        Map<Long, Long> totals = new LinkedHashMap<>();
        List<Long> ids = new ArrayList<>(new LinkedHashSet<>(recordIds));
        ids.forEach(id -> totals.put(id, 0L));
        for (int from = 0; from < ids.size(); from += CHUNK) {
            totals.putAll(read.read(recordType, ids.subList(from, Math.min(ids.size(), from + CHUNK))));
        }
        return totals;
    }

    /** Reads one chunk of a type's counters, retrying as reads do. */
    private Map<Long, Long> readChunk(int recordType, List<Long> ids) {
        return retrier.read("read " + ids.size() + " counters of record_type " + recordType,
                chunkRead(recordType, ids));
    }

    /**
     * The read of one chunk of a type's counters: the owner column and the slots of a type that
     * folds into one, else the slots alone with the dialect's query for them
     * ({@link Dialect#readTotalsSql}). Counters without rows are left out.
     */
    private SqlWork<Map<Long, Long>> chunkRead(int recordType, List<Long> ids) {
        if (expiring.expiring(recordType)) {
            return unlessExpiredRead(recordType, ids);
        }
        return (connection, dialect) -> {
            Optional<OwnerStatements> owner = foldsInto(connection, recordType);
            return consistently(connection, dialect, owner.isPresent(), () -> {
                try (PreparedStatement statement = connection.prepareStatement(owner
                        .map(o -> o.totalsSql(ids.size()))
                        .orElseGet(() -> dialect.readTotalsSql(database.table(), ids.size())))) {
                    int at = 1;
                    if (owner.isPresent()) {
                        at = bindIds(statement, at, ids);
                    }
                    statement.setInt(at++, recordType);
                    if (owner.isPresent()) {
                        statement.setLong(at++, Collections.min(ids));
                        statement.setLong(at++, Collections.max(ids));
                    }
                    bindIds(statement, at, ids);
                    return collect(recordType, statement);
                }
            });
        };
    }

    /**
     * The read of some counters of an expiring type, one whose expiry has passed reading 0
     * whether or not a writer or the sweep has cleared it yet. An expiring type folds into no
     * owner column.
     */
    private SqlWork<Map<Long, Long>> unlessExpiredRead(int recordType, List<Long> ids) {
        return (connection, dialect) -> {
            try (PreparedStatement statement = connection.prepareStatement(expiring.statements(dialect)
                    .readTotalsUnlessExpired(ids.size()))) {
                statement.setLong(1, expiring.now());
                statement.setInt(2, recordType);
                bindIds(statement, 3, ids);
                return collect(recordType, statement);
            }
        };
    }

    /**
     * Runs a read of the column and the slots so that it sees both as of one moment: as it is
     * where one statement does, else in a snapshot transaction.
     */
    private static <T> T consistently(Connection connection, Dialect dialect, boolean twoTables,
            Transactions.TransactionWork<T> read) throws SQLException {
        return twoTables && !dialect.statementReadsOneSnapshot()
                ? Transactions.inSnapshot(connection, dialect, read) : read.run();
    }

    private static int bindIds(PreparedStatement statement, int from, List<Long> ids)
            throws SQLException {
        int at = from;
        for (Long id : ids) {
            statement.setLong(at++, id);
        }
        return at;
    }

    /** The owner table whose column a type's totals include, if the type folds into one. */
    private Optional<OwnerStatements> foldsInto(Connection connection, int recordType) throws SQLException {
        return registry.registration(connection, recordType).filter(Registration::folds)
                .map(r -> database.ownerStatements(r.owner()));
    }

    private static Map<Long, Long> collect(int recordType, PreparedStatement statement)
            throws SQLException {
        Map<Long, Long> found = new LinkedHashMap<>();
        try (ResultSet rows = statement.executeQuery()) {
            while (rows.next()) {
                long id = rows.getLong(1);
                found.put(id, toLong(rows.getBigDecimal(2), new CounterKey(recordType, id)));
            }
        }
        return found;
    }

    static long toLong(BigDecimal sum, CounterKey key) {
        if (sum == null) {
            return 0L;
        }
        if (sum.compareTo(MIN) < 0 || sum.compareTo(MAX) > 0) {
            throw new CounterOverflowException("counter " + key + " totals " + sum.toPlainString()
                    + ", outside the signed 64-bit range [" + Long.MIN_VALUE + ", " + Long.MAX_VALUE
                    + "]; add to or subtract from it to bring it back in range (the exception's"
                    + " total() holds the exact total)", sum.toBigIntegerExact());
        }
        return sum.longValueExact();
    }
}
