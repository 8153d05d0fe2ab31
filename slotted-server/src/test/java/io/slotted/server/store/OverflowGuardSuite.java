package io.slotted.server.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.slotted.CounterOverflowException;
import io.slotted.Increment;
import io.slotted.QueueFullException;
import io.slotted.SlottedCounters;
import io.slotted.WriteMode;
import io.slotted.db.TestDatabase;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The overflow guard on a real database: concurrent increments at the edge of the 64-bit range
 * never carry a total past it, a counter already past it can be brought back by a subtraction, a
 * write that failed gives its room back, and after a set later increments are checked against the
 * new total, also when they race it.
 */
abstract class OverflowGuardSuite {
    private static final AtomicInteger TABLES = new AtomicInteger();
    private static final int TYPE = 1;

    private final TestDatabase db;
    private String table;
    private SlottedCounters counters;
    private OverflowGuard guard;

    OverflowGuardSuite(TestDatabase db) {
        this.db = db;
    }

    @BeforeEach
    void freshCounters() {
        table = "guard_" + ProcessHandle.current().pid() + "_" + TABLES.incrementAndGet();
        counters = SlottedCounters.builder(db.dataSource()).table(table).writeMode(WriteMode.GROUPED)
                .build();
        counters.migrate();
        guard = new OverflowGuard(counters);
    }

    @AfterEach
    void dropTables() {
        counters.close();
        db.dropCounterTables(table);
    }

    @Test
    void sixteenConcurrentIncrementsAtTheEdge_onlyThoseThatFitAreApplied() throws Exception {
        long step = 1L << 59;
        counters.add(TYPE, 1L, Long.MAX_VALUE - 10 * step);

        List<Boolean> applied = concurrently(16, () -> add(1L, step));

        assertThat(applied.stream().filter(a -> a).count()).as("exactly the ten that fit").isEqualTo(10);
        assertThat(sqlTotal(1L)).as("the SQL total never passes the range")
                .isEqualByComparingTo(BigDecimal.valueOf(Long.MAX_VALUE));
        assertThat(counters.get(TYPE, 1L)).as("and the counter stays readable").isEqualTo(Long.MAX_VALUE);
        assertThat(add(1L, -step)).as("a subtraction brings it back").isTrue();
        assertThat(counters.get(TYPE, 1L)).isEqualTo(Long.MAX_VALUE - step);
    }

    @Test
    void counterAlreadyPastTheRange_refusesAdditions_andASubtractionBringsItBack() throws Exception {
        insertSlot(2L, 0, Long.MAX_VALUE);
        insertSlot(2L, 1, 10);
        assertThatThrownBy(() -> counters.get(TYPE, 2L)).isInstanceOf(CounterOverflowException.class);

        assertThat(add(2L, 1)).as("an addition moves it further out").isFalse();
        assertThat(add(2L, -20)).as("a subtraction moves it back").isTrue();

        assertThat(counters.get(TYPE, 2L)).isEqualTo(Long.MAX_VALUE - 10);
    }

