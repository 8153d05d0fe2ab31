package io.slotted.internal;

import io.slotted.CounterAdmin;
import io.slotted.CounterArguments;
import io.slotted.CounterExpiry;
import io.slotted.CounterNames;
import io.slotted.CounterOverflowException;
import io.slotted.Increment;
import io.slotted.Limits;
import io.slotted.MigrationReport;
import io.slotted.Progress;
import io.slotted.OwnerColumns;
import io.slotted.SlottedConfig;
import io.slotted.SlottedCounters;
import io.slotted.SlottedStats;
import io.slotted.TimeSeries;
import io.slotted.Window;
import io.slotted.internal.admin.BucketKeeper;
import io.slotted.internal.admin.CounterSetter;
import io.slotted.internal.expiry.ExpiringCounters;
import io.slotted.internal.expiry.ExpirySweep;
import io.slotted.internal.admin.Recount;
import io.slotted.internal.admin.SlotShrinker;
import io.slotted.internal.bucket.BucketClock;
import io.slotted.internal.group.BufferedWriter;
import io.slotted.internal.group.UnwrittenIncrements;
import io.slotted.internal.group.GroupedWriter;
import io.slotted.internal.jdbc.Database;
import io.slotted.internal.jdbc.Retrier;
import io.slotted.internal.jdbc.RetryPolicy;
import io.slotted.internal.keys.IdempotencyKeys;
import io.slotted.internal.owner.Adoption;
import io.slotted.internal.read.BucketReader;
import io.slotted.internal.read.CounterReader;
import io.slotted.internal.names.NameDictionary;
import io.slotted.internal.progress.Steps;
import io.slotted.internal.registry.RegisteredTypes;
import io.slotted.internal.registry.TypeRegistry;
import io.slotted.internal.rollup.Roller;
import io.slotted.internal.schema.SchemaMigrator;
import io.slotted.internal.sql.CounterKey;
import io.slotted.internal.sql.TableName;
import io.slotted.internal.write.CounterWriter;
import io.slotted.internal.write.DirectWriter;
import io.slotted.internal.write.SlotPicker;
import io.slotted.internal.write.StatsRecorder;
import java.math.BigInteger;
import java.sql.Connection;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;

/**
 * The one implementation of {@link SlottedCounters}: wires the engine, checks the hot path's
 * arguments, then hands writes to the write mode's {@link CounterWriter} and reads to the
 * {@link CounterReader}; the owner-column, administrative and time-series views check and hand on
 * their own calls.
 */
public final class DefaultSlottedCounters implements SlottedCounters {
    private final SlottedConfig config;
    private final Database database;
    private final StatsRecorder stats = new StatsRecorder();
    private final Retrier retrier;
    private final DirectWriter direct;
    private final CounterWriter writer;
    private final CounterReader reader;
    private final UnwrittenIncrements unwritten;
    private final TypeRegistry registry;
    private final NameDictionary names;
    private final Roller roller;
    private final BucketKeeper keeper;
    private final ExpirySweep sweep;
    private final CounterExpiry expiry;
    private final OwnerColumns owners;
    private final CounterAdmin admin;
    private final TimeSeries timeSeries;
    private final AtomicBoolean closed = new AtomicBoolean();

