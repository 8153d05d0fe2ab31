package io.slotted;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.slotted.db.TestDatabase;
import io.slotted.db.TestDatabases;
import io.slotted.internal.DefaultSlottedCounters;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Time buckets on a real database, in every write mode: each increment counts in the bucket of
 * the moment it was accepted, as exactly as the total; series and top-N read them back; old
 * buckets are pruned and closed ones folded while increments go on. The clock is the test's, so
 * buckets open and close when the test says.
 */
@ParameterizedClass(name = "[{arguments}]")
@MethodSource("databasesInEveryMode")
class BucketSuite extends CounterTableTest {
    private static final int TYPE = 7;
    private static final Instant NINE = Instant.parse("2026-11-22T09:00:00Z");
    private static final Duration HOUR = Duration.ofHours(1);

    private final WriteMode mode;
    private final MutableClock clock = new MutableClock();

    BucketSuite(TestDatabase db, WriteMode mode) {
        super(db);
        this.mode = mode;
    }

    static Stream<Arguments> databasesInEveryMode() {
        return TestDatabases.inModes(TestDatabases.all(), WriteMode.values());
    }

    private SlottedCountersBuilder builder() {
        return SlottedCounters.builder(db.dataSource()).table(table).writeMode(mode).clock(clock)
                .flushInterval(Duration.ofMillis(20));
    }

    /**
     * Waits until {@code n} increments have been written: at once in the modes that write before
     * returning, after a flush in {@code BUFFERED} mode.
     */
    private static void awaitWritten(SlottedCounters counters, long n) {
        await().atMost(Duration.ofSeconds(30)).until(() -> counters.stats().incrementsApplied() >= n);
    }

    private SlottedCountersBuilder hourly() {
        return builder().buckets(TYPE, BucketUnit.HOUR, Duration.ofDays(30));
    }

    // ---------------------------------------------------------------- exactness

    /**
     * Three intervals, the clock moved between them while increments of the last are still being
     * written: each caller mixes plain, asynchronous, keyed and batched increments, so some
     * accepted in one bucket are written after the next has begun. Every bucket, and the total,
     * is exactly what was accepted in it.
     */
    @Test
    void add_64WritersAcrossBucketBoundaries_everyBucketAndTotalExact() throws Exception {
        clock.set(NINE.plus(Duration.ofMinutes(59)));
        SlottedCounters counters = migrated(hourly());
        long seed = 20261125L;
        System.out.println(db + " " + mode + ": bucket boundary seed " + seed);
        int intervals = 3;
        Map<Long, long[]> expected = new HashMap<>();
        CyclicBarrier boundary = new CyclicBarrier(64, () -> clock.advance(HOUR));
        List<CompletableFuture<Void>> unanswered = new ArrayList<>();

        runConcurrently(64, t -> {
            Random random = new Random(seed + t);
            List<CompletableFuture<Void>> mine = new ArrayList<>();
            for (int interval = 0; interval < intervals; interval++) {
                for (int i = 0; i < 12; i++) {
                    long id = random.nextInt(3);
                    long delta = random.nextInt(201) - 100;
                    delta = delta == 0 ? 1 : delta;
                    addOneWay(counters, t, interval, i, id, delta, mine);
                    synchronized (expected) {
                        expected.computeIfAbsent(id, k -> new long[intervals])[interval] += delta;
                    }
                }
                boundary.await(1, TimeUnit.MINUTES);
            }
            synchronized (unanswered) {
                unanswered.addAll(mine);
            }
        });
        CompletableFuture.allOf(unanswered.toArray(CompletableFuture[]::new)).get(1, TimeUnit.MINUTES);
        counters.close();

        SlottedCounters reader = counters(hourly());
        for (Map.Entry<Long, long[]> counter : expected.entrySet()) {
            long[] perInterval = counter.getValue();
            List<BucketCount> series = reader.timeSeries().series(TYPE, counter.getKey(), NINE, NINE.plus(Duration.ofHours(4)));
            assertThat(series).extracting(BucketCount::count).as("counter %d, hour by hour", counter.getKey())
                    .containsExactly(perInterval[0], perInterval[1], perInterval[2], 0L);
            assertThat(series).extracting(BucketCount::start).containsExactly(NINE, NINE.plus(HOUR),
                    NINE.plus(HOUR.multipliedBy(2)), NINE.plus(HOUR.multipliedBy(3)));
            long total = perInterval[0] + perInterval[1] + perInterval[2];
            assertThat(reader.get(TYPE, counter.getKey())).isEqualTo(total);
        }
    }

