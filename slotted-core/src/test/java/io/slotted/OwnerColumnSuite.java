package io.slotted;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.slotted.db.TestDatabase;
import io.slotted.internal.registry.TypeRegistry;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The owning row, on every database: roll-ups into an owner column in both modes under load,
 * adopting a hot column that legacy writers are updating and releasing it back to them, two
 * rollers at once, and set, recount and shrink while writers keep incrementing. Every total is
 * checked exactly against what the test's threads were acknowledged.
 */
@ParameterizedClass(name = "[{arguments}]")
@MethodSource("io.slotted.db.TestDatabases#all")
class OwnerColumnSuite extends CounterTableTest {
    private static final int TYPE = 3;
    private static final int OWNERS = 1_000;

    private final MutableClock clock = MutableClock.followingTheSystemClock();

    OwnerColumnSuite(TestDatabase db) {
        super(db);
    }

    private String owner() {
        return table + "_repos";
    }

    @AfterEach
    void dropOwnerTables() {
        db.dropTable(owner());
        db.dropTable(table + "_events");
    }

    private SlottedCountersBuilder builder() {
        return builderOn(clock);
    }

    private SlottedCountersBuilder builderOn(Clock clock) {
        return SlottedCounters.builder(db.dataSource()).table(table).clock(clock);
    }

    /**
     * Binds {@link #TYPE} to the owner column in fold mode, then moves the clock past the grace a
     * new binding waits before its first roll-up (for other processes to learn of it), which the
     * tests of one process, which learned of the binding as it made it, would otherwise sleep out.
     * The tests of two processes ({@link #rollUp_twoRollersAtOnce_neitherRollsUpTwiceNorDeadlocks})
     * and those of roll-ups during the writes keep the wait.
     */
    private AdoptionReport adoptFolded(SlottedCounters counters) {
        AdoptionReport report = counters.owners().adopt(TYPE, ownerColumn(), OwnerMode.FOLD);
        clock.advance(TypeRegistry.GRACE);
        return report;
    }

