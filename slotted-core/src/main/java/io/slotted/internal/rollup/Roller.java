package io.slotted.internal.rollup;

import io.slotted.OwnerColumn;
import io.slotted.RollUpReport;
import io.slotted.SlottedConfig;
import io.slotted.SlottedException;
import io.slotted.internal.background.Periodic;
import io.slotted.internal.dialect.Failure;
import io.slotted.internal.jdbc.Database;
import io.slotted.internal.jdbc.Retrier;
import io.slotted.internal.jdbc.Transactions;
import io.slotted.internal.mutation.Mutation;
import io.slotted.internal.progress.Steps;
import io.slotted.internal.owner.ColumnRange;
import io.slotted.internal.owner.OwnerShape;
import io.slotted.internal.registry.Registration;
import io.slotted.internal.registry.TypeRegistry;
import io.slotted.internal.write.StatsRecorder;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs roll-ups of the bound counter types: now, when asked, and in the background, when
 * configured; and releases a type.
 *
 * <p>One roller at a time per type, across every process: a roll-up holds the lock on its type's
 * row in the {@link TypeRegistry} for as long as it runs, on a connection of its own, and records
 * there when it started. A background roller asks for the lock without waiting ({@code FOR UPDATE
 * NOWAIT}) and passes if another process holds it; it also passes if any process rolled the type
 * up less than an interval ago, so an owner row is written at most once per interval however many
 * processes roll up. A roller that dies mid-pass loses its connection and with it the lock; the
 * next one takes over. Holding a row lock rather than a session lock works alike on every
 * database and needs no clock agreement between hosts.
 *
 * <p>A newly bound fold-mode type is not rolled up until {@link TypeRegistry#GRACE} has passed, so
 * that no process still reads it without its owner column.
 *
 * <p>Fold-mode roll-ups leave the rows they fold at 0; after each roll-up, under the same lock, the
 * {@link ZeroRowSweep} deletes some of those of counters that have stayed at 0 for a minute, and a
 * release deletes every row at 0 once everything is in the column.
 *
 * <p>A release holds the type's lock from start to end and unbinds the type in that transaction.
 * A fold-mode type is rolled up as usual first, chunk by chunk. A copy-mode type's reads come from
 * its slots alone until it is unbound, so its slot rows are emptied only in the unbinding
 * transaction, after a copy roll-up has brought the column up to date.
 */
public final class Roller implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Roller.class);

    private final Database database;
    private final Retrier retrier;
    private final TypeRegistry registry;
    private final SlottedConfig config;
    private final StatsRecorder stats;
    private final RollUpPass pass;
    private final ZeroRowSweep sweep;
    private final Map<OwnerColumn, ColumnRange> ranges = new ConcurrentHashMap<>();
    /**
     * Guards starting and stopping. A lock rather than {@code synchronized}: close waits for a
     * roll-up under way, and a virtual thread waiting inside {@code synchronized} would hold its
     * carrier thread on Java 21 to 23.
     */
    private final ReentrantLock lifecycle = new ReentrantLock();
    private Periodic background;
    private volatile String lastFailure;
    /** When the next type is due by the registry as last read (clock milliseconds); background thread only. */
    private long nextDueMs;
    /** When the registry was last read by the background roller (ticker nanoseconds). */
    private long lastReadNanos;

    /**
     * Creates the roller; starts nothing.
     *
     * @param database the database
     * @param retrier how failures are retried and reported
     * @param registry the type registry
     * @param config the background interval and the clock
     * @param stats where roll-ups are counted
     */
    public Roller(Database database, Retrier retrier, TypeRegistry registry, SlottedConfig config,
            StatsRecorder stats) {
        this.database = database;
        this.retrier = retrier;
        this.registry = registry;
        this.config = config;
        this.stats = stats;
        this.pass = new RollUpPass(database, retrier);
        this.sweep = new ZeroRowSweep(database, retrier, config.clock());
    }

    /** Starts rolling up in the background if the configuration asks for it. */
    public void start() {
        lifecycle.lock();
        try {
            startBackground();
        } finally {
            lifecycle.unlock();
        }
    }

    private void startBackground() {
        Duration every = config.rollUpEvery();
        if (every.isZero() || background != null) {
            return;
        }
        // A roll-up starts within a twentieth of an interval of being due, so the lag stays within
        // about an interval and a pass; a tick between two due times reads nothing.
        long tick = Math.max(5, every.toMillis() / 20);
        background = Periodic.start("slotted-roller-" + database.table(), tick, this::tick);
    }

    /**
     * Rolls up every bound type now, waiting for other rollers and, for a type bound moments ago,
     * for the grace period.
     *
     * @return what was done
     */
    public RollUpReport rollUpNow() {
        RollUpReport total = new RollUpReport(0, 0, 0, List.of());
        for (Registration seen : bindings().values()) {
            if (seen.bound()) {
                awaitGrace(seen);
                total = total.plus(rollUp(seen.recordType(), false).orElse(RollUpReport.NONE));
            }
        }
        return total;
    }

    /**
     * Rolls everything of a type into its owner column and unbinds it.
     *
     * @param recordType the bound type
     * @param steps what follows it, and may stop it before the roll-up and between the
     *     transactions that roll counters up or copy them into the column; stopped, the type stays
     *     bound
     * @return what the final roll-up did
     * @throws IllegalStateException if the type is not bound
     */
    public RollUpReport release(int recordType, Steps steps) {
        RollUpReport report = retrier.write("release record_type " + recordType, (lock, dialect) ->
                Transactions.inTransaction(lock, () -> {
                    Registration bound = registry.lock(lock, recordType, false)
                            .filter(Registration::bound)
                            .orElseThrow(() -> new IllegalStateException("counter type " + recordType
                                    + " is not bound to an owner column, so there is nothing to release;"
                                    + " nothing was changed"));
                    steps.stopIfAsked(() -> "stopped before rolling record_type " + recordType + " into "
                            + bound.owner() + "; nothing was changed");
                    RollUpReport released = bound.folds() ? releaseFolded(bound, steps)
                            : releaseCopied(lock, bound, steps);
                    if (bound.slots() > 0 || bound.limits().bounded() || bound.expiring()) {
                        registry.write(lock, Optional.of(bound), new Registration(recordType, null,
                                null, bound.slots(), 0, 0, bound.limits(), bound.expiring()));
                    } else {
                        registry.delete(lock, recordType);
                    }
                    lock.commit();
                    return released;
                }));
        registry.invalidate();
        return report;
    }

    /**
     * A fold-mode type's release before its unbinding: every counter into the column, in the
     * roll-up's transactions, which may stop between them (a counter rolled up holds its total in
     * the column, and reads add the column to the slots); then the rows left at 0 are deleted.
     */
    private RollUpReport releaseFolded(Registration bound, Steps steps) {
        int type = bound.recordType();
        RollUpReport folded = pass.fold(bound, range(bound.owner()).folded(), sweep.warm(type), steps);
        steps.begin("deleting the slot rows left at 0, and unbinding", -1, "statements");
        long swept = sweep.sweepAll(type);
        LOG.debug("release of record_type {} deleted {} slot rows at 0", type, swept);
        return folded;
    }

    /**
     * A copy-mode type's release, up to its unbinding: a copy roll-up, which may stop between its
     * transactions and leaves the slot rows as they are, then, in the unbinding transaction itself,
     * every counter's slot rows moved into the column and deleted (see {@link RollUpPass}).
     */
    private RollUpReport releaseCopied(Connection lock, Registration bound, Steps steps) throws SQLException {
        ColumnRange range = range(bound.owner());
        pass.copy(bound, range, steps);
        if (Mutation.COPY_RELEASE_BY_CHUNK.planted()) {
            pass.moveChunkByChunk(bound, range);
        }
        return pass.moveAll(lock, bound, range, steps);
    }

    /**
     * Rolls up the types that are due. The registry is read when the earliest type is due by the
     * last reading, and at least four times an interval whatever it said, for types bound since
     * and roll-ups by other processes.
     */
    private void tick() {
        try {
            long now = config.clock().millis();
            long interval = config.rollUpEvery().toMillis();
            long nanos = config.ticker().read();
            if (now < nextDueMs && nanos - lastReadNanos < TimeUnit.MILLISECONDS.toNanos(interval) / 4) {
                return;
            }
            lastReadNanos = nanos;
            long nextDue = now + interval;
            for (Registration seen : bindings().values()) {
                if (!seen.bound()) {
                    continue;
                }
                if (now - seen.rolledUpMs() >= interval && !inGrace(seen, now)) {
                    rollUp(seen.recordType(), true);
                    nextDue = 0; // read again at the next tick, which learns when this roll-up started
                } else {
                    nextDue = Math.min(nextDue, inGrace(seen, now) ? seen.boundMs() + TypeRegistry.GRACE.toMillis()
                            : seen.rolledUpMs() + interval);
                }
            }
            nextDueMs = nextDue;
            lastFailure = null;
        } catch (RuntimeException e) {
            nextDueMs = Long.MAX_VALUE; // tried again a quarter of an interval after this reading
            String message = String.valueOf(e.getMessage());
            if (!message.equals(lastFailure)) {
                LOG.warn("roll-up of {} failed; it is tried again four times an interval: {}", database.table(),
                        message, e);
            }
            lastFailure = message;
        }
    }

    /**
     * Rolls up one type under its registry row's lock.
     *
     * @param scheduled true for the background roller: do not wait for the lock, and pass if the
     *     type was rolled up less than an interval ago
     * @return what was done, or empty if another roller has it or it is not due
     */
    private Optional<RollUpReport> rollUp(int recordType, boolean scheduled) {
        return retrier.write("roll up record_type " + recordType, (lock, dialect) ->
                Transactions.inTransaction(lock, () -> {
                    Optional<Registration> locked;
                    try {
                        locked = registry.lock(lock, recordType, scheduled);
                    } catch (SQLException e) {
                        if (scheduled && dialect.classify(e) == Failure.CONTENTION) {
                            lock.rollback();
                            return Optional.empty();
                        }
                        throw e;
                    }
                    long started = config.clock().millis();
                    if (locked.isEmpty() || !locked.get().bound() || (scheduled
                            && started - locked.get().rolledUpMs() < config.rollUpEvery().toMillis())) {
                        lock.rollback();
                        return Optional.empty();
                    }
                    Registration bound = locked.get();
                    ColumnRange range = range(bound.owner());
                    RollUpReport report = bound.folds() ? fold(bound, range)
                            : pass.copy(bound, range, Steps.none());
                    registry.rolledUp(lock, recordType, started);
                    lock.commit();
                    stats.rolledUp(report.countersRolledUp());
                    if (!report.refused().isEmpty()) {
                        report.refused().forEach(why -> LOG.warn("roll-up refused {}", why));
                        ranges.remove(bound.owner()); // a widened column is seen next time
                    }
                    return Optional.of(report);
                }));
    }

    /** A fold-mode roll-up, then part of the sweep of cold counters' rows at 0. */
    private RollUpReport fold(Registration bound, ColumnRange range) {
        int type = bound.recordType();
        RollUpReport report = pass.fold(bound, range.folded(), sweep.warm(type), Steps.none());
        long swept = sweep.sweepSome(type);
        if (swept > 0) {
            LOG.debug("deleted {} slot rows at 0 of cold counters of record_type {}", swept, type);
        }
        return report;
    }

    private Map<Integer, Registration> bindings() {
        return retrier.read("read the type registry " + registry.table(),
                (connection, dialect) -> registry.reload(connection));
    }

    private boolean inGrace(Registration seen, long now) {
        return seen.folds() && now < seen.boundMs() + TypeRegistry.GRACE.toMillis();
    }

    private void awaitGrace(Registration seen) {
        long wait = seen.boundMs() + TypeRegistry.GRACE.toMillis() - config.clock().millis();
        if (!seen.folds() || wait <= 0) {
            return;
        }
        try {
            Thread.sleep(Math.min(wait, TypeRegistry.GRACE.toMillis()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SlottedException("interrupted while waiting for every process to see the"
                    + " binding of record_type " + seen.recordType() + " before rolling it up", e);
        }
    }

    private ColumnRange range(OwnerColumn owner) {
        ColumnRange known = ranges.get(owner);
        if (known != null) {
            return known;
        }
        ColumnRange read = retrier.read("check owner column " + owner, (connection, dialect) ->
                OwnerShape.check(connection, dialect, owner));
        ranges.put(owner, read);
        return read;
    }

    /** Stops the background roller, letting a roll-up under way finish. */
    @Override
    public void close() {
        lifecycle.lock();
        try {
            stopBackground();
        } finally {
            lifecycle.unlock();
        }
    }

    private void stopBackground() {
        if (background != null) {
            background.close();
        }
    }
}