    /** Thread {@code t} adds in one of four ways, so that every write path is crossed by a boundary. */
    private static void addOneWay(SlottedCounters counters, int t, int interval, int i, long id, long delta,
            List<CompletableFuture<Void>> unanswered) {
        switch (t % 4) {
            case 0 -> counters.add(TYPE, id, delta);
            case 1 -> unanswered.add(counters.addAsync(TYPE, id, delta));
            case 2 -> assertThat(counters.add(TYPE, id, delta, "k-" + t + "-" + interval + "-" + i)).isTrue();
            default -> counters.addAll(List.of(new Increment(TYPE, id, delta), new Increment(99, id, 1)));
        }
    }

    @Test
    void series_sumOfBuckets_equalsWhatWasAddedSinceBucketsWereEnabled() {
        clock.set(NINE);
        SlottedCounters before = migrated(builder());
        before.add(TYPE, 1L, 1000);
        before.close();
        SlottedCounters counters = counters(hourly());

        for (int i = 0; i < 5; i++) {
            counters.add(TYPE, 1L, i + 1);
            awaitWritten(counters, i + 1);
            clock.advance(Duration.ofMinutes(25));
        }

        List<BucketCount> series = counters.timeSeries().series(TYPE, 1L, NINE, clock.instant());
        assertThat(series).extracting(BucketCount::count).containsExactly(6L, 9L, 0L);
        assertThat(series.stream().mapToLong(BucketCount::count).sum())
                .isEqualTo(counters.get(TYPE, 1L) - 1000);
    }

    @Test
    void setAndRecountRepair_changeTheTotalButNoBucket() {
        clock.set(NINE);
        SlottedCounters counters = migrated(hourly());
        counters.add(TYPE, 1L, 5);
        counters.add(TYPE, 2L, 5);
        awaitWritten(counters, 2);

        counters.admin().set(TYPE, 1L, 100);
        counters.admin().recount(TYPE, "SELECT 1, 100 UNION ALL SELECT 2, 50", true);

        assertThat(counters.get(TYPE, 1L)).isEqualTo(100);
        assertThat(counters.get(TYPE, 2L)).isEqualTo(50);
        assertThat(counters.timeSeries().series(TYPE, 1L, NINE, NINE.plus(HOUR))).extracting(BucketCount::count).containsExactly(5L);
        assertThat(counters.timeSeries().series(TYPE, 2L, NINE, NINE.plus(HOUR))).extracting(BucketCount::count).containsExactly(5L);
    }

    /**
     * A bucket's slot rows keep the range of every slot row: after a set to 0, the hour's bucket
     * still holds MAX_DELTA, and one more refuses the increment whole, total included.
     */
    @Test
    void add_bucketSlotRowPastItsRange_isRefusedWhole_andASubtractionComesBack() {
        clock.set(NINE);
        SlottedCounters counters = migrated(hourly().slots(1));
        counters.add(TYPE, 1L, SlottedCounters.MAX_DELTA, "edge-1");
        counters.admin().set(TYPE, 1L, 0);

        assertThatThrownBy(() -> counters.add(TYPE, 1L, 1, "edge-2"))
                .isInstanceOf(CounterOverflowException.class);
        counters.add(TYPE, 1L, -1, "edge-3");

        assertThat(counters.get(TYPE, 1L)).isEqualTo(-1);
        assertThat(counters.timeSeries().series(TYPE, 1L, NINE, NINE.plus(HOUR))).extracting(BucketCount::count)
                .containsExactly(SlottedCounters.MAX_DELTA - 1);
    }

    @Test
    void addInCallersTransaction_bucketLandsOrRollsBackWithIt() throws SQLException {
        clock.set(NINE);
        SlottedCounters counters = migrated(hourly());
        try (Connection connection = db.dataSource().getConnection()) {
            connection.setAutoCommit(false);
            counters.add(connection, TYPE, 1L, 3);
            connection.rollback();
            counters.add(connection, TYPE, 1L, 4);
            connection.commit();
        }

        assertThat(counters.timeSeries().series(TYPE, 1L, NINE, NINE.plus(HOUR))).extracting(BucketCount::count).containsExactly(4L);
        assertThat(counters.get(TYPE, 1L)).isEqualTo(4);
    }