    /**
     * Wires the engine for a configuration. Opens no connection.
     *
     * @param dataSource the user's data source
     * @param config checked settings
     */
    public DefaultSlottedCounters(DataSource dataSource, SlottedConfig config) {
        this.config = config;
        this.database = new Database(dataSource, TableName.parse(config.table()));
        this.retrier = new Retrier(database, RetryPolicy.forStatements(config, stats::retried));
        this.registry = new TypeRegistry(database, config);
        IdempotencyKeys keys = new IdempotencyKeys(
                database.table().withSuffix(SchemaMigrator.KEYS_SUFFIX),
                config.idempotencyRetention(), registry::longestWindow, config.clock());
        this.unwritten = config.readsIncludeUnwritten() ? UnwrittenIncrements.tracking() : UnwrittenIncrements.off();
        ExpiringCounters expiring = new ExpiringCounters(database, config, registry);
        this.reader = new CounterReader(database, retrier, registry, BucketClock.of(config, registry::limits),
                expiring);
        this.direct = new DirectWriter(database, new SlotPicker(registry), retrier, keys, registry, reader, stats,
                BucketClock.of(config, registry::limits), expiring);
        this.writer = switch (config.writeMode()) {
            case DIRECT -> direct;
            case GROUPED -> new GroupedWriter(database, config, keys, registry, reader, stats);
            case BUFFERED -> new BufferedWriter(database, config, keys, registry, reader, stats, unwritten);
        };
        this.roller = new Roller(database, retrier, registry, config, stats);
        this.owners = new DefaultOwnerColumns(new Adoption(database, retrier, registry, config.clock()), roller,
                this::checkOpen, registry::expiring);
        CounterSetter setter = new CounterSetter(database, retrier, registry, stats, expiring);
        this.expiry = new DefaultCounterExpiry(expiring, setter, retrier, this::checkOpen);
        this.sweep = new ExpirySweep(expiring, retrier);
        this.admin = new DefaultCounterAdmin(setter,
                new Recount(database, retrier, registry, direct),
                new SlotShrinker(database, retrier, registry, config, stats),
                new RegisteredTypes(retrier, registry, config), this::checkOpen);
        this.timeSeries = new DefaultTimeSeries(config, new BucketReader(database, retrier), this::checkOpen);
        this.keeper = new BucketKeeper(database, retrier, config);
        this.names = new NameDictionary(database,
                new Retrier(database, RetryPolicy.forFlushes(config, stats::retried)), config);
        stats.watchRollUpLag(registry::lagMillis);
        roller.start();
        keeper.start();
        sweep.start();
    }

    @Override
    public MigrationReport migrate(Progress progress) {
        Objects.requireNonNull(progress, "progress must not be null");
        try {
            return retrier.write("migrate table " + database.table(), (connection, dialect) ->
                    SchemaMigrator.migrate(connection, dialect, database.table(), new Steps(progress)));
        } finally {
            registry.invalidate(); // the registry table may have just been made, even by a stopped migration
        }
    }

    @Override
    public MigrationReport verifySchema() {
        return retrier.read("verify the schema of table " + database.table(), (connection, dialect) ->
                SchemaMigrator.verify(connection, dialect, database.table()));
    }

    @Override
    public void add(int recordType, long recordId, long delta) {
        writer.add(acceptedKey(recordType, recordId, delta), delta);
    }

    @Override
    public boolean add(int recordType, long recordId, long delta, String idempotencyKey) {
        CounterKey key = acceptedKey(recordType, recordId, delta);
        return writer.add(key, delta, CounterArguments.checkIdempotencyKey(idempotencyKey));
    }

    @Override
    public long addAll(Collection<Increment> increments) {
        List<Increment> batch = acceptedBatch(increments);
        direct.addAll(batch, null);
        return batch.size();
    }

    @Override
    public List<Long> addAllAndGet(Collection<Increment> increments) {
        List<Increment> batch = acceptedBatch(increments);
        return batch.isEmpty() ? List.of() : direct.addAllAndGet(batch);
    }

    @Override
    public boolean addAll(Collection<Increment> increments, String idempotencyKey) {
        List<Increment> batch = acceptedBatch(increments);
        return direct.addAll(batch, CounterArguments.checkIdempotencyKey(idempotencyKey));
    }

    private List<Increment> acceptedBatch(Collection<Increment> increments) {
        Objects.requireNonNull(increments, "increments must not be null");
        checkOpen();
        return List.copyOf(increments);
    }

    @Override
    public CompletableFuture<Void> addAsync(int recordType, long recordId, long delta) {
        return writer.addAsync(acceptedKey(recordType, recordId, delta), delta);
    }

    @Override
    public CompletableFuture<Boolean> addAsync(int recordType, long recordId, long delta, String idempotencyKey) {
        CounterKey key = acceptedKey(recordType, recordId, delta);
        return writer.addAsync(key, delta, CounterArguments.checkIdempotencyKey(idempotencyKey));
    }

    @Override
    public long addAndGet(int recordType, long recordId, long delta) {
        return writer.addAndGet(acceptedKey(recordType, recordId, delta), delta);
    }

