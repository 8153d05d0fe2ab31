package io.slotted.internal;

import io.slotted.Increment;
import io.slotted.MigrationReport;
import io.slotted.SlottedConfig;
import io.slotted.SlottedCounters;
import io.slotted.SlottedStats;
import io.slotted.internal.group.BufferedWriter;
import io.slotted.internal.group.GroupedWriter;
import io.slotted.internal.jdbc.Database;
import io.slotted.internal.jdbc.Retrier;
import io.slotted.internal.jdbc.RetryPolicy;
import io.slotted.internal.keys.IdempotencyKeys;
import io.slotted.internal.read.CounterReader;
import io.slotted.internal.schema.SchemaMigrator;
import io.slotted.internal.sql.CounterKey;
import io.slotted.internal.sql.TableName;
import io.slotted.internal.write.CounterWriter;
import io.slotted.internal.write.DirectWriter;
import io.slotted.internal.write.SlotPicker;
import io.slotted.internal.write.StatsRecorder;
import java.sql.Connection;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;

/**
 * The one implementation of {@link SlottedCounters}: checks arguments, then hands writes to the
 * write mode's {@link CounterWriter} and reads to the {@link CounterReader}.
 */
public final class DefaultSlottedCounters implements SlottedCounters {
    private final SlottedConfig config;
    private final Database database;
    private final StatsRecorder stats = new StatsRecorder();
    private final Retrier retrier;
    private final DirectWriter direct;
    private final CounterWriter writer;
    private final CounterReader reader;
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
        this.direct = new DirectWriter(database, new SlotPicker(config), retrier, keys, stats);
        this.writer = switch (config.writeMode()) {
            case DIRECT -> direct;
            case GROUPED -> new GroupedWriter(database, config, keys, stats);
            case BUFFERED -> new BufferedWriter(database, config, keys, stats);
        };
        this.reader = new CounterReader(database, retrier);
    }

    @Override
    public MigrationReport migrate() {
        return retrier.write("migrate table " + database.table(), (connection, dialect) ->
                SchemaMigrator.migrate(connection, dialect, database.table()));
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
    public boolean addAll(Collection<Increment> increments, String idempotencyKey) {
        List<Increment> batch = acceptedBatch(increments);
        return direct.addAll(batch, SlottedCounters.checkIdempotencyKey(idempotencyKey));
    }

    private List<Increment> acceptedBatch(Collection<Increment> increments) {
        Objects.requireNonNull(increments, "increments must not be null");
        if (closed.get()) {
            throw new IllegalStateException("these counters are closed; build new ones to keep counting");
        }
        return List.copyOf(increments);
    }

    @Override
    public CompletableFuture<Void> addAsync(int recordType, long recordId, long delta) {
        return writer.addAsync(acceptedKey(recordType, recordId, delta), delta);
    }

    @Override
    public void add(Connection connection, int recordType, long recordId, long delta) {
        Objects.requireNonNull(connection, "connection must not be null");
        direct.addInTransaction(connection, acceptedKey(recordType, recordId, delta), delta);
    }

    @Override
    public long get(int recordType, long recordId) {
        return reader.get(new CounterKey(recordType, recordId));
    }

    @Override
    public Map<Long, Long> getAll(int recordType, Collection<Long> recordIds) {
        Objects.requireNonNull(recordIds, "recordIds must not be null");
        return reader.getAll(recordType, recordIds);
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
            writer.close();
        }
    }

    private CounterKey acceptedKey(int recordType, long recordId, long delta) {
        if (delta == 0) {
            throw new IllegalArgumentException("delta must not be 0 (counter (record_type="
                    + recordType + ", record_id=" + recordId + "))");
        }
        if (closed.get()) {
            throw new IllegalStateException("these counters are closed; build new ones to keep counting");
        }
        return new CounterKey(recordType, recordId);
    }
}
