package io.slotted.internal;

import io.slotted.AdoptionReport;
import io.slotted.BucketCount;
import io.slotted.CounterNames;
import io.slotted.Increment;
import io.slotted.MigrationReport;
import io.slotted.OwnerColumn;
import io.slotted.OwnerMode;
import io.slotted.RankedCounter;
import io.slotted.RecountReport;
import io.slotted.RollUpReport;
import io.slotted.SlottedConfig;
import io.slotted.SlottedCounters;
import io.slotted.SlottedCountersBuilder;
import io.slotted.SlottedStats;
import io.slotted.TimeBuckets;
import io.slotted.internal.admin.BucketKeeper;
import io.slotted.internal.admin.CounterSetter;
import io.slotted.internal.admin.Recount;
import io.slotted.internal.admin.SlotShrinker;
import io.slotted.internal.bucket.BucketClock;
import io.slotted.internal.bucket.BucketWindow;
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
import io.slotted.internal.registry.TypeRegistry;
import io.slotted.internal.rollup.Roller;
import io.slotted.internal.schema.SchemaMigrator;
import io.slotted.internal.sql.CounterKey;
import io.slotted.internal.sql.TableName;
import io.slotted.internal.write.CounterWriter;
import io.slotted.internal.write.DirectWriter;
import io.slotted.internal.write.SlotPicker;
import io.slotted.internal.write.StatsRecorder;
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
 * The one implementation of {@link SlottedCounters}: checks arguments, then hands writes to the
 * write mode's {@link CounterWriter}, reads to the {@link CounterReader}, roll-ups to the
 * {@link Roller}, and the owner column's and counters' lifecycle to their own classes.
 */