    @Override
    public long refund(int recordType, long recordId, long amount, Instant madeAt) {
        Objects.requireNonNull(madeAt, "madeAt must not be null");
        if (amount <= 0) {
            throw new IllegalArgumentException("a refund gives back a positive amount, but was " + amount
                    + ": to take more of a window, add to the counter");
        }
        CounterKey key = acceptedKey(recordType, recordId, -amount);
        Limits limits = registry.limits(recordType);
        if (!limits.windowed()) {
            throw new IllegalArgumentException("record_type " + recordType + " has no limits per window, so"
                    + " there is no window to refund: add " + -amount + " to the counter instead");
        }
        Window window = limits.window();
        Instant current = window.startOf(config.clock().instant());
        Instant previous = window.startOf(current.minusSeconds(1));
        Instant refunded = window.startOf(madeAt);
        if (!refunded.equals(current) && !refunded.equals(previous)) {
            throw new IllegalArgumentException("cannot refund into the window from " + refunded + " of counter "
                    + key + ": " + (refunded.isAfter(current) ? "it has not begun"
                            : "only the current window (from " + current + ") and the one before it (from "
                                    + previous + ") are kept") + "; nothing was changed");
        }
        return writer.refund(key, -amount, refunded.getEpochSecond());
    }

    @Override
    public CompletableFuture<Long> addAndGetAsync(int recordType, long recordId, long delta) {
        return writer.addAndGetAsync(acceptedKey(recordType, recordId, delta), delta);
    }

    @Override
    public void add(Connection connection, int recordType, long recordId, long delta) {
        Objects.requireNonNull(connection, "connection must not be null");
        direct.addInTransaction(connection, acceptedKey(recordType, recordId, delta), delta);
    }

    @Override
    public long get(int recordType, long recordId) {
        CounterKey key = new CounterKey(CounterArguments.checkRecordType(recordType), recordId);
        if (!unwritten.isTracking()) {
            return reader.get(key);
        }
        return unwritten.read(() -> reader.get(key), written -> withUnwritten(key, written));
    }

    @Override
    public Map<Long, Long> getAll(int recordType, Collection<Long> recordIds) {
        Objects.requireNonNull(recordIds, "recordIds must not be null");
        CounterArguments.checkRecordType(recordType);
        if (!unwritten.isTracking()) {
            return reader.getAll(recordType, recordIds);
        }
        return unwritten.read(() -> reader.getAll(recordType, recordIds), written -> {
            Map<Long, Long> totals = new LinkedHashMap<>(written);
            totals.replaceAll((id, count) -> withUnwritten(new CounterKey(recordType, id), count));
            return totals;
        });
    }

    /**
     * A counter's written total with this process's unwritten increments added: past the signed
     * 64-bit range it is reported with the exact total, as a read of the slots alone reports it,
     * never wrapped.
     */
    private long withUnwritten(CounterKey key, long written) {
        long notYetWritten = unwritten.of(key);
        try {
            return Math.addExact(written, notYetWritten);
        } catch (ArithmeticException e) {
            BigInteger total = BigInteger.valueOf(written).add(BigInteger.valueOf(notYetWritten));
            throw new CounterOverflowException("counter " + key + " totals " + total + " with the " + notYetWritten
                    + " this process has not written yet, outside the signed 64-bit range; add or subtract to bring"
                    + " it back within range", total);
        }
    }

    /**
     * Prunes and folds time buckets now rather than at the next background pass, for tests and
     * tools that move the clock.
     *
     * @return what was done
     */
    public BucketKeeper.Kept keepBucketsNow() {
        checkOpen();
        return keeper.keepNow();
    }

    @Override
    public OwnerColumns owners() {
        return owners;
    }

    @Override
    public CounterAdmin admin() {
        return admin;
    }

    @Override
    public CounterExpiry expiry() {
        return expiry;
    }

    @Override
    public TimeSeries timeSeries() {
        return timeSeries;
    }

    @Override
    public CounterNames names() {
        return names;
    }

    @Override
    public SlottedConfig config() {
        return config;
    }

    @Override
    public SlottedStats stats() {
        return stats.snapshot();
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            roller.close();
            keeper.close();
            sweep.close();
            writer.close();
            names.close();
        }
    }

    private CounterKey acceptedKey(int recordType, long recordId, long delta) {
        CounterArguments.checkRecordType(recordType);
        CounterArguments.checkDelta(recordType, recordId, delta);
        checkOpen();
        return new CounterKey(recordType, recordId);
    }

    private void checkOpen() {
        if (closed.get()) {
            throw new IllegalStateException("these counters are closed; build new ones to keep counting");
        }
    }
}