    @Test
    void add_typeWithoutBuckets_writesNoBucketRows() {
        clock.set(NINE);
        SlottedCounters counters = migrated(hourly());
        counters.add(TYPE + 1, 1L, 3);
        counters.addAll(List.of(new Increment(TYPE + 1, 2L, 4)));
        awaitWritten(counters, 2);

        assertThat(bucketRows()).isZero();
        assertThat(counters.get(TYPE + 1, 1L)).isEqualTo(3);
    }

    // ---------------------------------------------------------------- top-N

    /**
     * A Zipf mix over 2,000 counters spread over three hours, in batches and keyed increments
     * (which are durable on return in every mode): the top 50 of each window is the test's own
     * count, sorted by count and then id; folding the closed hours changes no answer.
     */
    @Test
    void top_zipfMixOverThreeHours_matchesAnIndependentCount() {
        clock.set(NINE);
        SlottedCounters counters = migrated(hourly().flushers(4).slots(8));
        long seed = 20261126L;
        System.out.println(db + " " + mode + ": top-N Zipf seed " + seed);
        Random random = new Random(seed);
        Zipf zipf = new Zipf(2_000);
        List<Map<Long, Long>> perHour = new ArrayList<>();
        for (int hour = 0; hour < 3; hour++) {
            Map<Long, Long> counts = new HashMap<>();
            for (int batch = 0; batch < 20; batch++) {
                List<Increment> increments = new ArrayList<>();
                for (int i = 0; i < 500; i++) {
                    long id = zipf.next(random);
                    increments.add(new Increment(TYPE, id, 1));
                    counts.merge(id, 1L, Long::sum);
                }
                counters.addAll(increments);
                long single = zipf.next(random);
                counters.add(TYPE, single, 1, "single-" + hour + "-" + batch);
                counts.merge(single, 1L, Long::sum);
            }
            perHour.add(counts);
            clock.advance(HOUR);
        }
        Instant end = NINE.plus(HOUR.multipliedBy(3));

        List<RankedCounter> lastTwoHours = counters.timeSeries().top(TYPE, NINE.plus(HOUR), end, 50);
        assertThat(lastTwoHours).containsExactlyElementsOf(expectedTop(perHour.subList(1, 3), 50));
        assertThat(counters.timeSeries().top(TYPE, NINE, end, 50)).containsExactlyElementsOf(expectedTop(perHour, 50));

        assertThat(spreadCounters()).as("counters with rows in several slots of an hour").isPositive();
        clock.advance(Duration.ofMinutes(1));
        keepNow(counters);
        assertThat(spreadCounters()).as("once the hours have closed and been folded").isZero();
        assertThat(counters.timeSeries().top(TYPE, NINE, end, 50)).containsExactlyElementsOf(expectedTop(perHour, 50));
        assertThat(counters.timeSeries().top(TYPE, NINE, end, 1000)).containsExactlyElementsOf(expectedTop(perHour, 1000));
    }

    private static List<RankedCounter> expectedTop(List<Map<Long, Long>> hours, int n) {
        Map<Long, Long> sums = new HashMap<>();
        hours.forEach(hour -> hour.forEach((id, count) -> sums.merge(id, count, Long::sum)));
        return sums.entrySet().stream()
                .map(e -> new RankedCounter(e.getKey(), e.getValue()))
                .sorted(Comparator.comparingLong(RankedCounter::count).reversed()
                        .thenComparingLong(RankedCounter::recordId))
                .limit(n).toList();
    }

    // ---------------------------------------------------------------- pending rows