public final class DefaultSlottedCounters implements SlottedCounters {
    /** The most counters one top-N may ask for. */
    private static final int MAX_TOP = 1_000;
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
    private final Adoption adoption;
    private final CounterSetter setter;
    private final Recount recount;
    private final SlotShrinker shrinker;
    private final BucketReader buckets;
    private final BucketKeeper keeper;
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
        IdempotencyKeys keys = new IdempotencyKeys(
                database.table().withSuffix(SchemaMigrator.KEYS_SUFFIX),
                config.idempotencyRetention(), config.clock());
        this.registry = new TypeRegistry(database, config);
        this.unwritten = config.readsIncludeUnwritten() ? UnwrittenIncrements.tracking() : UnwrittenIncrements.off();
        this.reader = new CounterReader(database, retrier, registry);
        this.direct = new DirectWriter(database, new SlotPicker(registry), retrier, keys, registry, reader, stats,
                BucketClock.of(config));
        this.writer = switch (config.writeMode()) {
            case DIRECT -> direct;
            case GROUPED -> new GroupedWriter(database, config, keys, registry, reader, stats);
            case BUFFERED -> new BufferedWriter(database, config, keys, registry, reader, stats, unwritten);
        };
        this.roller = new Roller(database, retrier, registry, config, stats);
        this.adoption = new Adoption(database, retrier, registry, config.clock());
        this.setter = new CounterSetter(database, retrier, registry, stats);
        this.recount = new Recount(database, retrier, registry, direct);
        this.shrinker = new SlotShrinker(database, retrier, registry, config, stats);
        this.buckets = new BucketReader(database, retrier);
        this.keeper = new BucketKeeper(database, retrier, config);
        this.names = new NameDictionary(database,
                new Retrier(database, RetryPolicy.forFlushes(config, stats::retried)), config);
        stats.watchRollUpLag(registry::lagMillis);
        roller.start();
        keeper.start();
    }

    @Override
    public MigrationReport migrate() {
        MigrationReport report = retrier.write("migrate table " + database.table(), (connection, dialect) ->
                SchemaMigrator.migrate(connection, dialect, database.table()));
        registry.invalidate(); // the registry table may have just been made
        return report;
    }

    @Override
    public void add(int recordType, long recordId, long delta) {
        writer.add(acceptedKey(recordType, recordId, delta), delta);
    }

    @Override
    public boolean add(int recordType, long recordId, long delta, String idempotencyKey) {
        CounterKey key = acceptedKey(recordType, recordId, delta);
        return writer.add(key, delta, SlottedCounters.checkIdempotencyKey(idempotencyKey));
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
        return direct.addAll(batch, SlottedCounters.checkIdempotencyKey(idempotencyKey));
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
        return writer.addAsync(key, delta, SlottedCounters.checkIdempotencyKey(idempotencyKey));
    }

    @Override
    public long addAndGet(int recordType, long recordId, long delta) {
        return writer.addAndGet(acceptedKey(recordType, recordId, delta), delta);
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
        CounterKey key = new CounterKey(SlottedCounters.checkRecordType(recordType), recordId);
        if (!unwritten.isTracking()) {
            return reader.get(key);
        }
        return unwritten.read(() -> reader.get(key), written -> Math.addExact(written, unwritten.of(key)));
    }

    @Override
    public Map<Long, Long> getAll(int recordType, Collection<Long> recordIds) {
        Objects.requireNonNull(recordIds, "recordIds must not be null");
        SlottedCounters.checkRecordType(recordType);
        if (!unwritten.isTracking()) {
            return reader.getAll(recordType, recordIds);
        }
        return unwritten.read(() -> reader.getAll(recordType, recordIds), written -> {
            Map<Long, Long> totals = new LinkedHashMap<>(written);
            totals.replaceAll((id, count) -> Math.addExact(count, unwritten.of(new CounterKey(recordType, id))));
            return totals;
        });
    }

    @Override
    public void set(int recordType, long recordId, long count) {
        checkOpen();
        setter.set(new CounterKey(SlottedCounters.checkRecordType(recordType), recordId), count);
    }

    @Override
    public AdoptionReport adopt(int recordType, OwnerColumn owner, OwnerMode mode) {
        Objects.requireNonNull(owner, "owner must not be null");
        Objects.requireNonNull(mode, "mode must not be null");
        SlottedCounters.checkRecordType(recordType);
        checkOpen();
        return adoption.adopt(recordType, owner, mode);
    }

    @Override
    public RollUpReport release(int recordType) {
        SlottedCounters.checkRecordType(recordType);
        checkOpen();
        return roller.release(recordType);
    }

    @Override
    public RollUpReport rollUpNow() {
        checkOpen();
        return roller.rollUpNow();
    }

    @Override
    public RecountReport recount(int recordType, String sourceQuery, boolean fix) {
        Objects.requireNonNull(sourceQuery, "sourceQuery must not be null");
        SlottedCounters.checkRecordType(recordType);
        if (sourceQuery.isBlank()) {
            throw new IllegalArgumentException("sourceQuery must be a query returning (record_id,"
                    + " count) rows, but was blank");
        }
        checkOpen();
        return recount.recount(recordType, sourceQuery, fix);
    }

    @Override
    public long shrink(int recordType, int slots) {
        SlottedCounters.checkRecordType(recordType);
        if (slots < 1 || slots > SlottedCountersBuilder.MAX_SLOTS) {
            throw new IllegalArgumentException("slots must be between 1 and "
                    + SlottedCountersBuilder.MAX_SLOTS + ", but was " + slots);
        }
        checkOpen();
        return shrinker.shrink(recordType, slots);
    }

    @Override
    public List<BucketCount> series(int recordType, long recordId, Instant from, Instant to) {
        BucketWindow window = window(recordType, from, to);
        return buckets.series(new CounterKey(recordType, recordId), window);
    }

    @Override
    public List<RankedCounter> top(int recordType, Instant from, Instant to, int n) {
        if (n < 1 || n > MAX_TOP) {
            throw new IllegalArgumentException("n must be between 1 and " + MAX_TOP + ", but was " + n);
        }
        return buckets.top(recordType, window(recordType, from, to), n);
    }

    private BucketWindow window(int recordType, Instant from, Instant to) {
        Objects.requireNonNull(from, "from must not be null");
        Objects.requireNonNull(to, "to must not be null");
        SlottedCounters.checkRecordType(recordType);
        TimeBuckets kept = config.buckets(recordType).orElseThrow(() -> new IllegalArgumentException(
                "record_type " + recordType + " keeps no time buckets; configure them with"
                        + " SlottedCountersBuilder.buckets(" + recordType + ", unit, retention)"));
        checkOpen();
        return BucketWindow.of(recordType, kept, from, to, config.clock().instant());
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
            writer.close();
            names.close();
        }
    }

    private CounterKey acceptedKey(int recordType, long recordId, long delta) {
        SlottedCounters.checkRecordType(recordType);
        SlottedCounters.checkDelta(recordType, recordId, delta);
        checkOpen();
        return new CounterKey(recordType, recordId);
    }

    private void checkOpen() {
        if (closed.get()) {
            throw new IllegalStateException("these counters are closed; build new ones to keep counting");
        }
    }
}
