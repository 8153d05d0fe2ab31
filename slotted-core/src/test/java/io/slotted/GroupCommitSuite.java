package io.slotted;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import io.slotted.db.TestDatabase;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Queue;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What is particular to the queued write modes: backpressure from a full queue in
 * {@code GROUPED} mode, and the write-behind promise of {@code BUFFERED} mode, on every database.
 */
@ParameterizedClass(name = "[{arguments}]")
@MethodSource("io.slotted.db.TestDatabases#all")
class GroupCommitSuite extends CounterTableTest {

    GroupCommitSuite(TestDatabase db) {
        super(db);
    }

    private SlottedCountersBuilder on(DataSource dataSource, WriteMode mode) {
        return SlottedCounters.builder(dataSource).table(table).writeMode(mode);
    }

    // ---------------------------------------------------------------- GROUPED backpressure

    @Test
    void grouped_stalledDatabase_fillsTheQueueThenRefusesThenLandsEverythingAccepted() throws Exception {
        SlottedCounters counters = migrated(on(db.dataSource(), WriteMode.GROUPED)
                .slots(1).flushers(1).queueCapacity(50).queueFullWait(Duration.ZERO).maxAttempts(100));
        counters.add(1, 1L, 1);
        List<CompletableFuture<Void>> accepted = new ArrayList<>();
        List<QueueFullException> refused = new ArrayList<>();

        try (Connection holder = lockSlotRows(1, 1L)) {
            for (int i = 0; i < 120; i++) {
                try {
                    accepted.add(counters.addAsync(1, 1L, 2));
                } catch (QueueFullException e) {
                    refused.add(e);
                }
            }
            assertThat(refused).isNotEmpty();
            assertThat(refused.get(0)).hasMessageContaining("write queue full")
                    .hasMessageContaining("of 50 places").hasMessageContaining("Nothing was applied");
            // The stalled flush holds the increment it waited for plus up to a queue's worth more
            // (drained after a caller refilled the place the first one left).
            assertThat(accepted.size()).as("the queue plus the one stalled flush").isBetween(50, 101);
            assertThat(accepted).noneMatch(CompletableFuture::isDone);
            holder.rollback();
        }

        CompletableFuture.allOf(accepted.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
        assertThat(counters.get(1, 1L)).isEqualTo(1 + 2L * accepted.size());
        assertThat(counters.stats().queued()).isZero();
    }

    @Test
    void grouped_close_writesEverythingAcceptedBeforeReturning() throws Exception {
        SlottedCounters counters = migrated(on(db.dataSource(), WriteMode.GROUPED));
        List<CompletableFuture<Void>> accepted = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            accepted.add(counters.addAsync(1, i % 10, 3));
        }

        counters.close();

        assertThat(accepted).allMatch(f -> f.isDone() && !f.isCompletedExceptionally());
        assertThat(counters.stats().flushes()).isPositive();
        assertThat(counters.stats().flushNanos()).isPositive();
        assertThat(counters.getAll(1, List.of(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L)).values())
                .containsOnly(600L);
        assertThatThrownBy(() -> counters.add(1, 1L, 1)).isInstanceOf(IllegalStateException.class);
    }

    // ---------------------------------------------------------------- the slot a flusher keeps

    /**
     * A flusher keeps to the slot of its share it drew, for a second of its ticker, so that a hot
     * counter changes few rows between two roll-ups: with the ticker held still, 16 threads adding
     * to one counter through two flushers write at most two of its 16 slot rows, exactly; once the
     * ticker has moved past the draw, each flush draws again, and the rows spread over the slots.
     */
    @Test
    void grouped_flusherKeepsToTheSlotItDrew_untilItsTickerMovesPastTheDraw() throws Exception {
        ManualTicker ticker = new ManualTicker();
        SlottedCounters counters = migrated(on(db.dataSource(), WriteMode.GROUPED).slots(16).flushers(2)
                .ticker(ticker));

        runConcurrently(16, thread -> {
            for (int i = 0; i < 200; i++) {
                counters.add(1, 1L, 1);
            }
        });
        assertThat(counters.get(1, 1L)).isEqualTo(3_200L);
        assertThat(slotsOf(1, 1L)).as("one slot per flusher while the ticker stands").hasSizeBetween(1, 2);

        for (int i = 0; i < 40; i++) {
            ticker.advance(Duration.ofSeconds(2));
            counters.add(1, 2L, 1);
        }
        assertThat(counters.get(1, 2L)).isEqualTo(40L);
        assertThat(slotsOf(1, 2L)).as("a new draw for each flush a second or more after the last")
                .hasSizeGreaterThan(2);
    }

