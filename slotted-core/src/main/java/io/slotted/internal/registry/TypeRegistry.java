package io.slotted.internal.registry;

import io.slotted.Limits;
import io.slotted.Window;
import io.slotted.OwnerColumn;
import io.slotted.OwnerMode;
import io.slotted.SlottedConfig;
import io.slotted.SlottedException;
import io.slotted.Ticker;
import io.slotted.internal.dialect.Dialect;
import io.slotted.internal.dialect.Failure;
import io.slotted.internal.dialect.statements.RegistryStatements;
import io.slotted.internal.jdbc.Database;
import io.slotted.internal.jdbc.Transactions;
import io.slotted.internal.schema.SchemaMigrator;
import io.slotted.internal.schema.SchemaVersionWatch;
import io.slotted.internal.sql.TableName;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The type registry: a small table beside the counter table ({@code <table>_types}) that records,
 * per counter type, its owner column binding and its slot count, and a cached view of it.
 *
 * <p>Why in the database: every process that touches a counter type must agree on its binding
 * (a process that did not know a type folds into its owner column would read only the slots and
 * miss what the roll-up moved) and, for a shrink to finish, on its slot count. Settings in each
 * process's code disagree during a rolling deploy; one row in the database cannot.
 *
 * <p>Each process re-reads the table at most every {@link #REFRESH}, on a connection it already
 * holds for other work, so no extra connection is ever borrowed on the write path (borrowing one
 * while holding another could exhaust a small pool). A changed binding is therefore seen by every
 * process within about a second; roll-ups of a newly folded type wait {@link #GRACE} before they
 * begin. A database without the table (migrate() not yet run) reads as an empty registry.
 */
public final class TypeRegistry {
    /** How stale a process's view of the registry may become. */
    public static final Duration REFRESH = Duration.ofSeconds(1);
    /** How long after a binding roll-ups wait, so that every process reads it first. */
    public static final Duration GRACE = REFRESH.multipliedBy(3);

    private static final Logger LOG = LoggerFactory.getLogger(TypeRegistry.class);

    private final Database database;
    private final TableName table;
    private final SlottedConfig config;
    private final Ticker ticker;
    private final ReentrantLock refreshing = new ReentrantLock();
    private volatile Map<Integer, Registration> view;
    /** Whether the view records a type that expires: asked on every flush, so kept, not searched. */
    private volatile boolean viewExpiring;
    private volatile long readAt;
    /** The schema version, read again with the registry, which refuses writes once it is newer. */
    private final SchemaVersionWatch schemaVersion;
    /** The table was missing at the last read: nothing can be bound until migrate creates it. */
    private volatile boolean missing;
    private volatile boolean missingReported;

    /**
     * Creates the registry of a counter table; reads nothing yet.
     *
     * @param database the database and its counter table
     * @param config the processes' own slot counts, the clock and the ticker
     */
    public TypeRegistry(Database database, SlottedConfig config) {
        this.database = database;
        this.table = database.table().withSuffix(SchemaMigrator.REGISTRY_SUFFIX);
        this.schemaVersion = new SchemaVersionWatch(database.table());
        this.config = config;
        this.ticker = config.ticker();
    }

    /**
     * The registry table's name.
     *
     * @return the checked name
     */
    public TableName table() {
        return table;
    }

    /**
     * The slot count writes use for a type: the registry's if it sets one, else this process's.
     * Reads only the cached view: never touches the database.
     *
     * @param recordType the counter type
     * @return the slot count
     */
    public int slots(int recordType) {
        Registration registration = viewed(recordType);
        return registration != null && registration.slots() > 0
                ? registration.slots() : config.slots(recordType);
    }

    /** A type's registration as the cached view has it; null when the view has none, or is not read yet. */
    private Registration viewed(int recordType) {
        Map<Integer, Registration> known = view;
        return known == null ? null : known.get(recordType);
    }

    /**
     * Whether a type folds into an owner column, as the cached view has it: a total of such a
     * type is its column plus its slots. Reads only the cached view.
     *
     * @param recordType the counter type
     * @return true if bound in fold mode when last read
     */
    public boolean folds(int recordType) {
        Registration registration = viewed(recordType);
        return registration != null && registration.folds();
    }

    /**
     * The owner column a type folds into, for a decision of its limits inside the caller's
     * transaction: from the cached view while it is fresh (read within {@link #REFRESH}), else
     * from the registry, read in that transaction without committing it (a {@link #reload}
     * commits its connection's transaction) and without changing the view. A process that writes
     * only in its callers' transactions ({@code add(connection, …)}) never refreshes the view,
     * and must still count a column bound since.
     *
     * @param connection a connection in the caller's transaction
     * @param recordType the counter type
     * @return the owner column, or empty when the type does not fold
     * @throws SQLException if the registry cannot be read
     */
    public Optional<OwnerColumn> foldsInto(Connection connection, int recordType) throws SQLException {
        Registration registration;
        if (view != null && ticker.read() - readAt <= REFRESH.toNanos()) {
            registration = viewed(recordType);
        } else {
            try (PreparedStatement select = connection.prepareStatement(sql(connection).selectOne())) {
                select.setInt(1, recordType);
                try (ResultSet row = select.executeQuery()) {
                    registration = row.next() ? fromRow(row) : null;
                }
            }
        }
        return registration != null && registration.folds() ? Optional.of(registration.owner()) : Optional.empty();
    }

    /**
     * The limits a type's writes keep its totals within: this process's own, or, when it was given
     * none, those the registry records (as the cached view has them: a process learns limits
     * another recorded within {@link #REFRESH}). Reads only the cached view.
     *
     * @param recordType the counter type
     * @return the limits, {@link Limits#NONE} when the type has none
     */
    public Limits limits(int recordType) {
        Limits own = config.limits(recordType);
        if (own.bounded()) {
            return own;
        }
        Registration registration = viewed(recordType);
        return registration == null ? Limits.NONE : registration.limits();
    }

    /**
     * The longest window of any type with limits per window this process knows of — its own, or
     * recorded by another process, as the cached view has them — for how long idempotency keys
     * must be kept: a key must outlive the window of the increment it names.
     *
     * @return the longest, {@link Duration#ZERO} when no type has windows
     */
    public Duration longestWindow() {
        Map<Integer, Registration> known = view;
        return Stream.concat(config.limits().values().stream(),
                        known == null ? Stream.empty() : known.values().stream().map(Registration::limits))
                .filter(Limits::windowed).map(limits -> limits.window().longest())
                .max(Comparator.naturalOrder()).orElse(Duration.ZERO);
    }

    /**
     * Whether a type's counters may expire: this process was told so, or the registry records it
     * (as the cached view has it: a process learns within {@link #REFRESH} that another made a
     * type expiring). Reads only the cached view.
     *
     * @param recordType the counter type
     * @return true if its writes must take the counters' expiry locks
     */
    public boolean expiring(int recordType) {
        if (config.expiring(recordType)) {
            return true;
        }
        Registration registration = viewed(recordType);
        return registration != null && registration.expiring();
    }

    /**
     * Whether any type may expire, as {@link #expiring} says, without naming one.
     *
     * @return true if this process was told of one, or the view records one
     */
    public boolean anyExpiring() {
        return viewExpiring || !config.expiringTypes().isEmpty();
    }

    /**
     * Makes sure the registry records that a type this process was told expires does, before
     * the process writes it, so that every process writing the type, told or not, takes the
     * counters' expiry locks within {@link #REFRESH}. Reads only the cached view once it shows it.
     *
     * @param connection a connection in auto-commit, between transactions
     * @param recordType the counter type
     * @throws SQLException if the registry cannot be read or written
     */
    public void agreeOnExpiring(Connection connection, int recordType) throws SQLException {
        if (!config.expiring(recordType)) {
            return;
        }
        Registration viewed = viewed(recordType);
        if (viewed != null && viewed.expiring()) {
            return;
        }
        for (int attempt = 1; ; attempt++) {
            try {
                Transactions.inTransaction(connection, () -> {
                    Optional<Registration> existing = lock(connection, recordType, false);
                    if (existing.isEmpty() || !existing.get().expiring()) {
                        write(connection, existing, existing.orElse(new Registration(recordType, null, null, 0, 0, 0))
                                .withExpiring());
                    }
                    connection.commit();
                    return null;
                });
                break;
            } catch (SQLException e) {
                // Two processes may insert the type's first row at once: the one that lost finds it next time.
                if (attempt > 1 || database.dialectOf(connection).classify(e) != Failure.DUPLICATE_KEY) {
                    throw e;
                }
            }
        }
        reload(connection);
        LOG.info("recorded in {} that the counters of record_type {} may expire", table, recordType);
    }

    /**
     * Makes sure the registry records the limits this process was given for a type, before the
     * process decides any increment by them: the first process to write a bounded type records
     * them. A process given no limits learns them from the registry within {@link #REFRESH}; what
     * it writes before then is not decided by them, which is why every process writing a bounded
     * type should be given its limits. Reads only the cached view when it already shows the same
     * limits, as it does after the first time.
     *
     * @param connection a connection in auto-commit, between transactions
     * @param recordType the counter type
     * @throws SlottedException if the registry records other limits for the type: nothing is written
     * @throws SQLException if the registry cannot be read or written
     */
    public void agreeOnLimits(Connection connection, int recordType) throws SQLException {
        if (config.limits().isEmpty()) {
            return;
        }
        Limits own = config.limits(recordType);
        if (!own.bounded()) {
            return;
        }
        Registration viewed = viewed(recordType);
        if (viewed != null && viewed.limits().equals(own)) {
            return;
        }
        boolean recorded = false;
        for (int attempt = 1; ; attempt++) {
            try {
                recorded = Transactions.inTransaction(connection, () -> recordLimits(connection, recordType, own));
                break;
            } catch (SQLException e) {
                // Two processes may insert the type's first row at once: the one that lost finds it next time.
                if (attempt > 1 || database.dialectOf(connection).classify(e) != Failure.DUPLICATE_KEY) {
                    throw e;
                }
            }
        }
        reload(connection);
        if (recorded) {
            LOG.info("recorded the limits {} of record_type {} in {}", own, recordType, table);
        }
    }

    /**
     * Checks this process's limits for a type against the registry as the cached view has it,
     * touching no database: for a write inside the application's transaction, which must not
     * commit it early by recording them ({@link #agreeOnLimits} does that for the other writes).
     *
     * @param recordType the counter type
     * @throws SlottedException if the view shows other limits than this process's
     */
    public void checkLimitsAgainstView(int recordType) {
        Limits own = config.limits(recordType);
        Registration viewed = viewed(recordType);
        if (own.bounded() && viewed != null && viewed.limits().bounded() && !viewed.limits().equals(own)) {
            throw disagreement(recordType, viewed.limits(), own);
        }
    }

    private SlottedException disagreement(int recordType, Limits recorded, Limits own) {
        return new SlottedException("record_type " + recordType + " has the limits " + recorded
                + " in the registry " + table + ", but this process was given " + own + ": every process"
                + " must keep the same limits; give this process " + recorded + " (or none, to follow the"
                + " registry); nothing was written");
    }

    /**
     * Refuses limits that a counter's total already breaks (no limit can be kept on a total it
     * does not start within), and limits of a type bound to its owner column so recently that a
     * process may not know yet that the column is part of its totals. Limits per window bound
     * no total: each window counts from 0.
     */
    private void refuseOutside(Connection connection, Optional<Registration> existing, int recordType, Limits limits)
            throws SQLException {
        if (limits.windowed()) {
            return;
        }
        if (existing.isPresent() && existing.get().folds()) {
            refuseOutsideWithColumn(connection, existing.get(), limits);
            return;
        }
        try (PreparedStatement select = connection.prepareStatement(
                database.dialectOf(connection).slotStatements(database.table()).totalsOfType())) {
            select.setInt(1, recordType);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    BigDecimal total = rows.getBigDecimal(2);
                    if (total != null && (total.compareTo(BigDecimal.valueOf(limits.min())) < 0
                            || total.compareTo(BigDecimal.valueOf(limits.max())) > 0)) {
                        refuseTotal(connection, recordType, limits, rows.getLong(1), total);
                    }
                }
            }
        }
    }

    /** {@link #refuseOutside} for a type that folds: its totals are its column plus its slots. */
    private void refuseOutsideWithColumn(Connection connection, Registration binding, Limits limits)
            throws SQLException {
        long boundFor = config.clock().millis() - binding.boundMs();
        if (boundFor < GRACE.toMillis()) {
            connection.rollback();
            throw new SlottedException("record_type " + binding.recordType() + " was bound to its owner column "
                    + binding.owner() + " " + boundFor + " ms ago: its limits can be recorded once every process"
                    + " counts the column in its totals, " + (GRACE.toMillis() - boundFor) + " ms from now; retry"
                    + " then; nothing was written");
        }
        Dialect dialect = database.dialectOf(connection);
        try (PreparedStatement select = connection.prepareStatement(
                dialect.ownerStatements(binding.owner(), database.table()).outsideSql())) {
            select.setInt(1, binding.recordType());
            select.setLong(2, limits.min());
            select.setLong(3, limits.max());
            try (ResultSet rows = select.executeQuery()) {
                if (rows.next()) {
                    refuseTotal(connection, binding.recordType(), limits, rows.getLong(1), rows.getBigDecimal(2));
                }
            }
        }
    }

    private void refuseTotal(Connection connection, int recordType, Limits limits, long recordId, BigDecimal total)
            throws SQLException {
        connection.rollback();
        throw new SlottedException("cannot keep record_type " + recordType + " within the limits "
                + limits + ": counter (record_type=" + recordType + ", record_id=" + recordId
                + ") has the total " + total + " already; set it within them first (slotted set "
                + recordType + " " + recordId + " N); nothing was written");
    }

    /** In the caller's transaction: records the limits unless the row has them; true if it wrote them. */
    private boolean recordLimits(Connection connection, int recordType, Limits own) throws SQLException {
        Optional<Registration> existing = lock(connection, recordType, false);
        Limits recorded = existing.map(Registration::limits).orElse(Limits.NONE);
        if (recorded.bounded() && !recorded.equals(own)) {
            connection.rollback();
            throw disagreement(recordType, recorded, own);
        }
        if (!recorded.bounded()) {
            refuseOutside(connection, existing, recordType, own);
            write(connection, existing,
                    existing.orElse(new Registration(recordType, null, null, 0, 0, 0)).withLimits(own));
        }
        connection.commit();
        return !recorded.bounded();
    }

    /**
     * A type's registration, re-reading the registry on {@code connection} first if the view is
     * older than {@link #REFRESH} (or was never read).
     *
     * @param connection a connection the caller holds, in auto-commit or between transactions
     * @param recordType the counter type
     * @return the registration, or empty when the registry has no row for the type
     * @throws SQLException if the registry cannot be read the first time
     */
    public Optional<Registration> registration(Connection connection, int recordType)
            throws SQLException {
        return Optional.ofNullable(current(connection).get(recordType));
    }

    /**
     * The whole registry, re-read on {@code connection} if the view is stale.
     *
     * @param connection a connection the caller holds, in auto-commit or between transactions
     * @return every type's registration
     * @throws SQLException if the registry cannot be read the first time
     */
    public Map<Integer, Registration> current(Connection connection) throws SQLException {
        Map<Integer, Registration> known = view;
        if (known == null) {
            refreshing.lock();
            try {
                if (view == null) {
                    reload(connection);
                }
            } finally {
                refreshing.unlock();
            }
        } else if (ticker.read() - readAt > REFRESH.toNanos() && refreshing.tryLock()) {
            try {
                reload(connection);
            } finally {
                refreshing.unlock();
            }
        }
        return view;
    }

    /**
     * {@link #refreshIfStale} for a write, which it then refuses if the schema was found newer
     * than this release knows ({@link SchemaVersionWatch}).
     *
     * @param connection a connection the caller holds, in auto-commit or between transactions
     * @throws SQLException if the connection failed
     * @throws io.slotted.SchemaException if the schema is newer than this release knows; nothing
     *     was written
     */
    public void refreshForWriting(Connection connection) throws SQLException {
        refreshIfStale(connection);
        schemaVersion.checkWritable();
    }

    /**
     * Refuses a write, as {@link #refreshForWriting} does, from the schema version last read,
     * reading nothing: for a write inside the caller's transaction.
     *
     * @throws io.slotted.SchemaException if the schema is newer than this release knows
     */
    public void checkWritable() {
        schemaVersion.checkWritable();
    }

    /**
     * Re-reads the registry if the view is stale, for the write paths, which need from it only the
     * slot counts. A lost connection is the caller's failure: it comes from the connection the
     * caller is about to write on, and is retried like a failure of the write itself. Any other
     * failure (a role without SELECT on the registry, say) keeps the last view rather than failing
     * every write; the connection stays usable, since a failed read is rolled back.
     *
     * @param connection a connection the caller holds, in auto-commit or between transactions
     * @throws SQLException if the connection failed
     */
    public void refreshIfStale(Connection connection) throws SQLException {
        try {
            current(connection);
            if (missing) {
                reportMissing();
            }
        } catch (SQLException e) {
            if (database.dialectOf(connection).classify(e) == Failure.CONNECTION) {
                throw e;
            }
            LOG.debug("could not read the type registry {}; keeping the last view", table, e);
        }
    }

    /**
     * Re-reads the registry now.
     *
     * @param connection a connection the caller holds, in auto-commit or between transactions
     * @return every type's registration
     * @throws SQLException if the registry cannot be read
     */
    public Map<Integer, Registration> reload(Connection connection) throws SQLException {
        boolean autoCommit = connection.getAutoCommit();
        Map<Integer, Registration> read = new HashMap<>();
        boolean found = true;
        try (PreparedStatement select = connection.prepareStatement(sql(connection).selectAll());
                ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                Registration registration = fromRow(rows);
                read.put(registration.recordType(), registration);
            }
        } catch (SQLException e) {
            if (!autoCommit) {
                Transactions.rollbackQuietly(connection, e);
            }
            if (!isMissingTable(connection, e)) {
                throw e;
            }
            // Not said here but by the write path: the background roller may read before the
            // application's migrate() has run, when the advice to migrate would be of no use.
            found = false;
        }
        schemaVersion.read(connection, database.dialectOf(connection));
        if (!autoCommit) {
            connection.commit();
        }
        viewExpiring = read.values().stream().anyMatch(Registration::expiring);
        view = Map.copyOf(read);
        missing = !found;
        readAt = ticker.read();
        return view;
    }

    /**
     * Reads one type's row and locks it until the caller's transaction ends: the lock that elects
     * one roller per type, and that makes binding changes wait for a running roll-up.
     *
     * @param connection a connection in a transaction
     * @param recordType the counter type
     * @param noWait true to fail at once (with a lock conflict) if another session holds the row
     * @return the row, or empty if the type has none
     * @throws SQLException if the row cannot be read or, with {@code noWait}, is locked
     */
    public Optional<Registration> lock(Connection connection, int recordType, boolean noWait)
            throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(sql(connection).lock(noWait))) {
            select.setInt(1, recordType);
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? Optional.of(fromRow(row)) : Optional.empty();
            }
        }
    }

    /**
     * Writes a type's row, inserting it if {@code existing} is empty. The caller holds the row's
     * lock, or found no row and takes the duplicate-key failure of a concurrent insert as a
     * conflict to retry.
     *
     * @param connection a connection in the caller's transaction
     * @param existing the row as the caller locked it, or empty
     * @param changed the row to write
     * @throws SQLException if the write fails
     */
    public void write(Connection connection, Optional<Registration> existing, Registration changed)
            throws SQLException {
        RegistryStatements sql = sql(connection);
        try (PreparedStatement statement = connection.prepareStatement(
                existing.isPresent() ? sql.update() : sql.insert())) {
            OwnerColumn owner = changed.owner();
            statement.setString(1, owner == null ? null : owner.table());
            statement.setString(2, owner == null ? null : owner.keyColumn());
            statement.setString(3, owner == null ? null : owner.countColumn());
            statement.setString(4, changed.mode() == null ? null
                    : changed.mode().name().toLowerCase(Locale.ROOT));
            statement.setInt(5, changed.slots());
            statement.setLong(6, changed.boundMs());
            statement.setLong(7, changed.rolledUpMs());
            Limits limits = changed.limits();
            statement.setObject(8, limits.min() == Long.MIN_VALUE ? null : limits.min(), Types.BIGINT);
            statement.setObject(9, limits.max() == Long.MAX_VALUE ? null : limits.max(), Types.BIGINT);
            statement.setString(10, limits.windowed() ? limits.window().toString() : null);
            statement.setInt(11, changed.expiring() ? 1 : 0);
            statement.setInt(12, changed.recordType());
            statement.executeUpdate();
        }
    }

    /**
     * Records when a type's completed roll-up started, on the connection holding the row's lock.
     *
     * @param connection the connection holding the lock
     * @param recordType the counter type
     * @param startedMs when the roll-up started
     * @throws SQLException if the write fails
     */
    public void rolledUp(Connection connection, int recordType, long startedMs) throws SQLException {
        try (PreparedStatement update = connection.prepareStatement(sql(connection).rolledUp())) {
            update.setLong(1, startedMs);
            update.setInt(2, recordType);
            update.executeUpdate();
        }
    }

    /**
     * Deletes a type's row, on the connection holding its lock.
     *
     * @param connection the connection holding the lock
     * @param recordType the counter type
     * @throws SQLException if the delete fails
     */
    public void delete(Connection connection, int recordType) throws SQLException {
        try (PreparedStatement delete = connection.prepareStatement(sql(connection).delete())) {
            delete.setInt(1, recordType);
            delete.executeUpdate();
        }
    }

    /** The registry's statements, from the dialect of the database the connection reaches. */
    private RegistryStatements sql(Connection connection) throws SQLException {
        return database.dialectOf(connection).registryStatements(table);
    }

    /** Makes the next read of the view go to the database. */
    public void invalidate() {
        readAt = ticker.read() - REFRESH.toNanos() - 1;
    }

    /**
     * How far the owner columns may trail, from the cached view: the time since the oldest bound
     * type's last completed roll-up started.
     *
     * @return milliseconds, or -1 if no type is bound or the registry was never read
     */
    public long lagMillis() {
        Map<Integer, Registration> known = view;
        if (known == null) {
            return -1;
        }
        long now = config.clock().millis();
        return known.values().stream().filter(Registration::bound)
                .mapToLong(r -> Math.max(0, now - r.rolledUpMs())).max().orElse(-1);
    }

    private static Registration fromRow(ResultSet row) throws SQLException {
        String ownerTable = row.getString(2);
        OwnerColumn owner = ownerTable == null ? null
                : new OwnerColumn(ownerTable, row.getString(3), row.getString(4));
        String mode = row.getString(5);
        return new Registration(row.getInt(1), owner,
                mode == null ? null : OwnerMode.valueOf(mode.toUpperCase(Locale.ROOT)),
                row.getInt(6), row.getLong(7), row.getLong(8), limitsOf(row), row.getInt(12) == 1);
    }

    private static Limits limitsOf(ResultSet row) throws SQLException {
        long min = row.getLong(9);
        min = row.wasNull() ? Long.MIN_VALUE : min;
        long max = row.getLong(10);
        max = row.wasNull() ? Long.MAX_VALUE : max;
        String window = row.getString(11);
        return new Limits(min, max, window == null ? null : Window.parse(window));
    }

    private boolean isMissingTable(Connection connection, SQLException e) {
        try {
            return database.dialectOf(connection).classify(e) == Failure.MISSING_TABLE;
        } catch (SQLException notKnown) {
            return false;
        }
    }

    private void reportMissing() {
        if (!missingReported) {
            missingReported = true;
            LOG.info("no type registry table {}: call migrate() or run 'slotted migrate' to create"
                    + " it; until then no counter type is bound to an owner column", table);
        }
    }
}
