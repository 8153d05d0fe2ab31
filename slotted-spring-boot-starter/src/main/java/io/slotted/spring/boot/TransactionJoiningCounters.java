package io.slotted.spring.boot;

import io.slotted.CounterAdmin;
import io.slotted.CounterExpiry;
import io.slotted.CounterNames;
import io.slotted.Increment;
import io.slotted.MigrationReport;
import io.slotted.OwnerColumns;
import io.slotted.Progress;
import io.slotted.SlottedConfig;
import io.slotted.SlottedCounters;
import io.slotted.SlottedStats;
import io.slotted.TimeSeries;
import java.sql.Connection;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.ConnectionHolder;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Counters whose {@code add} and {@code increment} join the Spring-managed transaction of the
 * calling thread ({@code slotted.join-transactions=true}).
 *
 * <p>Inside a transaction that holds a connection of the counters' own data source (one begun by
 * {@code @Transactional} under a {@code DataSourceTransactionManager}, {@code JdbcTransactionManager}
 * or {@code JpaTransactionManager}), an increment is the library's
 * {@link SlottedCounters#add(Connection, int, long, long)} on that connection: an upsert into one
 * slot row, committed or rolled back with the rest of the transaction. The slot row's lock is then
 * held until the transaction ends, which is the price of the guarantee. Everywhere else — no
 * transaction, a transaction on another data source, or the other calls (keyed, batched,
 * asynchronous) — the call goes to the counters unchanged, through their write mode.
 */
final class TransactionJoiningCounters implements SlottedCounters {
    private final SlottedCounters counters;
    private final DataSource dataSource;

    TransactionJoiningCounters(SlottedCounters counters, DataSource dataSource) {
        this.counters = counters;
        this.dataSource = dataSource;
    }

    @Override
    public void add(int recordType, long recordId, long delta) {
        if (!inTransactionOnDataSource()) {
            counters.add(recordType, recordId, delta);
            return;
        }
        Connection connection = DataSourceUtils.getConnection(dataSource);
        try {
            counters.add(connection, recordType, recordId, delta);
        } finally {
            DataSourceUtils.releaseConnection(connection, dataSource);
        }
    }

    /**
     * Whether the thread's transaction already holds a connection of the counters' data source.
     * Only then is there a transaction to join: asking {@link DataSourceUtils} for a connection
     * otherwise would get one in auto-commit, committing the increment at once.
     */
    private boolean inTransactionOnDataSource() {
        return TransactionSynchronizationManager.isActualTransactionActive()
                && TransactionSynchronizationManager.getResource(dataSource) instanceof ConnectionHolder holder
                && holder.isSynchronizedWithTransaction();
    }

    @Override
    public MigrationReport migrate() {
        return counters.migrate();
    }

    @Override
    public MigrationReport migrate(Progress progress) {
        return counters.migrate(progress);
    }

    @Override
    public MigrationReport verifySchema() {
        return counters.verifySchema();
    }

    @Override
    public boolean add(int recordType, long recordId, long delta, String idempotencyKey) {
        return counters.add(recordType, recordId, delta, idempotencyKey);
    }

    @Override
    public long addAll(Collection<Increment> increments) {
        return counters.addAll(increments);
    }

    /** On its own transaction, as {@link #addAndGet} is: its totals are those after its commit. */
    @Override
    public List<Long> addAllAndGet(Collection<Increment> increments) {
        return counters.addAllAndGet(increments);
    }

    @Override
    public boolean addAll(Collection<Increment> increments, String idempotencyKey) {
        return counters.addAll(increments, idempotencyKey);
    }

    /**
     * Through the write mode, even inside a transaction: its total is the one right after its
     * own commit, which a joined increment, committed with the caller's transaction, has not had.
     */
    @Override
    public long addAndGet(int recordType, long recordId, long delta) {
        return counters.addAndGet(recordType, recordId, delta);
    }

    @Override
    public long refund(int recordType, long recordId, long amount, Instant madeAt) {
        return counters.refund(recordType, recordId, amount, madeAt);
    }

    @Override
    public CompletableFuture<Long> addAndGetAsync(int recordType, long recordId, long delta) {
        return counters.addAndGetAsync(recordType, recordId, delta);
    }

    @Override
    public CompletableFuture<Boolean> addAsync(int recordType, long recordId, long delta, String idempotencyKey) {
        return counters.addAsync(recordType, recordId, delta, idempotencyKey);
    }

    @Override
    public CompletableFuture<Void> addAsync(int recordType, long recordId, long delta) {
        return counters.addAsync(recordType, recordId, delta);
    }

    @Override
    public void add(Connection connection, int recordType, long recordId, long delta) {
        counters.add(connection, recordType, recordId, delta);
    }

    @Override
    public long get(int recordType, long recordId) {
        return counters.get(recordType, recordId);
    }

    @Override
    public Map<Long, Long> getAll(int recordType, Collection<Long> recordIds) {
        return counters.getAll(recordType, recordIds);
    }

    @Override
    public OwnerColumns owners() {
        return counters.owners();
    }

    @Override
    public CounterAdmin admin() {
        return counters.admin();
    }

    @Override
    public CounterExpiry expiry() {
        return counters.expiry();
    }

    @Override
    public TimeSeries timeSeries() {
        return counters.timeSeries();
    }

    @Override
    public CounterNames names() {
        return counters.names();
    }

    @Override
    public SlottedConfig config() {
        return counters.config();
    }

    @Override
    public SlottedStats stats() {
        return counters.stats();
    }

    @Override
    public void close() {
        counters.close();
    }

    @Override
    public String toString() {
        return "TransactionJoiningCounters[" + counters + "]";
    }
}