    /**
     * A group-commit flush writes a bucketed counter's increments as one pending row per counter
     * and bucket in the counter table; the keeper moves the rows of a closed bucket into the
     * bucket table. Here the closed hour's rows are moved while writers go on writing the next
     * hour and readers read the closed one: every series, top-N and total read during the move is
     * exact, and once both hours are closed and moved no pending row is left.
     */
    @Test
    void pendingRows_movedWhileWritersWriteAndReadersRead_everyReadExact() throws Exception {
        clock.set(NINE);
        SlottedCounters counters = migrated(hourly().flushers(4).slots(8));
        long seed = 20261206L;
        System.out.println(db + " " + mode + ": pending rows seed " + seed);
        int ids = 20;
        long[][] expected = new long[2][ids];
        runConcurrently(16, t -> addRandomly(counters, new Random(seed + t), ids, expected[0]));
        awaitWritten(counters, 16 * 200);
        if (mode != WriteMode.DIRECT) {
            assertThat(pendingRows()).as("pending rows written by the flushes of the first hour").isPositive();
        }
        clock.advance(HOUR.plus(Duration.ofMinutes(1)));
        List<RankedCounter> firstHourTop = expectedTop(List.of(asMap(expected[0])), ids);

        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicLong reads = new AtomicLong();
        List<CompletableFuture<Void>> readers = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            readers.add(CompletableFuture.runAsync(() -> {
                while (writing.get()) {
                    assertThat(counters.timeSeries().top(TYPE, NINE, NINE.plus(HOUR), ids))
                            .containsExactlyElementsOf(firstHourTop);
                    long id = reads.incrementAndGet() % ids;
                    assertThat(counters.timeSeries().series(TYPE, id, NINE, NINE.plus(HOUR)))
                            .extracting(BucketCount::count).containsExactly(expected[0][(int) id]);
                }
            }));
        }
        CompletableFuture<Void> keeper = CompletableFuture.runAsync(() -> {
            while (writing.get()) {
                keepNow(counters);
            }
        });
        runConcurrently(16, t -> addRandomly(counters, new Random(seed + 100 + t), ids, expected[1]));
        awaitWritten(counters, 2 * 16 * 200);
        writing.set(false);
        keeper.get(1, TimeUnit.MINUTES);
        for (CompletableFuture<Void> reader : readers) {
            reader.get(1, TimeUnit.MINUTES);
        }
        assertThat(reads.get()).as("reads of the closed hour while it was moved").isPositive();
        assertThat(pendingRowsBefore(NINE.plus(HOUR))).as("pending rows of the closed hour left").isZero();

