package io.slotted.server.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The overflow guard on a real database: concurrent increments at the edge of the 64-bit range
 * never carry a total past it, a counter already past it can be brought back by a subtraction, and
 * a write that failed gives its room back.
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
