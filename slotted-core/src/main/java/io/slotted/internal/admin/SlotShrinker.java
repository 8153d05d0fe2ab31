package io.slotted.internal.admin;

import io.slotted.SlottedConfig;
import io.slotted.SlottedException;
import io.slotted.Ticker;
import io.slotted.internal.dialect.SlotRow;
import io.slotted.internal.jdbc.Database;
import io.slotted.internal.jdbc.Retrier;
import io.slotted.internal.jdbc.Transactions;
import io.slotted.internal.progress.Steps;
import io.slotted.internal.registry.Registration;
import io.slotted.internal.registry.TypeRegistry;
import io.slotted.internal.sql.CounterKey;
import io.slotted.internal.write.CounterRows;
import io.slotted.internal.write.SlotRows;
import io.slotted.internal.write.StatsRecorder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Moves a counter type onto a new number of slots while increments continue.
 *
 * <p>First the new count is recorded in the type registry, which every process re-reads within
 * {@link TypeRegistry#REFRESH}; from then on new increments go to the remaining slots. Then rows in
 * slots beyond the count are moved, a chunk of counters per transaction: lock the rows, delete
 * exactly those, and add their sum to the counter's slot 0. A row is moved whole or not at all, so
 * nothing is lost or counted twice whatever lands meanwhile. Moving repeats until, after
 * {@link TypeRegistry#GRACE}, a pass finds no row left beyond the count.
 */
public final class SlotShrinker {
    private static final int CHUNK = 500;
    /** How long rows may keep arriving beyond the count before the shrink gives up saying why. */
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    private final Database database;
    private final Retrier retrier;
    private final TypeRegistry registry;
    private final StatsRecorder stats;
    private final Ticker ticker;
    private final SlottedConfig config;

    /**
     * Creates the shrinker.
     *
     * @param database the database
     * @param retrier how failures are retried and reported
     * @param registry where the slot count is recorded
     * @param config the ticker
     * @param stats where retries are counted
     */
    public SlotShrinker(Database database, Retrier retrier, TypeRegistry registry,
            SlottedConfig config, StatsRecorder stats) {
        this.database = database;
        this.retrier = retrier;
        this.registry = registry;
        this.stats = stats;
        this.ticker = config.ticker();
        this.config = config;
    }

    /**
     * Moves a type onto {@code slots} slots.
     *
     * @param recordType the type
     * @param slots the new slot count, already checked
     * @param steps what follows it, and may stop it between the transactions that move rows
     * @return how many slot rows were moved
     */
    public long shrink(int recordType, int slots, Steps steps) {
        if (registry.expiring(recordType)) {
            // Moving a counter's rows takes no expiry lock, so a move could carry an expired
            // counter's count past the write that clears it.
            throw new IllegalArgumentException("record_type " + recordType + " expires, and its counters' slots are not"
                    + " shrunk: a shrink moves rows without the expiry lock its writers take; nothing was changed");
        }
        steps.begin("recording " + slots + " slots for record_type " + recordType, -1, "statements");
        record(recordType, slots);
        long started = ticker.read();
        long moved = 0;
        steps.begin("finding the counters with rows beyond slot " + (slots - 1), -1, "statements");
        while (true) {
            long now = moveOnce(recordType, slots, steps, moved);
            moved += now;
            long waited = ticker.read() - started;
            if (now == 0 && waited > TypeRegistry.GRACE.toNanos()) {
                return moved;
            }
            long rowsMoved = moved;
            steps.stopIfAsked(() -> stopped(recordType, slots, rowsMoved));
            if (waited > TypeRegistry.GRACE.plus(PATIENCE).toNanos()) {
                throw new SlottedException("rows keep arriving in slots " + slots + " and above of"
                        + " record_type " + recordType + " after " + moved + " were moved: a process"
                        + " is writing the type without reading the type registry (an older Slotted,"
                        + " or one writing only inside its callers' transactions); upgrade it and run"
                        + " the shrink again, which is safe");
            }
            pause(now == 0 ? 100 : 0);
        }
    }

    private void record(int recordType, int slots) {
        retrier.write("record " + slots + " slots for record_type " + recordType,
                (connection, dialect) -> Transactions.inTransaction(connection, () -> {
                    Optional<Registration> existing = registry.lock(connection, recordType, false);
                    Registration changed = existing
                            .map(r -> new Registration(recordType, r.owner(), r.mode(), slots,
                                    r.boundMs(), r.rolledUpMs(), r.limits(), r.expiring()))
                            .orElse(new Registration(recordType, null, null, slots, 0, 0));
                    registry.write(connection, existing, changed);
                    connection.commit();
                    return null;
                }));
        registry.invalidate();
    }

    private static String stopped(int recordType, int slots, long moved) {
        return "stopped after moving " + moved + " slot rows; record_type " + recordType + " is written to "
                + slots + " slots from now on and every read stays exact: run the shrink again to move"
                + " the rows left beyond them";
    }

    /** One pass over the rows beyond the count; returns how many were moved. */
    private long moveOnce(int recordType, int slots, Steps steps, long movedBefore) {
        List<Long> ids = retrier.read("find slot rows of record_type " + recordType + " beyond slot "
                + (slots - 1), (connection, dialect) -> SlotRows.ids(connection, database.slotStatements(), recordType, slots));
        if (ids.isEmpty()) {
            return 0;
        }
        steps.begin("moving rows beyond slot " + (slots - 1) + " onto " + slots + " slots", ids.size(), "counters");
        long moved = 0;
        for (int from = 0; from < ids.size(); from += CHUNK) {
            long rowsMoved = movedBefore + moved;
            steps.stopIfAsked(() -> stopped(recordType, slots, rowsMoved));
            List<Long> chunk = ids.subList(from, Math.min(ids.size(), from + CHUNK));
            moved += retrier.write("move " + chunk.size() + " counters of record_type " + recordType
                    + " onto " + slots + " slots", (connection, dialect) ->
                    Transactions.inTransaction(connection, () -> {
                        Map<Long, CounterRows> locked =
                                SlotRows.lock(connection, database.slotStatements(), recordType, chunk, slots);
                        SlotRows.delete(connection, database.slotStatements(), recordType, locked.values());
                        List<SlotRow> targets = new ArrayList<>();
                        long rows = 0;
                        for (CounterRows counter : locked.values()) {
                            rows += counter.slots().size();
                            if (counter.total() != 0) {
                                targets.addAll(SlotRows.spread(new CounterKey(recordType, counter.recordId()),
                                        counter.total(), slots));
                            }
                        }
                        for (SlotRow target : targets) {
                            SlotRows.upsertOne(connection, dialect, database.table(), target,
                                    stats::retried);
                        }
                        connection.commit();
                        return rows;
                    }));
            steps.advance(Math.min(ids.size(), from + CHUNK));
        }
        steps.begin("waiting until no process writes beyond slot " + (slots - 1), -1, "statements");
        return moved;
    }

    private static void pause(long millis) {
        if (millis == 0) {
            return;
        }
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SlottedException("interrupted while shrinking; rows moved so far stay moved,"
                    + " and the shrink may be run again", e);
        }
    }
}