    /** An owner table with ids 0 … OWNERS-1, each column starting at {@code initial(id)}. */
    private void ownerTable(String countType, java.util.function.LongUnaryOperator initial) {
        db.execute("CREATE TABLE " + owner() + " (id BIGINT PRIMARY KEY, name VARCHAR(20),"
                + " downloads_count " + countType + " DEFAULT 0 NOT NULL)");
        try (Connection connection = db.dataSource().getConnection();
                PreparedStatement insert = connection.prepareStatement("INSERT INTO " + owner()
                        + " (id, name, downloads_count) VALUES (?, ?, ?)")) {
            for (long id = 0; id < OWNERS; id++) {
                insert.setLong(1, id);
                insert.setString(2, "repo " + id);
                insert.setLong(3, initial.applyAsLong(id));
                insert.addBatch();
            }
            insert.executeBatch();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private OwnerColumn ownerColumn() {
        return OwnerColumn.parse(owner() + ".id.downloads_count");
    }

    private Map<Long, Long> columns() {
        return longPairs("SELECT id, downloads_count FROM " + owner());
    }

    private Map<Long, Long> slotSums() {
        return longPairs("SELECT record_id, SUM(count) FROM " + table + " WHERE record_type = " + TYPE
                + " GROUP BY record_id");
    }

    private long slotRows() {
        return longPairs("SELECT 0, COUNT(*) FROM " + table + " WHERE record_type = " + TYPE).get(0L);
    }

    /** Each slot row's (record id, slot). */
    private Set<List<Long>> slotKeys() throws SQLException {
        Set<List<Long>> keys = new HashSet<>();
        try (Connection connection = db.dataSource().getConnection();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT record_id, slot FROM " + table
                        + " WHERE record_type = " + TYPE)) {
            while (rows.next()) {
                keys.add(List.of(rows.getLong(1), rows.getLong(2)));
            }
        }
        return keys;
    }

    private long nonZeroSlotRows() {
        return longPairs("SELECT 0, COUNT(*) FROM " + table + " WHERE record_type = " + TYPE
                + " AND count <> 0").get(0L);
    }

    private Map<Long, Long> longPairs(String sql) {
        Map<Long, Long> pairs = new HashMap<>();
        try (Connection connection = db.dataSource().getConnection();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(sql)) {
            while (rows.next()) {
                pairs.put(rows.getLong(1), rows.getLong(2));
            }
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
        return pairs;
    }

    /**
     * Runs {@code threads} writers until {@code duration} has passed, each adding Zipf-distributed
     * deltas through {@code add}, and returns what was acknowledged per id.
     */
    private static Map<Long, Long> writeFor(int threads, Duration duration, long seed, Adder add)
            throws Exception {
        return writeUntil(threads, duration, () -> true, seed, add);
    }

    /**
     * As {@link #writeFor}, but past {@code duration} the writers go on until {@code done} holds,
     * for at most a minute more: a test that needs something to happen while they write does not
     * depend on how fast a loaded machine gets there.
     */
    private static Map<Long, Long> writeUntil(int threads, Duration duration, BooleanSupplier done, long seed,
            Adder add) throws Exception {
        Map<Long, Long> acknowledged = new ConcurrentHashMap<>();
        Zipf zipf = new Zipf(OWNERS);
        long until = System.nanoTime() + duration.toNanos();
        long cap = until + Duration.ofMinutes(1).toNanos();
        runConcurrently(threads, t -> {
            Random random = new Random(seed + t);
            Map<Long, Long> mine = new HashMap<>();
            while (System.nanoTime() < until || (!done.getAsBoolean() && System.nanoTime() < cap)) {
                long id = zipf.next(random);
                long delta = 1 + random.nextInt(5);
                add.add(id, delta);
                mine.merge(id, delta, Long::sum);
            }
            mine.forEach((id, delta) -> acknowledged.merge(id, delta, Long::sum));
        });
        return acknowledged;
    }

    /** One write of a writer thread. */
    @FunctionalInterface
    private interface Adder {
        void add(long id, long delta) throws Exception;
    }

    private static Map<Long, Long> plus(Map<Long, Long> a, Map<Long, Long> b) {
        Map<Long, Long> sum = new HashMap<>(a);
        b.forEach((id, n) -> sum.merge(id, n, Long::sum));
        return sum;
    }

    private static Map<Long, Long> allIds(Map<Long, Long> sparse) {
        Map<Long, Long> all = new HashMap<>();
        for (long id = 0; id < OWNERS; id++) {
            all.put(id, sparse.getOrDefault(id, 0L));
        }
        return all;
    }

    // ---------------------------------------------------------------- roll-up under load

    @ParameterizedTest
    @EnumSource(OwnerMode.class)
    void rollUp_64ZipfWritersWhileRollingUpEvery100ms_everyCountAndColumnExact(OwnerMode mode)
            throws Exception {
        ownerTable("BIGINT", id -> 0);
        SlottedCounters counters = migrated(builder().rollUpEvery(Duration.ofMillis(100)));
        counters.owners().adopt(TYPE, ownerColumn(), mode);
        long seed = 20261123L;
        System.out.println(db + " " + mode + ": Zipf seed " + seed);
        AtomicBoolean writing = new AtomicBoolean(true);
        ExecutorService reader = Executors.newSingleThreadExecutor();
        Future<Long> reads = reader.submit(() -> readsNeverGoBack(counters, writing));

        // Longer than the grace a new binding waits, and on until a roll-up has run while they write.
        Map<Long, Long> expected = writeUntil(64, Duration.ofSeconds(5), () -> counters.stats().rollUps() > 0,
                seed, (id, delta) -> counters.add(TYPE, id, delta));
        writing.set(false);

        assertThat(reads.get(1, TimeUnit.MINUTES)).as("reads of the hottest counter").isPositive();
        reader.shutdown();
        assertThat(counters.stats().rollUps()).as("roll-ups ran during the writes").isPositive();
        List<Long> ids = LongStream.range(0, OWNERS).boxed().toList();
        assertThat(counters.getAll(TYPE, ids)).isEqualTo(allIds(expected));
        counters.owners().rollUpNow();
        assertThat(columns()).isEqualTo(allIds(expected));
        if (mode == OwnerMode.FOLD) {
            assertThat(nonZeroSlotRows()).as("fold leaves the rows it folds at 0").isZero();
            assertThat(slotRows()).as("for the next increments to update").isPositive();
        } else {
            assertThat(slotSums()).as("copy keeps the whole count in the slots").isEqualTo(expected);
        }
        assertThat(counters.stats().rollUpLagMillis()).isBetween(0L, 60_000L);
    }

    /** Reads the hottest counter until the writers stop; a roll-up seen half done would go back. */
    private static long readsNeverGoBack(SlottedCounters counters, AtomicBoolean writing) {
        long last = 0;
        long reads = 0;
        while (writing.get()) {
            long now = counters.get(TYPE, 0L);
            assertThat(now).as("only positive deltas are added").isGreaterThanOrEqualTo(last);
            last = now;
            reads++;
        }
        return reads;
    }

    @Test
    void rollUp_twoRollersAtOnce_neitherRollsUpTwiceNorDeadlocks() throws Exception {
        ownerTable("BIGINT", id -> 10);
        long deadlocksBefore = db.deadlocksDetected().orElse(0);
        SlottedCounters a = migrated(builder().rollUpEvery(Duration.ofMillis(10)));
        SlottedCounters b = counters(SlottedCounters.builder(db.dataSource()).table(table)
                .rollUpEvery(Duration.ofMillis(10)));
        a.owners().adopt(TYPE, ownerColumn(), OwnerMode.FOLD);

        // The first roll-up waits out the grace a new binding gets (3 s): on a loaded machine the
        // writers go on until one has been made.
        Map<Long, Long> expected = writeUntil(32, Duration.ofSeconds(5),
                () -> a.stats().rollUps() + b.stats().rollUps() > 0, 7L,
                (id, delta) -> (id % 2 == 0 ? a : b).add(TYPE, id, delta));

        assertThat(a.stats().rollUps() + b.stats().rollUps()).isPositive();
        a.owners().rollUpNow();
        b.owners().rollUpNow();
        Map<Long, Long> withBase = new HashMap<>();
        allIds(expected).forEach((id, n) -> withBase.put(id, n + 10));
        assertThat(columns()).isEqualTo(withBase);
        assertThat(b.getAll(TYPE, LongStream.range(0, OWNERS).boxed().toList())).isEqualTo(withBase);
        assertThat(db.deadlocksDetected().orElse(0)).as("deadlocks on the server")
                .isEqualTo(deadlocksBefore);
    }

    /** The longest a roller may go without completing a roll-up while the writers write. */
    private static final Duration ROLLER_BOUND = Duration.ofSeconds(5);
    /** How often the roll-ups completed are counted. */
    private static final int SAMPLE_MS = 100;

    /**
     * A roller is never starved by the writers: 32 writers of two processes, one grouping its
     * increments and one writing each directly, keep the 8 hottest counters' slot rows locked
     * nearly all the time for 10 s, while both processes' rollers are asked to roll up every
     * 50 ms. Every {@value #SAMPLE_MS} ms the roll-ups completed so far are counted: no gap between
     * two completions may exceed {@link #ROLLER_BOUND}, and every count and column stays exact.
     */
    @Test
    void rollUp_whileWritersHoldTheHottestRowsWithoutPause_completesWithinABound() throws Exception {
        ownerTable("BIGINT", id -> 0);
        SlottedCounters grouped = migrated(builder().rollUpEvery(Duration.ofMillis(50)));
        SlottedCounters direct = counters(builder().writeMode(WriteMode.DIRECT).rollUpEvery(Duration.ofMillis(50)));
        adoptFolded(grouped);
        grouped.owners().rollUpNow();
        AtomicBoolean writing = new AtomicBoolean(true);
        ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
        List<long[]> completions = java.util.Collections.synchronizedList(new ArrayList<>());
        sampler.scheduleAtFixedRate(() -> completions.add(new long[] {System.nanoTime(),
                grouped.stats().rollUps() + direct.stats().rollUps()}), 0, SAMPLE_MS, TimeUnit.MILLISECONDS);

        Map<Long, Long> expected = new ConcurrentHashMap<>();
        long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        runConcurrently(32, t -> {
            Random random = new Random(4701L + t);
            Map<Long, Long> mine = new HashMap<>();
            while (System.nanoTime() < until) {
                long id = random.nextInt(8);
                long delta = 1 + random.nextInt(5);
                (t % 2 == 0 ? grouped : direct).add(TYPE, id, delta);
                mine.merge(id, delta, Long::sum);
            }
            mine.forEach((id, delta) -> expected.merge(id, delta, Long::sum));
        });
        sampler.shutdown();
        assertThat(sampler.awaitTermination(1, TimeUnit.MINUTES)).isTrue();

        long longestGap = 0;
        long lastCompletion = completions.get(0)[0];
        for (int i = 1; i < completions.size(); i++) {
            if (completions.get(i)[1] > completions.get(i - 1)[1]) {
                lastCompletion = completions.get(i)[0];
            }
            longestGap = Math.max(longestGap, completions.get(i)[0] - lastCompletion);
        }
        System.out.println(db + ": " + (grouped.stats().rollUps() + direct.stats().rollUps()) + " roll-ups in"
                + " 10 s of writes, longest without one " + Duration.ofNanos(longestGap).toMillis() + " ms");
        assertThat(Duration.ofNanos(longestGap)).as("longest time without a completed roll-up")
                .isLessThanOrEqualTo(ROLLER_BOUND);
        grouped.owners().rollUpNow();
        assertThat(columns()).isEqualTo(allIds(expected));
        assertThat(direct.getAll(TYPE, LongStream.range(0, OWNERS).boxed().toList())).isEqualTo(allIds(expected));
    }

    // ---------------------------------------------------------------- rows left at 0, and their sweep

    /** Longer than a counter must stay at 0, unvisited, before the sweep deletes its rows (a minute). */
    private static final Duration PAST_A_SWEEP = Duration.ofMinutes(2);

    /**
     * Counters whose type is bound in fold mode to an owner table of {@value #OWNERS} rows at 0, on
     * a clock the test moves, already past the grace a new binding waits.
     *
     * @param builder one from {@link #builderOn} that clock
     */
    private SlottedCounters foldedOn(MutableClock clock, SlottedCountersBuilder builder) {
        ownerTable("BIGINT", id -> 0);
        SlottedCounters counters = migrated(builder);
        counters.owners().adopt(TYPE, ownerColumn(), OwnerMode.FOLD);
        clock.advance(Duration.ofSeconds(10));
        return counters;
    }

    @Test
    void rollUp_repeatedWhile32WritersAddKnownDeltas_columnPlusSlotsExactAndRowsLeftAtZero() throws Exception {
        ownerTable("BIGINT", id -> 1_000);
        SlottedCounters counters = migrated(builder());
        adoptFolded(counters);
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicLong rolledWhileWriting = new AtomicLong();
        ExecutorService roller = Executors.newSingleThreadExecutor();
        Future<?> rolling = roller.submit(() -> {
            while (writing.get()) {
                rolledWhileWriting.addAndGet(counters.owners().rollUpNow().countersRolledUp());
            }
        });

        Map<Long, Long> expected = writeUntil(32, Duration.ofSeconds(4), () -> rolledWhileWriting.get() > 0,
                31L, (id, delta) -> counters.add(TYPE, id, delta));
        writing.set(false);
        rolling.get(1, TimeUnit.MINUTES);
        roller.shutdown();
        long countersRolledUp = rolledWhileWriting.get();

        Map<Long, Long> withBase = new HashMap<>();
        allIds(expected).forEach((id, n) -> withBase.put(id, n + 1_000));
        assertThat(countersRolledUp).as("counters rolled up while the writers wrote").isPositive();
        assertThat(plus(columns(), slotSums())).as("column plus slots").isEqualTo(withBase);
        long rows = slotRows();
        counters.owners().rollUpNow();
        assertThat(columns()).isEqualTo(withBase);
        assertThat(nonZeroSlotRows()).isZero();
        assertThat(slotRows()).as("rows are left at 0, not deleted").isEqualTo(rows);
    }

    @Test
    void rollUp_counterIncrementedAfterItsFold_updatesItsRowAtZeroRatherThanInsertingOne() {
        ownerTable("BIGINT", id -> 100);
        SlottedCounters counters = migrated(builder().slots(1));
        adoptFolded(counters);
        counters.add(TYPE, 4L, 5);
        counters.owners().rollUpNow();
        long rowsAfterFold = slotRows();

        counters.add(TYPE, 4L, 3);

        assertThat(rowsAfterFold).isEqualTo(1);
        assertThat(slotRows()).as("the increment updated the row at 0").isEqualTo(1);
        assertThat(slotSums()).containsExactly(Map.entry(4L, 3L));
        assertThat(columns()).containsEntry(4L, 105L);
        assertThat(counters.get(TYPE, 4L)).isEqualTo(108);
        RollUpReport second = counters.owners().rollUpNow();
        assertThat(second.countersRolledUp()).isEqualTo(1);
        assertThat(columns()).containsEntry(4L, 108L);
        assertThat(counters.owners().rollUpNow().countersRolledUp()).as("rows at 0 are not rolled up").isZero();
    }

    @Test
    void sweep_deletesTheRowsOfCountersAtZeroForAMinute_andKeepsThoseStillCounting() {
        MutableClock clock = new MutableClock();
        SlottedCounters counters = foldedOn(clock, builderOn(clock).slots(1));
        counters.add(TYPE, 1L, 2);
        counters.add(TYPE, 2L, 3);
        counters.owners().rollUpNow();
        long rowsAtZero = slotRows();

        clock.advance(PAST_A_SWEEP);
        counters.add(TYPE, 2L, 4);
        counters.owners().rollUpNow(); // the first sweep: 1 was rolled up since the start, 2 just now
        long afterFirstSweep = slotRows();
        clock.advance(PAST_A_SWEEP);
        counters.add(TYPE, 2L, 1);
        counters.owners().rollUpNow(); // 1 has stayed at 0 since the first sweep; 2 was rolled up again
        Map<Long, Long> afterSecondSweep = longPairs("SELECT record_id, COUNT(*) FROM " + table
                + " WHERE record_type = " + TYPE + " GROUP BY record_id");
        clock.advance(PAST_A_SWEEP);
        counters.owners().rollUpNow(); // 2 has stayed at 0 since the second

        assertThat(rowsAtZero).isEqualTo(2);
        assertThat(afterFirstSweep).as("nothing was cold yet").isEqualTo(2);
        assertThat(afterSecondSweep).as("only 1's row was deleted").containsOnlyKeys(2L);
        assertThat(slotRows()).isZero();
        assertThat(columns()).containsEntry(1L, 2L).containsEntry(2L, 8L);
        assertThat(counters.getAll(TYPE, List.of(1L, 2L))).containsExactly(Map.entry(1L, 2L), Map.entry(2L, 8L));
    }

    @Test
    void sweep_ofThousandsOfColdCounters_isSpreadOverTheRollUpsThatFollow() throws SQLException {
        MutableClock clock = new MutableClock();
        SlottedCounters counters = foldedOn(clock, builderOn(clock));
        try (Connection connection = db.dataSource().getConnection();
                PreparedStatement insert = connection.prepareStatement("INSERT INTO " + table
                        + " (record_type, record_id, slot, count) VALUES (" + TYPE + ", ?, 0, 0)")) {
            for (long id = 10_000; id < 13_000; id++) {
                insert.setLong(1, id);
                insert.addBatch();
            }
            insert.executeBatch();
        }
        counters.owners().rollUpNow();
        clock.advance(PAST_A_SWEEP);

        counters.owners().rollUpNow();
        long afterOne = slotRows();
        for (int i = 0; i < 5; i++) {
            counters.owners().rollUpNow();
        }

        assertThat(afterOne).as("swept by the first roll-up after the listing").isBetween(1L, 2_999L);
        assertThat(slotRows()).as("and the rest by those after it").isZero();
    }

    @Test
    void sweep_repeatedWhile16WritersIncrementTheCountersItSweeps_losesNothing() throws Exception {
        MutableClock clock = new MutableClock();
        SlottedCounters counters = foldedOn(clock, builderOn(clock));
        Map<Long, Long> first = writeFor(16, Duration.ofMillis(500), 41L,
                (id, delta) -> counters.add(TYPE, id, delta));
        counters.owners().rollUpNow();
        long rowsAtZero = slotRows();
        AtomicBoolean writing = new AtomicBoolean(true);
        ExecutorService sweeper = Executors.newSingleThreadExecutor();
        // The writers insert rows while a roll-up sweeps, so a sweep shows as rows there before a
        // roll-up and gone after it (only the sweep deletes rows here), not as fewer rows.
        Future<Long> mostSwept = sweeper.submit(() -> {
            long most = 0;
            while (writing.get()) {
                clock.advance(PAST_A_SWEEP); // every roll-up sweeps what the one before did not visit
                Set<List<Long>> before = slotKeys();
                counters.owners().rollUpNow();
                before.removeAll(slotKeys());
                most = Math.max(most, before.size());
            }
            return most;
        });

        // Uniform over the ids rather than Zipf: most counters are cold between two roll-ups, so
        // increments keep meeting the sweep on the rows it is deleting.
        Map<Long, Long> during = new ConcurrentHashMap<>();
        long until = System.nanoTime() + Duration.ofSeconds(4).toNanos();
        runConcurrently(16, t -> {
            Random random = new Random(42L + t);
            while (System.nanoTime() < until) {
                long id = random.nextInt(OWNERS);
                long delta = 1 + random.nextInt(5);
                counters.add(TYPE, id, delta);
                during.merge(id, delta, Long::sum);
            }
        });
        writing.set(false);
        long swept = mostSwept.get(1, TimeUnit.MINUTES);
        sweeper.shutdown();

        Map<Long, Long> expected = allIds(plus(first, during));
        assertThat(rowsAtZero).isPositive();
        assertThat(swept).as("rows were swept while the writers wrote").isPositive();
        assertThat(plus(columns(), slotSums())).as("column plus slots").isEqualTo(expected);
        assertThat(counters.getAll(TYPE, LongStream.range(0, OWNERS).boxed().toList())).isEqualTo(expected);
        counters.owners().rollUpNow();
        clock.advance(PAST_A_SWEEP);
        counters.owners().rollUpNow();
        clock.advance(PAST_A_SWEEP);
        counters.owners().rollUpNow();
        assertThat(columns()).isEqualTo(expected);
        assertThat(slotRows()).as("every counter went cold and was swept").isZero();
    }

    // ---------------------------------------------------------------- adopt and release

    @Test
    void adopt_hotColumnUnderLegacyWriters_thenSlotted_thenReleased_columnHoldsEveryIncrement()
            throws Exception {
        ownerTable("BIGINT", id -> id);
        SlottedCounters counters = migrated(builder().rollUpEvery(Duration.ofMillis(100)));
        String legacy = "UPDATE " + owner() + " SET downloads_count = downloads_count + ? WHERE id = ?";
        Adder legacyUpdate = (id, delta) -> {
            try (Connection connection = db.dataSource().getConnection();
                    PreparedStatement update = connection.prepareStatement(legacy)) {
                update.setLong(1, delta);
                update.setLong(2, id);
                assertThat(update.executeUpdate()).isEqualTo(1);
            }
        };
        ExecutorService adopter = Executors.newSingleThreadExecutor();
        Future<AdoptionReport> adopted = adopter.submit(() -> {
            Thread.sleep(500);
            return counters.owners().adopt(TYPE, ownerColumn(), OwnerMode.FOLD);
        });

        Map<Long, Long> before = writeFor(32, Duration.ofSeconds(2), 1L, legacyUpdate);
        AdoptionReport report = adopted.get(1, TimeUnit.MINUTES);
        adopter.shutdown();
        // The one process learned of the binding as it made it: past the grace at once.
        clock.advance(TypeRegistry.GRACE);
        Map<Long, Long> during = writeUntil(32, Duration.ofSeconds(2), () -> counters.stats().rollUps() >= 3, 2L,
                (id, delta) -> counters.add(TYPE, id, delta));
        assertThat(counters.stats().rollUps()).as("roll-ups ran while Slotted counted").isPositive();
        RollUpReport released = counters.owners().release(TYPE);
        Map<Long, Long> after = writeFor(32, Duration.ofSeconds(1), 3L, legacyUpdate);

        assertThat(report.mode()).isEqualTo(OwnerMode.FOLD);
        assertThat(report.limit()).as("a fold-mode base stops at 2^62 - 1").isEqualTo((1L << 62) - 1);
        assertThat(released.countersWithoutOwnerRow()).isZero();
        Map<Long, Long> expected = new HashMap<>();
        allIds(plus(plus(before, during), after)).forEach((id, n) -> expected.put(id, n + id));
        assertThat(columns()).isEqualTo(expected);
        assertThat(slotRows()).as("release leaves nothing in the slots").isZero();
        assertThatThrownBy(() -> counters.owners().release(TYPE)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not bound");
    }

    @Test
    void adopt_copyMode_rollUpWritesTheSlotSumAndReleaseMovesItToTheColumn() {
        ownerTable("BIGINT", id -> 0);
        SlottedCounters counters = migrated(builder());
        counters.add(TYPE, 5L, 40);
        AdoptionReport report = counters.owners().adopt(TYPE, ownerColumn(), OwnerMode.COPY);
        counters.add(TYPE, 5L, 2);
        counters.add(TYPE, 6L, 1);

        RollUpReport rolled = counters.owners().rollUpNow();

        assertThat(report.warnings()).isEmpty();
        assertThat(rolled.countersRolledUp()).isEqualTo(2);
        assertThat(columns()).containsEntry(5L, 42L).containsEntry(6L, 1L);
        assertThat(counters.get(TYPE, 5L)).isEqualTo(42);
        assertThat(counters.owners().rollUpNow().countersRolledUp()).as("nothing changed since").isZero();
        counters.owners().release(TYPE);
        assertThat(columns()).containsEntry(5L, 42L).containsEntry(6L, 1L);
        assertThat(slotRows()).isZero();
    }

    @Test
    void release_ofACopyModeType_failingBetweenItsChunksUnderWriters_losesNothing_andReleasingAgainFinishes()
            throws Exception {
        ownerTable("BIGINT", id -> 0);
        SlottedCounters counters = migrated(builder());
        counters.owners().adopt(TYPE, ownerColumn(), OwnerMode.COPY);
        List<Increment> fill = new ArrayList<>();
        for (long id = 0; id < OWNERS; id++) {
            fill.add(new Increment(TYPE, id, id + 1));
        }
        counters.addAll(fill);
        Map<Long, Long> filled = new HashMap<>();
        fill.forEach(one -> filled.put(one.recordId(), one.delta()));
        // A real failure partway: the owner rows past the first chunk of 500 refuse a count for now.
        String late = owner() + "_late";
        db.execute("ALTER TABLE " + owner() + " ADD CONSTRAINT " + late + " CHECK (id < 500 OR downloads_count = 0)");
        long seed = 20261128L;
        System.out.println(db + ": Zipf seed " + seed);
        Adder add = (id, delta) -> counters.add(TYPE, id, delta);
        ExecutorService releaser = Executors.newSingleThreadExecutor();

        Future<Throwable> failed = releaser.submit(() -> {
            Thread.sleep(300);
            return catchThrowable(() -> counters.owners().release(TYPE));
        });
        Map<Long, Long> during = writeUntil(8, Duration.ofMillis(600), failed::isDone, seed, add);
        Throwable failure = failed.get(1, TimeUnit.MINUTES);
        List<Long> ids = LongStream.range(0, OWNERS).boxed().toList();
        Map<Long, Long> columnsAfterFailure = columns();
        Map<Long, Long> readAfterFailure = counters.getAll(TYPE, ids);
        boolean boundAfterFailure = counters.admin().types().get(0).mode().isPresent();
        db.execute("ALTER TABLE " + owner() + " DROP CONSTRAINT " + late);
        Future<RollUpReport> released = releaser.submit(() -> {
            Thread.sleep(300);
            return counters.owners().release(TYPE);
        });
        Map<Long, Long> after = writeUntil(8, Duration.ofMillis(600), released::isDone, seed + 1, add);
        RollUpReport report = released.get(1, TimeUnit.MINUTES);
        releaser.shutdown();

        assertThat(failure).isInstanceOf(SlottedException.class).hasMessageContaining("record_type " + TYPE);
        assertThat(boundAfterFailure).as("the type stays bound").isTrue();
        assertThat(readAfterFailure).as("every counter reads what was added").isEqualTo(allIds(plus(filled, during)));
        assertThat(columnsAfterFailure.values().stream().filter(n -> n != 0).count())
                .as("the first chunk was copied into the column").isEqualTo(500);
        assertThat(report.countersWithoutOwnerRow()).isZero();
        assertThat(counters.admin().types()).isEmpty();
        assertThat(plus(columns(), slotSums())).as("the column, and the slots of increments after the release")
                .isEqualTo(allIds(plus(plus(filled, during), after)));
    }

    /**
     * A process started after the binding, whose first call is a batch answering totals: the
     * total of a folded counter holds its column (the fault campaign found a new process's batch
     * answering the slots alone, its registry not read yet when it chose which totals to learn in
     * the transaction).
     */
    @Test
    void addAllAndGet_asANewProcesssFirstCall_countsTheOwnerColumnInAFoldedCountersTotal() {
        ownerTable("BIGINT", id -> 100);
        SlottedCounters binder = migrated(builder());
        adoptFolded(binder);
        binder.add(TYPE, 4L, 5);
        binder.owners().rollUpNow();

        SlottedCounters started = counters(SlottedCounters.builder(db.dataSource()).table(table));
        List<Long> totals = started.addAllAndGet(List.of(new Increment(TYPE, 4L, 3), new Increment(TYPE, 5L, 2)));

        assertThat(columns()).as("rolled up into the column").containsEntry(4L, 105L);
        assertThat(totals).isEqualTo(List.of(108L, 102L));
    }

    @Test
    void rollUp_counterWithoutOwnerRow_staysInTheSlotsAndReadsExact() {
        ownerTable("BIGINT", id -> 0);
        SlottedCounters counters = migrated(builder());
        adoptFolded(counters);
        counters.add(TYPE, 1L, 3);
        counters.add(TYPE, 5_000L, 7);

        RollUpReport report = counters.owners().rollUpNow();

        assertThat(report.countersRolledUp()).isEqualTo(1);
        assertThat(report.countersWithoutOwnerRow()).isEqualTo(1);
        assertThat(counters.get(TYPE, 5_000L)).isEqualTo(7);
        assertThat(counters.get(TYPE, 1L)).isEqualTo(3);
    }

    @Test
    void rollUp_seedTable_foldsIntoTheOwnerColumn() {
        db.execute(db.seedTableDdl(table));
        ownerTable("BIGINT", id -> 100);
        SlottedCounters counters = migrated(builder());
        adoptFolded(counters);
        for (int i = 0; i < 10; i++) {
            counters.increment(TYPE, 456L % OWNERS);
        }
        counters.owners().rollUpNow();
        assertThat(columns()).containsEntry(456L, 110L);
        assertThat(counters.get(TYPE, 456L)).isEqualTo(110);
        assertThat(nonZeroSlotRows()).isZero();
    }

    // ---------------------------------------------------------------- bad input

    @Test
    void adopt_badOwners_areRefusedWithTheReasonAndChangeNothing() {
        ownerTable("BIGINT", id -> 0);
        db.execute("CREATE TABLE " + table + "_events (id BIGINT, repo_id BIGINT, label VARCHAR(10))");
        SlottedCounters counters = migrated(builder());

        assertThatThrownBy(() -> counters.owners().adopt(TYPE, OwnerColumn.parse(table + "_nope.id.n"), OwnerMode.FOLD))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("does not exist");
        assertThatThrownBy(() -> counters.owners().adopt(TYPE, OwnerColumn.parse(owner() + ".id.nope"), OwnerMode.FOLD))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no count column 'nope'");
        assertThatThrownBy(() -> counters.owners().adopt(TYPE, OwnerColumn.parse(owner() + ".id.name"), OwnerMode.FOLD))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not an integer type");
        assertThatThrownBy(() -> counters.owners().adopt(TYPE, OwnerColumn.parse(table + "_events.repo_id.id"),
                OwnerMode.FOLD)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not unique");
        assertThatThrownBy(() -> OwnerColumn.parse("repositories.downloads_count"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("TABLE.KEY.COLUMN");
        assertThatThrownBy(() -> counters.owners().release(TYPE)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not bound");

        counters.add(TYPE, 1L, 5);
        assertThat(counters.owners().rollUpNow()).isEqualTo(RollUpReport.NONE);
        assertThat(columns()).containsEntry(1L, 0L);
        assertThat(counters.get(TYPE, 1L)).isEqualTo(5);
    }

    @Test
    void adopt_twice_isRefusedAndKeepsTheFirstBinding() {
        ownerTable("BIGINT", id -> 0);
        SlottedCounters counters = migrated(builder());
        adoptFolded(counters);

        assertThatThrownBy(() -> counters.owners().adopt(TYPE, ownerColumn(), OwnerMode.COPY))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("already bound to " + ownerColumn() + " in fold mode");
        counters.add(TYPE, 2L, 3);
        counters.owners().rollUpNow();
        assertThat(columns()).containsEntry(2L, 3L);
    }

    @Test
    void adopt_columnsTheModeWouldCountTwiceOrLose_areRefused() {
        ownerTable("BIGINT", id -> id == 1 ? 5 : 0);
        SlottedCounters counters = migrated(builder());
        counters.add(TYPE, 1L, 5);

        assertThatThrownBy(() -> counters.owners().adopt(TYPE, ownerColumn(), OwnerMode.FOLD))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("count them twice");
        counters.add(TYPE, 1L, 1);
        assertThatThrownBy(() -> counters.owners().adopt(TYPE, ownerColumn(), OwnerMode.COPY))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lose it");
        assertThat(counters.get(TYPE, 1L)).as("still unbound: slots only").isEqualTo(6);
        assertThat(columns()).containsEntry(1L, 5L);
    }

    @Test
    void rollUp_intColumnThatWouldOverflow_isRefusedForThatCounterAlone() {
        ownerTable("INT", id -> id == 7 ? Integer.MAX_VALUE - 5 : 0);
        SlottedCounters counters = migrated(builder());
        AdoptionReport report = adoptFolded(counters);
        counters.add(TYPE, 7L, 10);
        counters.add(TYPE, 8L, 10);

        RollUpReport rolled = counters.owners().rollUpNow();

        assertThat(report.limit()).isEqualTo(Integer.MAX_VALUE);
        assertThat(report.headroom()).isEqualTo(5);
        assertThat(report.warnings()).anySatisfy(w -> assertThat(w).contains("BIGINT"));
        assertThat(rolled.countersRolledUp()).isEqualTo(1);
        assertThat(rolled.refused()).singleElement().asString()
                .contains("record_id=7").contains("would not fit");
        assertThat(columns()).containsEntry(7L, (long) Integer.MAX_VALUE - 5).containsEntry(8L, 10L);
        assertThat(counters.get(TYPE, 7L)).isEqualTo((long) Integer.MAX_VALUE + 5);
    }

    // ---------------------------------------------------------------- set, recount, shrink

    @Test
    void set_foldedType_while32WritersIncrementAndRollUpsRun_isLinearizable() throws Exception {
        ownerTable("BIGINT", id -> 0);
        SlottedCounters counters = migrated(builder().rollUpEvery(Duration.ofMillis(100)));
        adoptFolded(counters);
        checkSetIsLinearizable(counters, 1L);
    }

    @Test
    void set_unboundType_while32WritersIncrement_isLinearizable() throws Exception {
        SlottedCounters counters = migrated(builder());
        checkSetIsLinearizable(counters, 1L);
    }

    /**
     * Sets racing each other on one counter end at one of the values set, never at a sum: the
     * second set must replace the rows the first one wrote, though they did not exist when it
     * began (PostgreSQL's locking read skips rows committed after its statement began).
     */
    @Test
    void set_eightSettersAtOnce_theCounterEndsAtOneOfTheirValues() throws Exception {
        SlottedCounters counters = migrated(builder());
        int setters = 8;
        java.util.concurrent.CyclicBarrier together = new java.util.concurrent.CyclicBarrier(setters);
        for (int round = 0; round < 20; round++) {
            long base = 1_000_000L * (round + 1);
            runConcurrently(setters, t -> {
                together.await(1, TimeUnit.MINUTES);
                counters.admin().set(TYPE, 1L, base + 1_000L * (t + 1));
            });
            long now = counters.get(TYPE, 1L);
            assertThat(LongStream.rangeClosed(1, setters).map(t -> base + 1_000L * t))
                    .as("round %d: the count %d is one of the values set", round, now).contains(now);
        }
    }

    /**
     * Writers time every increment; the set is timed too. Increments that ended before the set
     * began are replaced; those that began after it ended count on top; those overlapping it may
     * go either way, and nothing else may happen.
     */
    private void checkSetIsLinearizable(SlottedCounters counters, long id) throws Exception {
        long value = 1_000_000;
        AtomicLong setStart = new AtomicLong(Long.MAX_VALUE);
        AtomicLong setEnd = new AtomicLong(Long.MAX_VALUE);
        List<long[]> timings = java.util.Collections.synchronizedList(new ArrayList<>());
        ExecutorService setter = Executors.newSingleThreadExecutor();
        Future<?> set = setter.submit(() -> {
            Thread.sleep(800);
            setStart.set(System.nanoTime());
            counters.admin().set(TYPE, id, value);
            setEnd.set(System.nanoTime());
            return null;
        });
        long until = System.nanoTime() + Duration.ofSeconds(2).toNanos();
        runConcurrently(32, t -> {
            while (System.nanoTime() < until) {
                long start = System.nanoTime();
                counters.add(TYPE, id, 1);
                timings.add(new long[] {start, System.nanoTime()});
            }
        });
        set.get(1, TimeUnit.MINUTES);
        setter.shutdown();

        long after = timings.stream().filter(t -> t[0] > setEnd.get()).count();
        long overlapping = timings.stream().filter(t -> t[1] >= setStart.get() && t[0] <= setEnd.get())
                .count();
        assertThat(after).as("increments after the set").isPositive();
        assertThat(counters.get(TYPE, id)).isBetween(value + after, value + after + overlapping);
    }

    @Test
    void recount_fixWhile32WritersCountEventsInTheirTransactions_endsExact() throws Exception {
        db.execute("CREATE TABLE " + table + "_events (repo_id BIGINT NOT NULL)");
        SlottedCounters counters = migrated(builder());
        String source = "SELECT repo_id, COUNT(*) FROM " + table + "_events GROUP BY repo_id";
        counters.add(TYPE, 3L, 17);                       // counted without an event
        counters.add(TYPE, OWNERS + 5L, 2);               // an id the source does not know
        Adder event = (id, delta) -> {
            try (Connection connection = db.dataSource().getConnection()) {
                connection.setAutoCommit(false);
                try (PreparedStatement insert = connection.prepareStatement(
                        "INSERT INTO " + table + "_events (repo_id) VALUES (?)")) {
                    insert.setLong(1, id);
                    insert.executeUpdate();
                }
                counters.add(connection, TYPE, id, 1);
                connection.commit();
            }
        };
        writeFor(8, Duration.ofMillis(300), 5L, event);
        db.execute("INSERT INTO " + table + "_events (repo_id) VALUES (9)"); // an event never counted

        RecountReport found = counters.admin().recount(TYPE, source, false);
        ExecutorService fixer = Executors.newSingleThreadExecutor();
        Future<RecountReport> fixed = fixer.submit(() -> counters.admin().recount(TYPE, source, true));
        writeFor(32, Duration.ofSeconds(3), 6L, event);
        RecountReport repair = fixed.get(1, TimeUnit.MINUTES);
        fixer.shutdown();

        assertThat(found.differing()).isEqualTo(3);
        assertThat(found.fixed()).isZero();
        assertThat(found.largest()).first().satisfies(d -> {
            assertThat(d.recordId()).isEqualTo(3L);
            assertThat(d.difference()).isEqualTo(-17);
        });
        assertThat(repair.fixed()).isEqualTo(3);
        assertThat(repair.unsettled()).isZero();
        RecountReport after = counters.admin().recount(TYPE, source, false);
        assertThat(after.differing()).isZero();
        assertThat(after.checked()).isGreaterThan(3);
    }

    @Test
    void recount_badSourceQuery_saysWhatIsWrongAndChangesNothing() {
        SlottedCounters counters = migrated(builder());
        counters.add(TYPE, 1L, 4);

        assertThatThrownBy(() -> counters.admin().recount(TYPE, "SELECT 1", true))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("two columns");
        assertThatThrownBy(() -> counters.admin().recount(TYPE, "SELECT nope FROM nowhere_at_all", true))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("source query failed");
        assertThatThrownBy(() -> counters.admin().recount(TYPE, "SELECT 1, 2 UNION ALL SELECT 1, 3", true))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("more than once");
        assertThat(counters.get(TYPE, 1L)).isEqualTo(4);
    }

    @Test
    void shrink_while32WritersIncrement_movesEveryRowAndLosesNothing() throws Exception {
        SlottedCounters counters = migrated(builder().slots(64));
        Map<Long, Long> early = writeFor(32, Duration.ofMillis(500), 11L,
                (id, delta) -> counters.add(TYPE, id, delta));
        ExecutorService shrinker = Executors.newSingleThreadExecutor();
        Future<Long> shrink = shrinker.submit(() -> counters.admin().shrink(TYPE, 4));
        Map<Long, Long> during = writeFor(32, Duration.ofSeconds(2), 12L,
                (id, delta) -> counters.add(TYPE, id, delta));
        long moved = shrink.get(2, TimeUnit.MINUTES);
        shrinker.shutdown();
        Map<Long, Long> late = writeFor(8, Duration.ofMillis(300), 13L,
                (id, delta) -> counters.add(TYPE, id, delta));

        assertThat(moved).isPositive();
        assertThat(longPairs("SELECT 0, COUNT(*) FROM " + table + " WHERE record_type = " + TYPE
                + " AND slot >= 4").get(0L))
                .as("rows beyond the new slot count").isZero();
        Map<Long, Long> expected = plus(plus(early, during), late);
        assertThat(counters.getAll(TYPE, new ArrayList<>(expected.keySet()))).isEqualTo(expected);
        assertThatThrownBy(() -> counters.admin().shrink(TYPE, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("slots must be between 1 and 1024, but was 0");
    }

    // ---------------------------------------------------------------- the range of a count

    @Test
    void adopt_foldModeColumnPast2To62_isRefused_andARollUpStopsThere() {
        long columnMax = (1L << 62) - 1;
        ownerTable("BIGINT", id -> id == 7 ? columnMax + 1 : 0);
        SlottedCounters counters = migrated(builder());

        assertThatThrownBy(() -> counters.owners().adopt(TYPE, ownerColumn(), OwnerMode.FOLD))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("as a fold-mode base").hasMessageContaining("nothing was changed");
        db.execute("UPDATE " + owner() + " SET downloads_count = " + (columnMax - 5) + " WHERE id = 7");
        AdoptionReport report = adoptFolded(counters);
        counters.add(TYPE, 7L, 10);
        counters.add(TYPE, 8L, 10);
        RollUpReport rolled = counters.owners().rollUpNow();

        assertThat(report.limit()).isEqualTo(columnMax);
        assertThat(rolled.refused()).singleElement().asString().contains("record_id=7");
        assertThat(columns()).containsEntry(7L, columnMax - 5).containsEntry(8L, 10L);
        assertThat(counters.get(TYPE, 7L)).as("column and slots, within 64 bits").isEqualTo(columnMax + 5);
    }

    @Test
    void set_pastOneSlotRow_isSpreadOverSlots_andPastTheSlotsIsRefused() {
        SlottedCounters counters = migrated(builder().slots(4));
        long max = SlottedCounters.MAX_DELTA;

        counters.admin().set(TYPE, 1L, 3 * max + 5);
        long rows = slotRows();
        assertThatThrownBy(() -> counters.admin().set(TYPE, 1L, 4 * max + 1))
                .isInstanceOf(CounterOverflowException.class)
                .hasMessageContaining("cannot hold " + (4 * max + 1) + " in 4 slots")
                .hasMessageContaining("nothing was changed");
        counters.admin().set(TYPE, 2L, -4 * max);

        assertThat(rows).isEqualTo(4);
        assertThat(counters.getAll(TYPE, List.of(1L, 2L))).containsExactly(
                Map.entry(1L, 3 * max + 5), Map.entry(2L, -4 * max));
        // A slot row's lowest value is -2^52, one below -MAX_DELTA: -2 does not fit any of them.
        assertThatThrownBy(() -> counters.add(TYPE, 2L, -2)).isInstanceOf(CounterOverflowException.class);
        counters.add(TYPE, 1L, -5);
        assertThat(counters.get(TYPE, 1L)).isEqualTo(3 * max);
    }

    @Test
    void shrink_ontoFewerSlotsThanTheTotalNeeds_isRefused_andTheCountStaysExact() {
        SlottedCounters counters = migrated(builder().slots(4));
        long max = SlottedCounters.MAX_DELTA;
        counters.admin().set(TYPE, 1L, 3 * max);
        counters.add(TYPE, 2L, 5);

        assertThatThrownBy(() -> counters.admin().shrink(TYPE, 2))
                .isInstanceOf(CounterOverflowException.class).hasMessageContaining("2 slots");

        assertThat(counters.getAll(TYPE, List.of(1L, 2L))).containsExactly(
                Map.entry(1L, 3 * max), Map.entry(2L, 5L));
        counters.admin().shrink(TYPE, 3);
        assertThat(counters.getAll(TYPE, List.of(1L, 2L))).containsExactly(
                Map.entry(1L, 3 * max), Map.entry(2L, 5L));
    }

    // ---------------------------------------------------------------- the registry, read

    @Test
    void types_showEachRegisteredTypesBindingSlotsAndLimits_asEveryProcessSeesThem() {
        ownerTable("BIGINT", id -> 0);
        SlottedCounters counters = migrated(builder().slots(8));
        assertThat(counters.admin().types()).as("a registry with no rows").isEmpty();
        long before = System.currentTimeMillis();
        adoptFolded(counters);
        counters.admin().shrink(TYPE + 1, 2);
        SlottedCounters other = migrated(builder().limits(TYPE + 2, Limits.atLeast(0)));
        other.add(TYPE + 2, 1L, 5);
        counters.owners().rollUpNow();

        List<RegisteredType> types = other.admin().types();

        assertThat(types).extracting(RegisteredType::recordType).containsExactly(TYPE, TYPE + 1, TYPE + 2);
        RegisteredType bound = types.get(0);
        assertThat(bound.owner()).contains(ownerColumn());
        assertThat(bound.mode()).contains(OwnerMode.FOLD);
        assertThat(bound.rolledUpThrough()).hasValueSatisfying(
                at -> assertThat(at.toEpochMilli()).isGreaterThanOrEqualTo(before));
        assertThat(bound.slots()).as("no count recorded: the reading process's own").isEqualTo(
                other.config().slots(TYPE));
        assertThat(types.get(1).slots()).as("shrunk").isEqualTo(2);
        assertThat(types.get(1).owner()).isEmpty();
        assertThat(types.get(1).rolledUpThrough()).isEmpty();
        assertThat(types.get(2).limits()).isEqualTo(Limits.atLeast(0));
        assertThat(types.get(2).limits()).as("recorded, not only this process's").isEqualTo(
                counters.admin().types().get(2).limits());
    }
}