        clock.advance(HOUR);
        keepNow(counters);
        assertThat(pendingRows()).as("pending rows once both hours closed").isZero();
        for (int id = 0; id < ids; id++) {
            assertThat(counters.timeSeries().series(TYPE, id, NINE, NINE.plus(HOUR.multipliedBy(2))))
                    .extracting(BucketCount::count).as("counter %d", id)
                    .containsExactly(expected[0][id], expected[1][id]);
            assertThat(counters.get(TYPE, id)).isEqualTo(expected[0][id] + expected[1][id]);
        }
        assertThat(counters.timeSeries().top(TYPE, NINE, NINE.plus(HOUR.multipliedBy(2)), ids))
                .containsExactlyElementsOf(expectedTop(List.of(asMap(expected[0]), asMap(expected[1])), ids));
    }

    /** 200 increments of positive deltas, recorded in {@code expected} once acknowledged. */
    private static void addRandomly(SlottedCounters counters, Random random, int ids, long[] expected) {
        for (int i = 0; i < 200; i++) {
            int id = random.nextInt(ids);
            long delta = 1 + random.nextInt(9);
            counters.add(TYPE, id, delta);
            synchronized (expected) {
                expected[id] += delta;
            }
        }
    }

    private static Map<Long, Long> asMap(long[] counts) {
        Map<Long, Long> map = new HashMap<>();
        for (int id = 0; id < counts.length; id++) {
            map.put((long) id, counts[id]);
        }
        return map;
    }

    /**
     * A flush that lands after its bucket's pending rows were moved — here a process whose clock
     * is two hours behind, so that every increment it accepts counts in an hour whose rows were
     * moved — writes its pending rows again: they count once in the total, the series and the
     * top-N, before the next move and after it.
     */
    @Test
    void flushLandingAfterItsBucketWasMoved_isCountedOnce() {
        clock.set(NINE.plus(Duration.ofMinutes(10)));
        SlottedCounters counters = migrated(hourly());
        counters.add(TYPE, 1, 5);
        awaitWritten(counters, 1);
        clock.set(NINE.plus(HOUR.multipliedBy(2)).plus(Duration.ofMinutes(10)));
        keepNow(counters);
        assertThat(pendingRows()).isZero();

        MutableClock behind = new MutableClock();
        behind.set(NINE.plus(Duration.ofMinutes(20)));
        SlottedCounters late = counters(SlottedCounters.builder(db.dataSource()).table(table).writeMode(mode)
                .clock(behind).flushInterval(Duration.ofMillis(20))
                .buckets(TYPE, BucketUnit.HOUR, Duration.ofDays(30)));
        late.add(TYPE, 1, 7);
        late.addAll(List.of(new Increment(TYPE, 1, 3), new Increment(TYPE, 2, 4)));
        awaitWritten(late, 3);
        late.close();
        if (mode != WriteMode.DIRECT) {
            assertThat(pendingRowsBefore(NINE.plus(HOUR))).as("pending rows of the moved hour").isPositive();
        }
        for (int pass = 0; pass < 2; pass++) {
            assertThat(counters.get(TYPE, 1)).isEqualTo(15);
            assertThat(counters.get(TYPE, 2)).isEqualTo(4);
            assertThat(counters.timeSeries().series(TYPE, 1, NINE, NINE.plus(HOUR.multipliedBy(2))))
                    .extracting(BucketCount::count).containsExactly(15L, 0L);
            assertThat(counters.timeSeries().top(TYPE, NINE, NINE.plus(HOUR), 10))
                    .containsExactly(new RankedCounter(1, 15), new RankedCounter(2, 4));
            keepNow(counters);
            assertThat(pendingRows()).isZero();
        }
    }

    /**
     * A set leaves a counter's pending rows where they are, since their bucket still counts them,
     * and sets the other rows to what the total needs beside them.
     */
    @Test
    void set_leavesPendingRowsToTheirBucket() {
        clock.set(NINE.plus(Duration.ofMinutes(10)));
        SlottedCounters counters = migrated(hourly());
        counters.add(TYPE, 1, 5);
        counters.add(TYPE, 1, 6);
        awaitWritten(counters, 2);
        if (mode != WriteMode.DIRECT) {
            assertThat(pendingRows()).as("pending rows before the set").isPositive();
        }
        counters.admin().set(TYPE, 1, 100);
        assertThat(counters.get(TYPE, 1)).isEqualTo(100);
        assertThat(counters.timeSeries().series(TYPE, 1, NINE, NINE.plus(HOUR))).extracting(BucketCount::count)
                .containsExactly(11L);
        clock.advance(HOUR);
        keepNow(counters);
        assertThat(pendingRows()).isZero();
        assertThat(counters.get(TYPE, 1)).isEqualTo(100);
        assertThat(counters.timeSeries().series(TYPE, 1, NINE, NINE.plus(HOUR))).extracting(BucketCount::count)
                .containsExactly(11L);
    }

    /**
     * A bucketed counter whose slot rows are full: a group-commit flush writes its increments as a
     * pending row of their bucket, which has room of its own, so they are applied where a slot row
     * would refuse them (in DIRECT mode, which writes the slot row, they are refused); the keeper
     * finds no room to move the row into and leaves it where it is, still counted, going on with
     * the rest of its work; once there is room, it moves it.
     */
    @Test
    void counterWithFullSlots_keepsBucketedIncrementsPending_untilItsSlotRowHasRoom() {
        clock.set(NINE.plus(Duration.ofMinutes(10)));
        SlottedCounters counters = migrated(hourly().slots(1));
        counters.admin().set(TYPE, 1, SlottedCounters.MAX_DELTA);
        if (mode == WriteMode.DIRECT) {
            assertThatThrownBy(() -> counters.add(TYPE, 1, 10)).isInstanceOf(CounterOverflowException.class);
            assertThat(counters.get(TYPE, 1)).isEqualTo(SlottedCounters.MAX_DELTA);
            return;
        }
        counters.add(TYPE, 1, 10);
        counters.add(TYPE, 2, 3);
        awaitWritten(counters, 2);
        assertThat(counters.get(TYPE, 1)).isEqualTo(SlottedCounters.MAX_DELTA + 10);
        clock.advance(HOUR);
        keepNow(counters);
        assertThat(pendingRows()).as("the full counter's pending row, left; the other's moved").isEqualTo(1);
        assertThat(counters.get(TYPE, 1)).isEqualTo(SlottedCounters.MAX_DELTA + 10);
        assertThat(counters.timeSeries().series(TYPE, 1, NINE, NINE.plus(HOUR))).extracting(BucketCount::count)
                .containsExactly(10L);
        assertThat(counters.timeSeries().top(TYPE, NINE, NINE.plus(HOUR), 10))
                .containsExactly(new RankedCounter(1, 10), new RankedCounter(2, 3));

        counters.admin().set(TYPE, 1, 0);
        keepNow(counters);
        assertThat(pendingRows()).isZero();
        assertThat(counters.get(TYPE, 1)).isZero();
        assertThat(counters.timeSeries().series(TYPE, 1, NINE, NINE.plus(HOUR))).extracting(BucketCount::count)
                .containsExactly(10L);
    }

    /**
     * A bucketed type with limits writes no pending rows, in the one mode that takes limits and
     * group-commits, whatever this class's mode: its decisions read and move its rows under its
     * lock, and its buckets are exact as ever.
     */
    @Test
    void limitedBucketedType_writesNoPendingRows() {
        clock.set(NINE.plus(Duration.ofMinutes(10)));
        SlottedCounters counters = migrated(SlottedCounters.builder(db.dataSource()).table(table)
                .writeMode(WriteMode.GROUPED).clock(clock).buckets(TYPE, BucketUnit.HOUR, Duration.ofDays(30))
                .limits(TYPE, Limits.atMost(1_000)));
        counters.add(TYPE, 1, 5);
        counters.addAll(List.of(new Increment(TYPE, 1, 4), new Increment(TYPE, 2, 3)));
        assertThat(pendingRows()).isZero();
        assertThat(counters.get(TYPE, 1)).isEqualTo(9);
        assertThat(counters.timeSeries().top(TYPE, NINE, NINE.plus(HOUR), 10))
                .containsExactly(new RankedCounter(1, 9), new RankedCounter(2, 3));
    }

    // ---------------------------------------------------------------- retention

    /**
     * Minute buckets kept for 5 minutes; writers add without pause while the test moves the clock
     * a minute at a time and prunes. Nothing older than the retention and a bucket stays; every
     * bucket kept is exact.
     */
    @Test
    void prune_underLoad_removesOnlyExpiredBucketsAndKeepsTheRestExact() throws Exception {
        clock.set(NINE);
        SlottedCounters counters = migrated(builder().buckets(TYPE, BucketUnit.MINUTE, Duration.ofMinutes(5)));
        int minutes = 9;
        long[] perMinute = new long[minutes];
        AtomicLong pruned = new AtomicLong();
        AtomicBoolean pruning = new AtomicBoolean(true);
        CyclicBarrier minuteEnds = new CyclicBarrier(16, () -> clock.advance(Duration.ofMinutes(1)));
        CompletableFuture<Void> pruner = CompletableFuture.runAsync(() -> {
            while (pruning.get()) {
                pruned.addAndGet(keepNow(counters).pruned());
            }
        });

        runConcurrently(16, t -> {
            for (int minute = 0; minute < minutes; minute++) {
                for (int i = 0; i < 20; i++) {
                    counters.add(TYPE, i % 4, 1);
                }
                synchronized (perMinute) {
                    perMinute[minute] += 20;
                }
                minuteEnds.await(1, TimeUnit.MINUTES);
            }
        });
        pruning.set(false);
        pruner.get(1, TimeUnit.MINUTES);
        counters.close();
        SlottedCounters reader = counters(builder().buckets(TYPE, BucketUnit.MINUTE, Duration.ofMinutes(5)));
        pruned.addAndGet(keepNow(reader).pruned());

        Instant now = clock.instant();
        Instant oldestKept = now.minus(Duration.ofMinutes(5));
        assertThat(pruned.get()).isPositive();
        assertThat(oldestBucket()).as("oldest bucket left").isEqualTo(oldestKept.minus(Duration.ofMinutes(1)));
        long kept = 0;
        for (long id = 0; id < 4; id++) {
            kept += reader.timeSeries().series(TYPE, id, oldestKept, now).stream().mapToLong(BucketCount::count).sum();
        }
        long expected = 0;
        for (int minute = minutes - 5; minute < minutes; minute++) {
            expected += perMinute[minute];
        }
        assertThat(kept).isEqualTo(expected);
        assertThat(reader.getAll(TYPE, List.of(0L, 1L, 2L, 3L)).values().stream().mapToLong(Long::longValue).sum())
                .isEqualTo(16L * 20 * minutes);
    }

    @Test
    void series_windowAtTheRetentionEdge_isReadAndOneBucketEarlierIsRefused() {
        clock.set(NINE.plus(Duration.ofMinutes(30)));
        SlottedCounters counters = migrated(builder().buckets(TYPE, BucketUnit.HOUR, Duration.ofHours(24)));
        counters.add(TYPE, 1L, 2);
        awaitWritten(counters, 1);
        Instant oldest = NINE.minus(Duration.ofHours(24));

        assertThat(counters.timeSeries().series(TYPE, 1L, oldest, clock.instant())).hasSize(25)
                .last().isEqualTo(new BucketCount(NINE, 2));
        assertThat(counters.timeSeries().top(TYPE, oldest, clock.instant(), 10)).containsExactly(new RankedCounter(1L, 2));
        assertThatThrownBy(() -> counters.timeSeries().series(TYPE, 1L, oldest.minusSeconds(1), clock.instant()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("is before the oldest hour bucket kept, " + oldest)
                .hasMessageContaining("keeps 1 day of buckets");
    }

    // ---------------------------------------------------------------- bad ranges

    @Test
    void seriesAndTop_badRanges_areRefusedWithWhatToFix() {
        clock.set(NINE);
        SlottedCounters counters = migrated(builder().buckets(TYPE, BucketUnit.MINUTE, Duration.ofDays(30)));
        counters.add(TYPE, 1L, 1);
        awaitWritten(counters, 1);
        Instant later = NINE.plus(HOUR);

        assertThatThrownBy(() -> counters.timeSeries().series(TYPE, 1L, later, NINE))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must be after from");
        assertThatThrownBy(() -> counters.timeSeries().top(TYPE, NINE, NINE, 10))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must be after from");
        assertThatThrownBy(() -> counters.timeSeries().series(TYPE, 1L, NINE.minus(Duration.ofDays(7)), NINE))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("holds 10080 minute buckets")
                .hasMessageContaining("at most 10000");
        assertThatThrownBy(() -> counters.timeSeries().series(TYPE + 1, 1L, NINE, later))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("keeps no time buckets");
        assertThatThrownBy(() -> counters.timeSeries().top(TYPE, NINE, later, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("n must be between 1 and 1000");
        assertThatThrownBy(() -> counters.timeSeries().top(TYPE, NINE, later, 1001))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("but was 1001");
        assertThat(counters.timeSeries().series(TYPE, 1L, NINE.plusSeconds(30), NINE.plusSeconds(61)))
                .as("instants inside buckets bring in the whole buckets")
                .containsExactly(new BucketCount(NINE, 1), new BucketCount(NINE.plusSeconds(60), 0));
        assertThat(counters.get(TYPE, 1L)).isEqualTo(1);
    }

    // ---------------------------------------------------------------- helpers

    private record BucketKeeperKept(long pruned, long folded) {
    }

    private static BucketKeeperKept keepNow(SlottedCounters counters) {
        var kept = ((DefaultSlottedCounters) counters).keepBucketsNow();
        return new BucketKeeperKept(kept.pruned(), kept.folded());
    }

    private long pendingRows() {
        return queryLong("SELECT COUNT(*) FROM " + table + " WHERE slot <= -1048576");
    }

    /** The pending rows of the buckets before a time: a pending slot is -2^20 - (hour × 16 + share). */
    private long pendingRowsBefore(Instant end) {
        long hour = end.getEpochSecond() / 3600;
        return queryLong("SELECT COUNT(*) FROM " + table + " WHERE slot <= -1048576 AND slot > "
                + (-1048576 - hour * 16));
    }

    private long bucketRows() {
        return queryLong("SELECT COUNT(*) FROM " + table + "_buckets");
    }

    private long spreadCounters() {
        return queryLong("SELECT COUNT(*) FROM (SELECT bucket_start, record_id FROM " + table
                + "_buckets GROUP BY bucket_start, record_id HAVING COUNT(*) > 1) spread");
    }

    private Instant oldestBucket() {
        return Instant.ofEpochSecond(queryLong("SELECT MIN(bucket_start) FROM " + table + "_buckets"));
    }

    private long queryLong(String sql) {
        try (Connection connection = db.dataSource().getConnection();
                PreparedStatement select = connection.prepareStatement(sql);
                ResultSet rows = select.executeQuery()) {
            rows.next();
            return rows.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }
}