    @Test
    void aWriteThatFailed_givesItsRoomBack() {
        counters.add(TYPE, 3L, Long.MAX_VALUE - 5);

        assertThatThrownBy(() -> guard.write(List.of(new Increment(TYPE, 3L, 5)),
                () -> CompletableFuture.failedFuture(new QueueFullException("full"))).join())
                .hasCauseInstanceOf(QueueFullException.class);
        assertThatThrownBy(() -> guard.write(List.of(new Increment(TYPE, 3L, 5)), () -> {
            throw new QueueFullException("full");
        })).isInstanceOf(QueueFullException.class);

        assertThat(add(3L, 5)).isTrue();
        assertThat(counters.get(TYPE, 3L)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void aReplay_appliedNothing_soItMakesNoRoom() {
        counters.add(TYPE, 6L, Long.MAX_VALUE - 5);

        guard.write(List.of(new Increment(TYPE, 6L, -1_000)),
                () -> CompletableFuture.completedFuture(false)).join();

        assertThat(add(6L, 6)).as("the replayed subtraction moved nothing").isFalse();
        assertThat(add(6L, 5)).isTrue();
        assertThat(counters.get(TYPE, 6L)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void aBatch_isRefusedWhole_whenOneOfItsCountersWouldLeaveTheRange() {
        counters.add(TYPE, 4L, Long.MAX_VALUE - 5);
        List<Increment> batch = List.of(new Increment(TYPE, 5L, 7), new Increment(TYPE, 4L, 3),
                new Increment(TYPE, 4L, 3));

        assertThatThrownBy(() -> guard.write(batch, () -> CompletableFuture.completedFuture(
                counters.addAll(batch) > 0))).isInstanceOf(CounterOverflowException.class);

        assertThat(counters.getAll(TYPE, List.of(4L, 5L))).containsEntry(4L, Long.MAX_VALUE - 5)
                .containsEntry(5L, 0L);
        assertThat(add(5L, Long.MAX_VALUE)).as("the refused batch held no room").isTrue();
    }

    @Test
    void afterASet_laterIncrementsAreCheckedAgainstTheNewTotal() {
        assertThat(add(7L, 5)).as("the guard now knows the total, 5").isTrue();

        set(7L, Long.MAX_VALUE - 5);

        assertThat(add(7L, 10)).as("past the range from the new total").isFalse();
        assertThat(add(7L, 5)).isTrue();
        assertThat(counters.get(TYPE, 7L)).isEqualTo(Long.MAX_VALUE);
        set(7L, 0);
        assertThat(add(7L, Long.MAX_VALUE)).as("all the room again from the new total").isTrue();
        assertThat(counters.get(TYPE, 7L)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void afterASet_inBufferedMode_whereNoTotalIsReadAgain_theGuardStartsFromTheNewTotal() {
        try (SlottedCounters buffered = SlottedCounters.builder(db.dataSource()).table(table)
                .writeMode(WriteMode.BUFFERED).build()) {
            OverflowGuard bufferedGuard = new OverflowGuard(buffered);
            bufferedGuard.write(List.of(new Increment(TYPE, 8L, Long.MAX_VALUE - 1)),
                    () -> buffered.addAsync(TYPE, 8L, Long.MAX_VALUE - 1).thenApply(done -> true)).join();
            // Flushed before the set, so that the set replaces it (see OverflowGuard on BUFFERED).
            await().atMost(Duration.ofSeconds(30)).until(() -> buffered.get(TYPE, 8L) == Long.MAX_VALUE - 1);

            bufferedGuard.set(TYPE, 8L, 0, () -> buffered.set(TYPE, 8L, 0));

            bufferedGuard.write(List.of(new Increment(TYPE, 8L, 100)),
                    () -> buffered.addAsync(TYPE, 8L, 100).thenApply(done -> true)).join();
            await().atMost(Duration.ofSeconds(30)).until(() -> buffered.get(TYPE, 8L) == 100);
        }
    }

    @Test
    void anIncrementDuringASet_isCheckedAgainstTheOldTotalAndTheNewCountAlike() {
        assertThat(add(9L, 1)).isTrue();
        AtomicBoolean duringTheSet = new AtomicBoolean(true);

        guard.set(TYPE, 9L, Long.MAX_VALUE - 5, () -> {
            counters.set(TYPE, 9L, Long.MAX_VALUE - 5);
            duringTheSet.set(add(9L, 10));
        });

        assertThat(duringTheSet).as("refused: it could land after the set").isFalse();
        assertThat(counters.get(TYPE, 9L)).isEqualTo(Long.MAX_VALUE - 5);
        assertThat(add(9L, 5)).isTrue();
        assertThat(counters.get(TYPE, 9L)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void anIncrementInFlightAcrossASet_mayHaveLandedAfterIt() {
        assertThat(add(10L, 1)).isTrue();
        CompletableFuture<Boolean> landing = new CompletableFuture<>();
        CompletableFuture<Boolean> inFlight = guard.write(List.of(new Increment(TYPE, 10L, 100)),
                () -> landing);

        set(10L, Long.MAX_VALUE - 150);
        counters.add(TYPE, 10L, 100);
        landing.complete(true);
        inFlight.join();

        assertThat(add(10L, 60)).as("the increment landed on top of the set").isFalse();
        assertThat(add(10L, 50)).isTrue();
        assertThat(counters.get(TYPE, 10L)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void aSubtractionInFlightAcrossASet_mayHaveBeenReplacedByIt() {
        assertThat(add(13L, 1_000)).isTrue();
        CompletableFuture<Boolean> landing = new CompletableFuture<>();
        CompletableFuture<Boolean> inFlight = guard.write(List.of(new Increment(TYPE, 13L, -100)),
                () -> landing);
        counters.add(TYPE, 13L, -100);

        set(13L, Long.MAX_VALUE - 50);
        landing.complete(true);
        inFlight.join();

        assertThat(add(13L, 100)).as("the subtraction landed before the set, which replaced it")
                .isFalse();
        assertThat(add(13L, 50)).isTrue();
        assertThat(counters.get(TYPE, 13L)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void aSetThatFailed_changedNothing_soTheOldTotalStillCounts() {
        assertThat(add(11L, Long.MAX_VALUE - 5)).isTrue();

        assertThatThrownBy(() -> guard.set(TYPE, 11L, 0, () -> {
            throw new QueueFullException("full");
        })).isInstanceOf(QueueFullException.class);

        assertThat(add(11L, 10)).as("the set did not happen").isFalse();
        assertThat(add(11L, 5)).isTrue();
        assertThat(counters.get(TYPE, 11L)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void incrementsRacingSets_neverCarryTheTotalPastTheRange() throws Exception {
        long step = 1L << 58;
        long[] targets = {Long.MAX_VALUE - 4 * step, 0, Long.MAX_VALUE - step, 3 * step,
            Long.MAX_VALUE - 2 * step};
        ExecutorService setter = Executors.newSingleThreadExecutor();
        try {
            Future<?> sets = setter.submit(() -> {
                for (long target : targets) {
                    set(12L, target);
                }
            });
            List<Boolean> applied = concurrently(16, () -> {
                boolean any = false;
                for (int i = 0; i < 8; i++) {
                    any |= add(12L, step);
                }
                return any;
            });
            sets.get(2, TimeUnit.MINUTES);
            assertThat(applied).hasSize(16);
        } finally {
            setter.shutdownNow();
        }

        BigDecimal total = sqlTotal(12L);
        assertThat(total).as("the SQL total never passes the range")
                .isLessThanOrEqualTo(BigDecimal.valueOf(Long.MAX_VALUE));
        assertThat(BigDecimal.valueOf(counters.get(TYPE, 12L))).as("and the counter stays readable")
                .isEqualByComparingTo(total);
    }

    /** Sets through the guard. */
    private void set(long id, long count) {
        guard.set(TYPE, id, count, () -> counters.set(TYPE, id, count));
    }

    /** Adds through the guard; false when the guard refused it. */
    private boolean add(long id, long delta) {
        try {
            guard.write(List.of(new Increment(TYPE, id, delta)),
                    () -> counters.addAsync(TYPE, id, delta).thenApply(done -> true)).join();
            return true;
        } catch (CounterOverflowException e) {
            return false;
        }
    }

    private static List<Boolean> concurrently(int threads, java.util.concurrent.Callable<Boolean> task)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Boolean>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                done.add(pool.submit(() -> {
                    start.await();
                    return task.call();
                }));
            }
            start.countDown();
            List<Boolean> results = new ArrayList<>();
            for (Future<Boolean> f : done) {
                results.add(f.get(2, TimeUnit.MINUTES));
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }

    private void insertSlot(long id, int slot, long count) throws SQLException {
        try (Connection c = db.dataSource().getConnection();
                PreparedStatement insert = c.prepareStatement("INSERT INTO " + table
                        + " (record_type, record_id, slot, count) VALUES (?, ?, ?, ?)")) {
            insert.setInt(1, TYPE);
            insert.setLong(2, id);
            insert.setInt(3, slot);
            insert.setLong(4, count);
            insert.executeUpdate();
        }
    }

    private BigDecimal sqlTotal(long id) throws SQLException {
        try (Connection c = db.dataSource().getConnection();
                PreparedStatement sum = c.prepareStatement("SELECT SUM(count) FROM " + table
                        + " WHERE record_type = ? AND record_id = ?")) {
            sum.setInt(1, TYPE);
            sum.setLong(2, id);
            try (ResultSet row = sum.executeQuery()) {
                row.next();
                return row.getBigDecimal(1);
            }
        }
    }
}