    private Set<Integer> slotsOf(int recordType, long recordId) throws SQLException {
        Set<Integer> slots = new TreeSet<>();
        try (Connection connection = db.dataSource().getConnection();
                PreparedStatement select = connection.prepareStatement(
                        "SELECT slot FROM " + table + " WHERE record_type = ? AND record_id = ?")) {
            select.setInt(1, recordType);
            select.setLong(2, recordId);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    slots.add(rows.getInt(1));
                }
            }
        }
        return slots;
    }

    // ---------------------------------------------------------------- callers holding the pool

    /**
     * The trap of counting inside a transaction: 64 threads each hold a connection of the one
     * 10-connection pool, which the counters were given too, in an open transaction while they
     * increment. The flushers took their connections when the counters were built and keep them,
     * so every increment commits in a flush while its caller holds its connection, and none waits
     * for the pool's 30 s connection timeout (which would fail it).
     */
    @Test
    void grouped_callersHoldingEveryConnectionOfTheSamePool_countExactlyWithoutStalling() throws Exception {
        int threads = 64;
        int transactionsEach = 10;
        try (HikariDataSource pool = db.applicationPool("application", 10)) {
            SlottedCounters counters = migrated(on(pool, WriteMode.GROUPED));
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(
                    pool.getHikariPoolMXBean().getActiveConnections())
                    .as("connections the idle flushers keep").isEqualTo(counters.config().flushers()));
            Queue<Long> waits = new ConcurrentLinkedQueue<>();

            runConcurrently(threads, thread -> {
                for (int i = 0; i < transactionsEach; i++) {
                    try (Connection connection = pool.getConnection()) {
                        connection.setAutoCommit(false);
                        try (Statement statement = connection.createStatement()) {
                            statement.execute("SELECT 1");
                        }
                        long started = System.nanoTime();
                        counters.add(1, thread % 4, thread + 1);
                        waits.add(System.nanoTime() - started);
                        connection.commit();
                    }
                }
            });

            Map<Long, Long> expected = new TreeMap<>();
            for (int thread = 0; thread < threads; thread++) {
                expected.merge((long) (thread % 4), (thread + 1L) * transactionsEach, Long::sum);
            }
            assertThat(counters.getAll(1, expected.keySet())).isEqualTo(expected);
            long[] sorted = waits.stream().mapToLong(Long::longValue).sorted().toArray();
            System.out.printf("%s: %d increments inside transactions on a pool of 10: p50 %.1f ms,"
                    + " p99 %.1f ms, max %.1f ms%n", db, sorted.length, sorted[sorted.length / 2] / 1e6,
                    sorted[sorted.length * 99 / 100] / 1e6, sorted[sorted.length - 1] / 1e6);
            counters.close();
        }
    }

    // ---------------------------------------------------------------- start-up

    /**
     * Eight services starting at once, each flusher registering in the ledger with its first
     * flush, five times over on one table: the server detects no deadlock, and no flush had to be
     * retried for one.
     */
    @Test
    void grouped_manyInstancesStartingTogether_causeNoDeadlock() throws Exception {
        migrated(on(db.dataSource(), WriteMode.GROUPED));
        OptionalLong deadlocksBefore = db.deadlocksDetected();
        long retries = 0;
        for (int round = 0; round < 5; round++) {
            List<SlottedCounters> instances = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                instances.add(counters(on(db.dataSource(), WriteMode.GROUPED).flushers(8)));
            }
            long firstId = round * 8L;
            runConcurrently(8, t -> instances.get(t).add(1, firstId + t, 1));
            for (SlottedCounters instance : instances) {
                instance.close();
                retries += instance.stats().retries();
            }
        }

        assertThat(db.deadlocksDetected()).as("deadlocks the server detected, where it counts them")
                .isEqualTo(deadlocksBefore);
        assertThat(retries).as("flushes retried").isZero();
        SlottedCounters reader = counters(on(db.dataSource(), WriteMode.DIRECT));
        List<Long> ids = LongStream.range(0, 40).boxed().toList();
        assertThat(reader.getAll(1, ids).values()).hasSize(40).containsOnly(1L);
    }

    @Test
    void grouped_start_prunesLedgerRowsIdleForADayAndKeepsTheOthers() throws Exception {
        MutableClock clock = new MutableClock();
        SlottedCounters counters = migrated(on(db.dataSource(), WriteMode.GROUPED).clock(clock));
        long dayAgo = clock.millis() - Duration.ofDays(1).toMillis();
        db.execute("INSERT INTO " + table + "_ledger (flusher_id, flush_seq, updated_ms) VALUES"
                + " ('abandoned', 5, " + (dayAgo - 1) + "), ('idle', 7, " + (dayAgo + 1) + ")");

        counters.add(1, 1L, 1);

        assertThat(ledgerRows()).hasSize(2).contains("idle").doesNotContain("abandoned");
    }

    // ---------------------------------------------------------------- BUFFERED

    @Test
    void buffered_64ThreadsWithMixedDeltas_totalIsExactOnceClosed() throws Exception {
        SlottedCounters counters = migrated(on(db.dataSource(), WriteMode.BUFFERED)
                .flushInterval(Duration.ofMillis(20)));
        long seed = 4242L;
        System.out.println(db + " BUFFERED: mixed-delta seed " + seed);
        AtomicLong expected = new AtomicLong();
        runConcurrently(64, t -> {
            Random random = new Random(seed + t);
            for (int i = 0; i < 100; i++) {
                long delta = random.nextInt(200) - 99;
                delta = delta == 0 ? 1 : delta;
                counters.add(2, 5L, delta);
                expected.addAndGet(delta);
            }
        });

        counters.close();

        assertThat(counters.get(2, 5L)).isEqualTo(expected.get());
        assertThat(counters.stats().incrementsApplied()).isEqualTo(6_400);
        assertThat(counters.stats().incrementsDropped()).isZero();
    }

    @Test
    void buffered_addReturnsBeforeTheWriteAndTheIntervalMakesItDurable() throws Exception {
        SlottedCounters counters = migrated(on(db.dataSource(), WriteMode.BUFFERED)
                .slots(1).flushers(1).flushInterval(Duration.ofMillis(20)).maxAttempts(100));
        counters.add(1, 1L, 1);
        await().atMost(Duration.ofSeconds(10)).until(() -> counters.get(1, 1L) == 1);

        try (Connection holder = lockSlotRows(1, 1L)) {
            counters.add(1, 1L, 5);   // would block on the held row lock if it wrote itself
            assertThat(counters.get(1, 1L)).as("not written yet").isEqualTo(1);
            holder.rollback();
        }

        await().atMost(Duration.ofSeconds(30)).until(() -> counters.get(1, 1L) == 6);
    }

    /**
     * The future of {@code addAsync} completes once the increment is durable, as in every mode:
     * not when it is queued (the fault campaign found it completed at once, so that a crash could
     * lose an increment its caller had been told was durable).
     */
    @Test
    void buffered_addAsync_completesOnlyOnceItsFlushIsDurable() throws Exception {
        SlottedCounters counters = migrated(on(db.dataSource(), WriteMode.BUFFERED)
                .slots(1).flushers(1).flushInterval(Duration.ofMillis(20)).maxAttempts(100));
        counters.add(1, 1L, 1);
        await().atMost(Duration.ofSeconds(10)).until(() -> counters.get(1, 1L) == 1);

        CompletableFuture<Void> durable;
        try (Connection holder = lockSlotRows(1, 1L)) {
            durable = counters.addAsync(1, 1L, 5);
            Thread.sleep(200); // ten intervals: its flush is under way, waiting for the held lock
            assertThat(durable).as("not durable while its flush waits").isNotDone();
            holder.rollback();
        }

        durable.get(30, TimeUnit.SECONDS);
        assertThat(writtenSum(1, 1L)).as("durable when the future completed").isEqualTo(6);
    }

    @Test
    void buffered_keyedIncrement_waitsForItsFlushAndIsAppliedOnce() {
        SlottedCounters counters = migrated(on(db.dataSource(), WriteMode.BUFFERED)
                .flushInterval(Duration.ofMillis(20)));

        assertThat(counters.add(3, 3L, 4, "buffered-key")).isTrue();
        assertThat(counters.get(3, 3L)).as("durable when a keyed add returns").isEqualTo(4);
        assertThat(counters.add(3, 3L, 4, "buffered-key")).isFalse();
        assertThatThrownBy(() -> counters.add(3, 3L, 5, "buffered-key"))
                .isInstanceOf(IdempotencyConflictException.class);
        assertThat(counters.get(3, 3L)).isEqualTo(4);
    }

    @Test
    void buffered_failedFlush_isRetriedUntilItLandsNotDropped() throws Exception {
        SlottedCounters counters = migrated(on(db.shortLockWaitDataSource(), WriteMode.BUFFERED)
                .slots(1).flushers(1).flushInterval(Duration.ofMillis(20)).maxAttempts(1));
        counters.add(1, 1L, 1);
        await().atMost(Duration.ofSeconds(10)).until(() -> counters.get(1, 1L) == 1);

        try (Connection holder = lockSlotRows(1, 1L)) {
            counters.add(1, 1L, 5);
            await().atMost(Duration.ofSeconds(30)).until(() -> counters.stats().retries() >= 2);
            holder.rollback();
        }

        await().atMost(Duration.ofSeconds(30)).until(() -> counters.get(1, 1L) == 6);
        assertThat(counters.stats().incrementsDropped()).isZero();
    }

    /**
     * Another process prunes a flusher's ledger row and mark after a day without a sign of life;
     * the flusher's next flushes write once each and make its mark again.
     */
    @Test
    void grouped_flusherWhoseLedgerRowAndMarkWerePruned_writesOnceAndMarksAgain() throws Exception {
        SlottedCounters counters = migrated(on(db.dataSource(), WriteMode.GROUPED).flushers(1));
        counters.add(1, 1L, 5);
        assertThat(ledgerRows()).hasSize(1);
        assertThat(markRows()).isEqualTo(1);
        db.execute("DELETE FROM " + table + "_ledger");
        db.execute("DELETE FROM " + table + " WHERE record_type = " + SlottedCounters.RESERVED_RECORD_TYPE);

        counters.add(1, 1L, 7);
        counters.add(1, 1L, 1, "after-the-prune");

        assertThat(counters.get(1, 1L)).isEqualTo(13);
        assertThat(markRows()).as("the flusher's mark, made again as at registration: by a one-statement"
                + " flush, or with the ledger row by the keyed flush's claim (H2 writes every flush so)").isEqualTo(1);
        assertThat(ledgerRows()).as("the flusher's ledger row, made again by the keyed flush").hasSize(1);
    }

    @Test
    void reservedRecordType_isRefusedByEveryCallAndNothingIsWritten() {
        SlottedCounters counters = migrated(on(db.dataSource(), WriteMode.GROUPED));
        int reserved = SlottedCounters.RESERVED_RECORD_TYPE;
        String why = "record_type -2147483648 is reserved for Slotted's own rows";

        assertThatThrownBy(() -> counters.add(reserved, 1L, 1)).hasMessageStartingWith(why);
        assertThatThrownBy(() -> counters.addAsync(reserved, 1L, 1)).hasMessageStartingWith(why);
        assertThatThrownBy(() -> counters.add(reserved, 1L, 1, "k")).hasMessageStartingWith(why);
        assertThatThrownBy(() -> counters.addAll(List.of(new Increment(reserved, 1L, 1))))
                .hasMessageStartingWith(why);
        assertThatThrownBy(() -> counters.get(reserved, 1L)).hasMessageStartingWith(why);
        assertThatThrownBy(() -> counters.getAll(reserved, List.of(1L))).hasMessageStartingWith(why);
        assertThatThrownBy(() -> counters.admin().set(reserved, 1L, 5)).hasMessageStartingWith(why);
        assertThatThrownBy(() -> counters.admin().shrink(reserved, 2)).hasMessageStartingWith(why);
        assertThat(counters.stats().incrementsApplied()).isZero();
    }

    /** What the slot rows of a counter hold, read with SQL. */
    private long writtenSum(int recordType, long recordId) throws SQLException {
        try (Connection connection = db.dataSource().getConnection();
                Statement select = connection.createStatement();
                ResultSet rows = select.executeQuery("SELECT SUM(count) FROM " + table
                        + " WHERE record_type = " + recordType + " AND record_id = " + recordId)) {
            rows.next();
            return rows.getLong(1);
        }
    }

    private long markRows() throws SQLException {
        try (Connection connection = db.dataSource().getConnection();
                Statement select = connection.createStatement();
                ResultSet rows = select.executeQuery("SELECT COUNT(*) FROM " + table
                        + " WHERE record_type = " + SlottedCounters.RESERVED_RECORD_TYPE)) {
            rows.next();
            return rows.getLong(1);
        }
    }

    @Test
    void buffered_addAndGet_waitsForItsFlush_andAnswersTheTotalAfterIt() throws Exception {
        SlottedCounters counters = migrated(on(db.dataSource(), WriteMode.BUFFERED)
                .flushInterval(Duration.ofMillis(50)));
        counters.add(1, 1L, 10);

        long total = counters.addAndGet(1, 1L, 5);
        long sqlAfter = writtenSum(1, 1L);
        long asyncTotal = counters.addAndGetAsync(1, 1L, -3).get(1, TimeUnit.MINUTES);

        assertThat(total).as("the earlier buffered increment and this one").isEqualTo(15);
        assertThat(sqlAfter).as("durable when it returned").isEqualTo(15);
        assertThat(asyncTotal).isEqualTo(12);
        counters.close();
        assertThat(counters.stats().incrementsApplied()).isEqualTo(3);
    }

    // ---------------------------------------------------------------- BUFFERED reads of unwritten increments

    @Test
    void buffered_readsIncludeUnwritten_showsThisProcesssIncrementsBeforeTheyAreWritten() {
        SlottedCounters counters = migrated(on(db.dataSource(), WriteMode.BUFFERED)
                .flushInterval(Duration.ofHours(1)).readsIncludeUnwritten(true));
        SlottedCounters elsewhere = counters(on(db.dataSource(), WriteMode.DIRECT));
        counters.add(1, 1L, 3);
        counters.add(1, 1L, 4);
        counters.add(1, 2L, -2);

        assertThat(counters.get(1, 1L)).isEqualTo(7);
        assertThat(counters.getAll(1, List.of(1L, 2L, 3L))).containsExactly(
                Map.entry(1L, 7L), Map.entry(2L, -2L), Map.entry(3L, 0L));
        assertThat(elsewhere.get(1, 1L)).as("nothing is written yet").isZero();

        counters.close();

        assertThat(elsewhere.getAll(1, List.of(1L, 2L))).containsExactly(Map.entry(1L, 7L), Map.entry(2L, -2L));
    }

    @Test
    void buffered_readsIncludeUnwritten_pastTheRange_reportTheExactTotal_neverARawArithmeticError() {
        SlottedCounters counters = migrated(on(db.dataSource(), WriteMode.BUFFERED)
                .flushInterval(Duration.ofHours(1)).readsIncludeUnwritten(true));
        db.execute("INSERT INTO " + table + " (record_type, record_id, slot, count) VALUES (1, 1, 0, "
                + (Long.MAX_VALUE - 5) + ")");
        counters.add(1, 1L, 10);
        BigInteger total = BigInteger.valueOf(Long.MAX_VALUE).add(BigInteger.valueOf(5));

        assertThatThrownBy(() -> counters.get(1, 1L)).isInstanceOfSatisfying(CounterOverflowException.class,
                e -> assertThat(e.total()).isEqualTo(total));
        assertThatThrownBy(() -> counters.getAll(1, List.of(1L))).isInstanceOfSatisfying(
                CounterOverflowException.class, e -> assertThat(e.total()).isEqualTo(total));
    }

    /**
     * Reads taken while flushes commit all the time: each read counts every increment exactly
     * once, so it is never less than what was acknowledged before it began (nothing missed) nor
     * more than what was attempted by its end (nothing counted in both the database and memory).
     */
    @Test
    void buffered_readsIncludeUnwritten_whileFlushesCommit_countEachIncrementOnce() throws Exception {
        SlottedCounters counters = migrated(on(db.dataSource(), WriteMode.BUFFERED)
                .flushInterval(Duration.ofMillis(2)).readsIncludeUnwritten(true));
        AtomicLong attempted = new AtomicLong();
        AtomicLong acknowledged = new AtomicLong();
        AtomicLong reads = new AtomicLong();
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        runConcurrently(9, t -> {
            if (t == 8) {
                while (reads.get() < 300 && System.nanoTime() < until) {
                    long before = acknowledged.get();
                    long read = counters.get(4, 4L);
                    long after = attempted.get();
                    assertThat(read).as("read %d between %d acknowledged and %d attempted", read, before, after)
                            .isBetween(before, after);
                    reads.incrementAndGet();
                }
                return;
            }
            // Writers go on until the reader has checked its reads, so that reads meet commits.
            for (int i = 1; reads.get() < 300 && System.nanoTime() < until; i++) {
                attempted.addAndGet(i % 5 + 1);
                counters.add(4, 4L, i % 5 + 1);
                acknowledged.addAndGet(i % 5 + 1);
            }
        });
        System.out.println(db + " BUFFERED: " + reads.get() + " reads checked while flushing "
                + attempted.get() + " increments' worth");

        assertThat(reads.get()).isEqualTo(300);
        assertThat(counters.get(4, 4L)).isEqualTo(attempted.get());
        counters.close();
        try (SlottedCounters direct = on(db.dataSource(), WriteMode.DIRECT).build()) {
            assertThat(direct.get(4, 4L)).isEqualTo(attempted.get());
        }
    }

    private List<String> ledgerRows() throws SQLException {
        List<String> ids = new ArrayList<>();
        try (Connection connection = db.dataSource().getConnection();
                Statement select = connection.createStatement();
                ResultSet rows = select.executeQuery(
                        "SELECT flusher_id FROM " + table + "_ledger")) {
            while (rows.next()) {
                ids.add(rows.getString(1));
            }
        }
        return ids;
    }
}
