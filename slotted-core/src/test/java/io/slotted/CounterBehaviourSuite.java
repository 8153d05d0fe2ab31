package io.slotted;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.slotted.db.TestDatabase;
import io.slotted.db.TestDatabases;
import java.math.BigInteger;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.OptionalLong;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What every database must do in the write modes that acknowledge an increment only once it is
 * durable ({@code DIRECT} and {@code GROUPED}), run against each real server, once per mode. Each
 * test works in a table of its own, dropped afterwards.
 */
@ParameterizedClass(name = "[{arguments}]")
@MethodSource("databasesInDurableModes")
class CounterBehaviourSuite extends CounterTableTest {
    private final WriteMode mode;

    CounterBehaviourSuite(TestDatabase db, WriteMode mode) {
        super(db);
        this.mode = mode;
    }

    /**
     * Every database, and, to prove that {@code mvn verify} works on a machine with only a JDK and
     * Maven, the MariaDB and PostgreSQL started from Maven Central whatever the environment names
     * (where it names none, these are the servers of the list already), each in both modes.
     */
    static Stream<Arguments> databasesInDurableModes() {
        List<TestDatabase> databases = Stream.concat(TestDatabases.all().stream(), TestDatabases.embedded().stream())
                .distinct().toList();
        return TestDatabases.inModes(databases, WriteMode.DIRECT, WriteMode.GROUPED);
    }

    private SlottedCountersBuilder builder() {
        return SlottedCounters.builder(db.dataSource()).table(table).writeMode(mode);
    }

    // ---------------------------------------------------------------- exactness

    @Test
    void add_64ThreadsWithMixedDeltas_totalsAreExact() throws Exception {
        SlottedCounters counters = migrated(builder());
        MixedDeltas plan = MixedDeltas.of(20261122L, 64, 60);
        System.out.println(db + " " + mode + ": mixed-delta seed " + plan.seed());

        runConcurrently(64, t -> plan.addAll(counters, t));

        assertThat(counters.getAll(5, List.of(0L, 1L, 2L))).isEqualTo(plan.expected());
        assertThat(counters.stats().incrementsApplied()).isEqualTo(64L * 60);
    }

    /**
     * Virtual-thread callers: exact, and none of them ever pins its carrier thread while it waits
     * for a commit, a connection or the queue (JFR records every pinning, however short).
     */
    @Test
    @Tag(VirtualThreads.TAG)
    void add_64VirtualThreadsWithMixedDeltas_totalsAreExactAndNoCarrierIsPinned() throws Exception {
        SlottedCounters counters = migrated(builder());
        MixedDeltas plan = MixedDeltas.of(20261123L, 64, 60);
        System.out.println(db + " " + mode + ": virtual threads, mixed-delta seed " + plan.seed());

        // The JDK's first socket read on a virtual thread sets up its poller, during which it pins:
        // that is the JDK's one-off, not a wait of the library's, so it happens before recording.
        runOnVirtualThreads(4, t -> counters.get(5, 0L));
        try (VirtualThreads.PinningRecorder pinning = new VirtualThreads.PinningRecorder()) {
            runOnVirtualThreads(64, t -> plan.addAll(counters, t));
            assertThat(pinning.pinned()).as("carrier threads pinned by waiting virtual threads").isEmpty();
        }

        assertThat(counters.getAll(5, List.of(0L, 1L, 2L))).isEqualTo(plan.expected());
        assertThat(counters.stats().incrementsApplied()).isEqualTo(64L * 60);
    }

    /** Each thread's increments of counters 0 to 2 of type 5, deltas from -100 to 100, and their sums. */
    private record MixedDeltas(long seed, List<long[]> plans, Map<Long, Long> expected) {
        static MixedDeltas of(long seed, int threads, int perThread) {
            Map<Long, Long> expected = new HashMap<>();
            List<long[]> plans = new ArrayList<>();
            Random random = new Random(seed);
            for (int t = 0; t < threads; t++) {
                long[] plan = new long[perThread * 2];
                for (int i = 0; i < perThread; i++) {
                    long id = random.nextInt(3);
                    long delta = random.nextInt(201) - 100;
                    delta = delta == 0 ? 7 : delta;
                    plan[2 * i] = id;
                    plan[2 * i + 1] = delta;
                    expected.merge(id, delta, Long::sum);
                }
                plans.add(plan);
            }
            return new MixedDeltas(seed, plans, expected);
        }

        /** Thread {@code t}'s increments, every other one through {@code addAsync}. */
        void addAll(SlottedCounters counters, int t) {
            long[] plan = plans.get(t);
            for (int i = 0; i < plan.length; i += 2) {
                if (i % 4 == 0) {
                    counters.add(5, plan[i], plan[i + 1]);
                } else {
                    counters.addAsync(5, plan[i], plan[i + 1]).join();
                }
            }
        }
    }

    @Test
    void increment_addsOneEachTime() {
        SlottedCounters counters = migrated(builder());
        for (int i = 0; i < 25; i++) {
            counters.increment(123, 456L);
        }
        assertThat(counters.get(123, 456L)).isEqualTo(25);
    }

    @Test
    void get_counterNeverIncremented_readsZero() {
        SlottedCounters counters = migrated(builder());
        assertThat(counters.get(1, 42L)).isZero();
    }

    @Test
    void getAll_presentAndAbsentIds_absentOnesReadZeroInTheOrderGiven() {
        SlottedCounters counters = migrated(builder());
        counters.add(7, 1L, 10);
        counters.add(7, 3L, 7);
        counters.add(7, 3L, -2);

        Map<Long, Long> counts = counters.getAll(7, List.of(3L, 2L, 1L, 3L));

        assertThat(counts).containsExactly(Map.entry(3L, 5L), Map.entry(2L, 0L), Map.entry(1L, 10L));
    }

    @Test
    void getAll_moreIdsThanOneQueryTakes_readsEveryId() {
        SlottedCounters counters = migrated(builder());
        counters.add(7, 1L, 1);
        counters.add(7, 1_199L, 2);
        List<Long> ids = LongStream.range(0, 1_200).boxed().toList();

        Map<Long, Long> counts = counters.getAll(7, ids);

        assertThat(counts).hasSize(1_200).containsEntry(1L, 1L).containsEntry(1_199L, 2L);
        assertThat(counts.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(3);
    }

    @Test
    void countersOfDifferentTypesAndIds_areIndependent() {
        SlottedCounters counters = migrated(builder());
        counters.add(1, 1L, 1);
        counters.add(1, 2L, 20);
        counters.add(2, 1L, 300);
        counters.add(2, Long.MAX_VALUE, 4_000);
        counters.add(Integer.MAX_VALUE, Long.MIN_VALUE, -5);

        assertThat(counters.get(1, 1L)).isEqualTo(1);
        assertThat(counters.get(1, 2L)).isEqualTo(20);
        assertThat(counters.get(2, 1L)).isEqualTo(300);
        assertThat(counters.get(2, Long.MAX_VALUE)).isEqualTo(4_000);
        assertThat(counters.get(Integer.MAX_VALUE, Long.MIN_VALUE)).isEqualTo(-5);
        assertThat(counters.get(2, 2L)).isZero();
    }

    // ---------------------------------------------------------------- idempotency keys

    @Test
    void add_withIdempotencyKey_appliesOnceAndReportsTheReplay() {
        SlottedCounters counters = migrated(builder());

        assertThat(counters.add(1, 1L, 5, "request-7f3a")).isTrue();
        assertThat(counters.add(1, 1L, 5, "request-7f3a")).isFalse();
        assertThat(counters.add(1, 1L, 5, "REQUEST-7F3A")).as("keys are case-sensitive").isTrue();

        assertThat(counters.get(1, 1L)).isEqualTo(10);
    }

    @Test
    void add_idempotencyKeysDifferingOnlyInTrailingSpaces_areDifferentKeys() {
        SlottedCounters counters = migrated(builder());

        assertThat(counters.add(1, 1L, 5, "k")).isTrue();
        assertThat(counters.add(1, 1L, 5, "k ")).as("one trailing space: another key").isTrue();
        assertThat(counters.add(1, 1L, 5, "k  ")).as("two trailing spaces: another key").isTrue();
        assertThat(counters.add(1, 1L, 5, "k ")).as("the same key again").isFalse();

        assertThat(counters.get(1, 1L)).isEqualTo(15);
    }

    @Test
    void add_idempotencyKeyReusedForAnotherIncrement_isRefusedAndChangesNothing() {
        SlottedCounters counters = migrated(builder());
        counters.add(1, 1L, 5, "k");

        assertThatThrownBy(() -> counters.add(1, 1L, 6, "k"))
                .isInstanceOf(IdempotencyConflictException.class)
                .hasMessageContaining("'k' was first used to add 5 to counter (record_type=1, record_id=1)")
                .hasMessageContaining("nothing was applied");
        assertThatThrownBy(() -> counters.add(1, 2L, 5, "k")).isInstanceOf(IdempotencyConflictException.class);
        assertThat(counters.get(1, 1L)).isEqualTo(5);
        assertThat(counters.get(1, 2L)).isZero();
    }

    @Test
    void addAsync_withIdempotencyKey_appliesOnce_reportsTheReplay_andRefusesAnotherIncrement() {
        SlottedCounters counters = migrated(builder());

        assertThat(counters.addAsync(1, 1L, 5, "k").join()).isTrue();
        assertThat(counters.addAsync(1, 1L, 5, "k").join()).as("a replay").isFalse();
        assertThat(counters.add(1, 1L, 5, "k")).as("the same key, blocking").isFalse();
        assertThatThrownBy(() -> counters.addAsync(1, 1L, 6, "k").join())
                .hasCauseInstanceOf(IdempotencyConflictException.class);
        assertThatThrownBy(() -> counters.addAsync(1, 1L, 1, "tab\there"))
                .isInstanceOf(IllegalArgumentException.class);

        assertThat(counters.get(1, 1L)).isEqualTo(5);
    }

    @Test
    void add_malformedIdempotencyKey_isRejectedNamingTheRule() {
        SlottedCounters counters = migrated(builder());

        for (String bad : List.of("", "x".repeat(129), "tab\there", "caf\u00e9")) {
            assertThatThrownBy(() -> counters.add(1, 1L, 1, bad))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("idempotencyKey must be 1 to 128 printable ASCII characters");
        }
        assertThat(counters.get(1, 1L)).isZero();
    }

    @Test
    void add_64ThreadsRetryingEveryKeyedIncrement_eachIsAppliedExactlyOnce() throws Exception {
        SlottedCounters counters = migrated(builder());
        AtomicLong applied = new AtomicLong();
        AtomicLong expected = new AtomicLong();
        // Thread t and thread t ^ 1 send the same 40 keyed increments: every one is sent twice,
        // often at the same moment, as a client retrying a timed-out request would; one of them
        // through addAsync.
        runConcurrently(64, t -> {
            int pair = t / 2;
            for (int i = 0; i < 40; i++) {
                long delta = pair * 100L + i + 1;
                String key = "pair-" + pair + "-" + i;
                boolean appliedNow = t % 2 == 0 ? counters.add(8, pair % 4, delta, key)
                        : counters.addAsync(8, pair % 4, delta, key).get(1, TimeUnit.MINUTES);
                if (appliedNow) {
                    applied.incrementAndGet();
                    expected.addAndGet(delta);
                }
            }
        });

        assertThat(applied.get()).isEqualTo(32 * 40);
        long total = counters.getAll(8, List.of(0L, 1L, 2L, 3L)).values().stream()
                .mapToLong(Long::longValue).sum();
        assertThat(total).isEqualTo(expected.get());
    }

    @Test
    void idempotencyKey_olderThanTheRetention_isForgottenAndAppliesAgain() {
        MutableClock clock = new MutableClock();
        SlottedCounters counters = migrated(builder().clock(clock)
                .idempotencyRetention(Duration.ofHours(24)));
        assertThat(counters.add(1, 1L, 5, "old")).isTrue();
        clock.advance(Duration.ofHours(23));
        assertThat(counters.add(1, 1L, 5, "old")).as("still remembered").isFalse();

        clock.advance(Duration.ofHours(2));

        assertThat(counters.add(1, 1L, 5, "old")).as("pruned, so new again").isTrue();
        assertThat(counters.get(1, 1L)).isEqualTo(10);
    }

    // ---------------------------------------------------------------- batches

    @Test
    void addAll_64ThreadsAddingBatches_totalsAreExact() throws Exception {
        SlottedCounters counters = migrated(builder());
        runConcurrently(64, t -> {
            for (int i = 0; i < 10; i++) {
                counters.addAll(List.of(new Increment(6, 1L, 1), new Increment(6, 2L, t + 1),
                        new Increment(6, 1L, -3), new Increment(7, t, 2)));
            }
        });

        assertThat(counters.get(6, 1L)).isEqualTo(64 * 10 * -2);
        assertThat(counters.get(6, 2L)).isEqualTo(10L * (64 * 65 / 2));
        assertThat(counters.get(7, 63L)).isEqualTo(20);
    }

    @Test
    void addAllAndGet_answersEachIncrementsTotalAsIfTheBatchRanAlone() {
        SlottedCounters counters = migrated(builder());
        counters.add(8, 1L, 100);

        List<Long> totals = counters.addAllAndGet(List.of(new Increment(8, 1L, 1), new Increment(8, 2L, 5),
                new Increment(8, 1L, 1), new Increment(8, 1L, -10), new Increment(8, 2L, 5)));

        assertThat(totals).containsExactly(101L, 5L, 102L, 92L, 10L);
        assertThat(counters.getAll(8, List.of(1L, 2L))).containsExactly(Map.entry(1L, 92L), Map.entry(2L, 10L));
        assertThat(counters.addAllAndGet(List.of())).isEmpty();
    }

    /**
     * 64 threads adding batches with totals: the sums are exact, and every answer includes the
     * caller's own increments and every batch acknowledged before it began.
     */
    @Test
    void addAllAndGet_64ThreadsAddingBatches_totalsAreExactAndAnswersIncludeEveryEarlierBatch() throws Exception {
        SlottedCounters counters = migrated(builder());
        AtomicLong acknowledged = new AtomicLong();
        runConcurrently(64, t -> {
            for (int i = 0; i < 10; i++) {
                long before = acknowledged.get();
                List<Long> totals = counters.addAllAndGet(List.of(new Increment(9, 1L, 2), new Increment(9, 2L, t + 1),
                        new Increment(9, 1L, 1)));
                acknowledged.addAndGet(3);
                assertThat(totals.get(2)).isGreaterThanOrEqualTo(before + 3).isEqualTo(totals.get(0) + 1);
            }
        });

        assertThat(counters.get(9, 1L)).isEqualTo(64 * 10 * 3);
        assertThat(counters.get(9, 2L)).isEqualTo(10L * (64 * 65 / 2));
    }

    @Test
    void addAllAndGet_oneCounterWouldLeaveItsRange_nothingOfTheBatchIsApplied() {
        SlottedCounters counters = migrated(builder().slots(1));
        counters.add(1, 1L, SlottedCounters.MAX_DELTA);

        assertThatThrownBy(() -> counters.addAllAndGet(List.of(new Increment(1, 2L, 5), new Increment(1, 1L, 1))))
                .isInstanceOf(CounterOverflowException.class);

        assertThat(counters.getAll(1, List.of(1L, 2L))).containsExactly(
                Map.entry(1L, SlottedCounters.MAX_DELTA), Map.entry(2L, 0L));
    }

    // ---------------------------------------------------------------- totals after the commit

    /**
     * 64 writers, half synchronous and half asynchronous: each answer includes the caller's own
     * increment and every increment acknowledged to anyone before the call began, and none is
     * past the final total. (Two flushes committing at once may each miss the other, so even the
     * last answers may be below the final total.)
     */
    @Test
    void addAndGet_64Writers_eachAnswerIncludesItsOwnAndEveryEarlierAcknowledgedIncrement() throws Exception {
        SlottedCounters counters = migrated(builder());
        AtomicLong acknowledged = new AtomicLong();
        List<long[]> answers = java.util.Collections.synchronizedList(new ArrayList<>());

        runConcurrently(64, t -> {
            for (int i = 0; i < 40; i++) {
                long before = acknowledged.get();
                long total = t % 2 == 0 ? counters.addAndGet(1, 1L, 1)
                        : counters.addAndGetAsync(1, 1L, 1).get(1, TimeUnit.MINUTES);
                acknowledged.incrementAndGet();
                answers.add(new long[] {before, total});
            }
        });

        long finalTotal = counters.get(1, 1L);
        assertThat(finalTotal).isEqualTo(64 * 40);
        assertThat(answers).hasSize(64 * 40).allSatisfy(answer -> assertThat(answer[1])
                .as("own increment and every earlier acknowledged one").isGreaterThanOrEqualTo(answer[0] + 1)
                .isLessThanOrEqualTo(finalTotal));
    }

    @Test
    void addAndGet_aLoneWriter_answersRiseOneByOne_andSubtractionsAnswerToo() {
        SlottedCounters counters = migrated(builder());
        counters.add(1, 2L, 1000);

        for (long expected = 1; expected <= 100; expected++) {
            assertThat(counters.addAndGet(1, 1L, 1)).isEqualTo(expected);
        }
        assertThat(counters.addAndGet(1, 2L, -1)).isEqualTo(999);
        assertThat(counters.addAndGetAsync(1, 2L, -9).join()).isEqualTo(990);
        assertThatThrownBy(() -> counters.addAndGet(1, 1L, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> counters.addAndGet(1, 1L, SlottedCounters.MAX_DELTA + 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(counters.getAll(1, List.of(1L, 2L))).containsExactly(Map.entry(1L, 100L), Map.entry(2L, 990L));
    }

    @Test
    void addAndGet_pastTheSlotsRange_failsAndChangesNothing() {
        SlottedCounters counters = migrated(builder().slots(1));
        assertThat(counters.addAndGet(1, 1L, SlottedCounters.MAX_DELTA)).isEqualTo(SlottedCounters.MAX_DELTA);

        assertThatThrownBy(() -> counters.addAndGet(1, 1L, 1)).isInstanceOf(CounterOverflowException.class);
        assertThatThrownBy(() -> counters.addAndGetAsync(1, 1L, 1).join())
                .hasCauseInstanceOf(CounterOverflowException.class);

        assertThat(counters.addAndGet(1, 1L, -1)).isEqualTo(SlottedCounters.MAX_DELTA - 1);
    }

    @Test
    void addAll_oneCounterWouldLeaveItsRange_nothingOfTheBatchIsApplied() {
        SlottedCounters counters = migrated(builder().slots(1));
        counters.add(1, 1L, SlottedCounters.MAX_DELTA);

        assertThatThrownBy(() -> counters.addAll(List.of(new Increment(1, 2L, 5), new Increment(1, 1L, 1))))
                .isInstanceOf(CounterOverflowException.class);
        assertThatThrownBy(() -> counters.addAll(List.of(new Increment(1, 3L, SlottedCounters.MAX_DELTA),
                new Increment(1, 3L, 1)))).isInstanceOfSatisfying(CounterOverflowException.class,
                        e -> assertThat(e.total()).as("no total was read").isNull())
                .hasMessageContaining("nothing was applied");

        assertThat(counters.getAll(1, List.of(1L, 2L, 3L))).containsExactly(
                Map.entry(1L, SlottedCounters.MAX_DELTA), Map.entry(2L, 0L), Map.entry(3L, 0L));
    }

    @Test
    void addAll_withIdempotencyKey_appliesOnceAndRefusesAnotherBatchUnderTheSameKey() {
        SlottedCounters counters = migrated(builder());
        List<Increment> batch = List.of(new Increment(1, 1L, 2), new Increment(1, 2L, 3));

        assertThat(counters.addAll(batch, "batch-1")).isTrue();
        assertThat(counters.addAll(batch, "batch-1")).isFalse();
        assertThatThrownBy(() -> counters.addAll(List.of(new Increment(1, 1L, 2)), "batch-1"))
                .isInstanceOf(IdempotencyConflictException.class)
                .hasMessageContaining("add a batch of 2 increments");

        assertThat(counters.getAll(1, List.of(1L, 2L))).containsExactly(Map.entry(1L, 2L), Map.entry(2L, 3L));
    }

    @Test
    void increment_withDeltaZero_cannotBeMade() {
        assertThatThrownBy(() -> new Increment(1, 1L, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("delta must not be 0");
    }

    // ---------------------------------------------------------------- slots

    /** DIRECT picks a slot per increment, so its spread is measurable per increment. */
    @Test
    void direct_slotsStayInRangeAndAreSpreadEvenly() throws Exception {
        int slots = 8;
        int increments = 4_000;
        SlottedCounters counters = migrated(SlottedCounters.builder(db.dataSource()).table(table)
                .writeMode(WriteMode.DIRECT).slots(slots));
        runConcurrently(8, t -> {
            for (int i = 0; i < increments / 8; i++) {
                counters.increment(9, 9L);
            }
        });

        Map<Integer, Long> perSlot = slotCounts(9, 9L);
        assertThat(perSlot.keySet()).allSatisfy(slot -> assertThat(slot).isBetween(0, slots - 1));
        assertThat(perSlot.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(increments);
        // A fair share is 500 with a standard deviation of about 21: 350..650 is seven of them.
        assertThat(perSlot).hasSize(slots);
        assertThat(perSlot.values()).allSatisfy(n -> assertThat(n).isBetween(350L, 650L));
    }

    @Test
    void slots_stayInRangeInThisMode() throws Exception {
        SlottedCounters counters = migrated(builder().slots(5).slots(2, 300));
        runConcurrently(16, t -> {
            for (int i = 0; i < 50; i++) {
                counters.increment(1 + t % 2, 1L);
            }
        });
        assertThat(slotCounts(1, 1L).keySet()).allSatisfy(slot -> assertThat(slot).isBetween(0, 4));
        assertThat(slotCounts(2, 1L).keySet()).allSatisfy(slot -> assertThat(slot).isBetween(0, 299));
        assertThat(counters.get(1, 1L) + counters.get(2, 1L)).isEqualTo(16 * 50);
    }

    @Test
    void slotsForOneType_overrideTheDefault() {
        SlottedCounters counters = migrated(builder().slots(64).slots(3, 2));
        for (int i = 0; i < 200; i++) {
            counters.increment(3, 1L);
        }
        assertThat(slotCounts(3, 1L).keySet()).isSubsetOf(0, 1);
        assertThat(counters.get(3, 1L)).isEqualTo(200);
    }

    // ---------------------------------------------------------------- the caller's transaction

    @Test
    void addOnCallersConnection_commitsWithTheCallersTransaction() throws SQLException {
        SlottedCounters counters = migrated(builder());
        try (Connection connection = db.dataSource().getConnection()) {
            connection.setAutoCommit(false);
            counters.add(connection, 4, 4L, 3);
            assertThat(counters.get(4, 4L)).as("invisible before commit").isZero();
            connection.commit();
        }
        assertThat(counters.get(4, 4L)).isEqualTo(3);
    }

    @Test
    void addOnCallersConnection_rollsBackWithTheCallersTransaction() throws SQLException {
        SlottedCounters counters = migrated(builder());
        counters.add(4, 4L, 1);
        try (Connection connection = db.dataSource().getConnection()) {
            connection.setAutoCommit(false);
            counters.add(connection, 4, 4L, 100);
            connection.rollback();
        }
        assertThat(counters.get(4, 4L)).isEqualTo(1);
    }

    /**
     * 32 threads, each transaction incrementing one hot counter twice: the second increment goes
     * to the slot row the first already locked, so no two transactions wait on each other's rows
     * (with a random slot each time, about a fifth of them deadlocked on MariaDB), and the total
     * is exact.
     */
    @Test
    void addOnCallersConnection_sameCounterTwicePerTransaction_neverDeadlocks_exact() throws Exception {
        SlottedCounters counters = migrated(builder().slots(16));
        OptionalLong deadlocksBefore = db.deadlocksDetected();
        AtomicLong rolledBack = new AtomicLong();
        runConcurrently(32, thread -> {
            for (int i = 0; i < 50; i++) {
                try (Connection connection = db.dataSource().getConnection()) {
                    connection.setAutoCommit(false);
                    try {
                        counters.add(connection, 6, 1L, thread + 1);
                        counters.add(connection, 6, 1L, 1000);
                        connection.commit();
                    } catch (ContentionException e) {
                        connection.rollback();
                        rolledBack.incrementAndGet();
                    }
                }
            }
        });
        assertThat(rolledBack).as("transactions rolled back over contention").hasValue(0);
        long expected = 0;
        for (int thread = 0; thread < 32; thread++) {
            expected += 50L * (thread + 1 + 1000);
        }
        assertThat(counters.get(6, 1L)).isEqualTo(expected);
        if (deadlocksBefore.isPresent()) {
            assertThat(db.deadlocksDetected().getAsLong()).isEqualTo(deadlocksBefore.getAsLong());
        }
    }

    // ---------------------------------------------------------------- the seed's table

    @Test
    void seedTable_worksUnchangedAndMigrateWarnsWithoutAlteringIt() throws Exception {
        db.execute(db.seedTableDdl(table));
        SlottedCounters counters = counters(builder());

        MigrationReport report = counters.migrate();

        assertThat(report.created()).isFalse();
        assertThat(report.warnings()).anySatisfy(w -> assertThat(w).contains("auto-increment"));
        assertThat(report.warnings()).anySatisfy(w -> assertThat(w).contains("column count is"));
        assertThat(report.warnings()).anySatisfy(w -> assertThat(w).contains("column record_id is"));
        runConcurrently(16, t -> {
            for (int i = 0; i < 25; i++) {
                counters.add(123, 456L, t % 2 == 0 ? 2 : -1);
            }
        });
        assertThat(counters.get(123, 456L)).isEqualTo(8 * 25 * 2 - 8 * 25);
        assertThat(columnCount()).as("the user's table is not altered").isEqualTo(5);
    }

    /**
     * PostgreSQL's counter, ledger and bucket tables are made with room on each page for the next
     * version of a row; the seed's table, made by the application, is not altered, and the warning
     * gives the statement that sets what it lacks. Other databases have no such parameters.
     */
    @Test
    void migrate_givesTheTablesOfHotRowsRoomOnEachPage_andSaysHowToGiveItToTheApplicationsTable() throws Exception {
        boolean postgres = db.name().startsWith("PostgreSQL");
        counters(builder()).migrate();
        for (String made : List.of(table, table + "_ledger", table + "_buckets")) {
            if (postgres) {
                assertThat(storageParameters(made)).as(made).containsExactlyInAnyOrder("fillfactor=50",
                        "autovacuum_vacuum_scale_factor=0.02", "autovacuum_analyze_scale_factor=0.02");
            }
        }
        db.dropCounterTables(table);
        db.execute(db.seedTableDdl(table));

        MigrationReport report = counters(builder()).migrate();

        List<String> lacking = report.warnings().stream().filter(w -> w.contains("storage parameters")).toList();
        if (!postgres) {
            assertThat(lacking).isEmpty();
            return;
        }
        assertThat(storageParameters(table)).as("the application's table is not altered").isEmpty();
        assertThat(lacking).singleElement().asString().contains("ALTER TABLE " + table + " SET (fillfactor=50,"
                + " autovacuum_vacuum_scale_factor=0.02, autovacuum_analyze_scale_factor=0.02)");
        db.execute("ALTER TABLE " + table + " SET (fillfactor=80, autovacuum_vacuum_scale_factor=0.02,"
                + " autovacuum_analyze_scale_factor=0.02)");
        assertThat(counters(builder()).migrate().warnings()).as("a fillfactor the owner chose is kept")
                .noneMatch(w -> w.contains("storage parameters"));
    }

    private List<String> storageParameters(String name) throws SQLException {
        List<String> parameters = new ArrayList<>();
        try (Connection connection = db.dataSource().getConnection();
                PreparedStatement select = connection.prepareStatement(
                        "SELECT unnest(reloptions) FROM pg_class WHERE oid = to_regclass(?)")) {
            select.setString(1, name);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    parameters.add(rows.getString(1));
                }
            }
        }
        return parameters;
    }

    @Test
    void migrate_missingTable_createsItThenFindsItOnTheNextRun() {
        SlottedCounters counters = counters(builder());

        MigrationReport first = counters.migrate();
        MigrationReport second = counters.migrate();

        assertThat(first.created()).isTrue();
        assertThat(second.created()).isFalse();
        assertThat(second.warnings()).isEmpty();
        assertThat(second.describe()).contains(table);
    }

    // ---------------------------------------------------------------- errors

    @Test
    void add_deltaZero_isRejectedAndChangesNothing() {
        SlottedCounters counters = migrated(builder());
        counters.add(1, 1L, 5);

        assertThatThrownBy(() -> counters.add(1, 1L, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("delta must not be 0");
        assertThat(counters.get(1, 1L)).isEqualTo(5);
    }

    @Test
    void add_pastTheSlotsRange_isRejectedAndChangesNothing_andASubtractionComesBack() {
        SlottedCounters counters = migrated(builder().slots(1));
        counters.add(1, 1L, SlottedCounters.MAX_DELTA);
        counters.add(1, 2L, -SlottedCounters.MAX_DELTA);
        counters.add(1, 2L, -1); // a slot's lowest value is -2^52, one below -MAX_DELTA

        assertThatThrownBy(() -> counters.add(1, 1L, 1))
                .isInstanceOfSatisfying(CounterOverflowException.class,
                        e -> assertThat(e.total()).as("no total was read").isNull())
                .hasMessageContaining("record_id=1")
                .hasMessageContaining("nothing was changed")
                .hasMessageContaining("SQLState");
        assertThatThrownBy(() -> counters.add(1, 2L, -1)).isInstanceOf(CounterOverflowException.class);
        assertThat(counters.getAll(1, List.of(1L, 2L))).containsExactly(
                Map.entry(1L, SlottedCounters.MAX_DELTA), Map.entry(2L, -SlottedCounters.MAX_DELTA - 1));
        counters.add(1, 1L, -1);
        counters.add(1, 2L, 1);
        assertThat(counters.getAll(1, List.of(1L, 2L))).containsExactly(
                Map.entry(1L, SlottedCounters.MAX_DELTA - 1), Map.entry(2L, -SlottedCounters.MAX_DELTA));
    }

    @Test
    void add_deltaPastMaxDelta_isRefusedAsBadInput_andChangesNothing() {
        SlottedCounters counters = migrated(builder());

        for (long delta : new long[] {SlottedCounters.MAX_DELTA + 1, -SlottedCounters.MAX_DELTA - 1,
                Long.MAX_VALUE, Long.MIN_VALUE}) {
            assertThatThrownBy(() -> counters.add(1, 1L, delta)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("delta must be between -4503599627370495 and 4503599627370495")
                    .hasMessageContaining("but was " + delta);
            assertThatThrownBy(() -> counters.addAsync(1, 1L, delta)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> counters.add(1, 1L, delta, "k")).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> new Increment(1, 1L, delta)).isInstanceOf(IllegalArgumentException.class);
        }
        assertThat(counters.get(1, 1L)).isZero();
    }

    /**
     * Three instances, as three processes would be, add large amounts near both edges of one-slot
     * counters at once: exactly the increments that fit are applied (ten each way), every refused
     * one changes nothing, the totals are readable throughout, and a subtraction brings them back.
     */
    @Test
    void add_nearBothEdges_fromThreeInstancesAtOnce_appliesExactlyWhatFits() throws Exception {
        long step = 1L << 40;
        List<SlottedCounters> instances = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            instances.add(i == 0 ? migrated(builder().slots(1)) : counters(builder().slots(1)));
        }
        SlottedCounters first = instances.get(0);
        first.add(1, 1L, SlottedCounters.MAX_DELTA - 10 * step);
        first.add(1, 2L, -SlottedCounters.MAX_DELTA + 10 * step);
        AtomicLong applied = new AtomicLong();
        AtomicLong refused = new AtomicLong();
        AtomicBoolean writing = new AtomicBoolean(true);
        ExecutorService reader = Executors.newSingleThreadExecutor();
        Future<Long> reads = reader.submit(() -> {
            long seen = 0;
            while (writing.get()) {
                Map<Long, Long> totals = first.getAll(1, List.of(1L, 2L));
                assertThat(totals.get(1L)).isBetween(SlottedCounters.MAX_DELTA - 10 * step, SlottedCounters.MAX_DELTA);
                assertThat(totals.get(2L)).isBetween(-SlottedCounters.MAX_DELTA, -SlottedCounters.MAX_DELTA + 10 * step);
                seen++;
            }
            return seen;
        });

        try {
            runConcurrently(24, t -> {
                SlottedCounters counters = instances.get(t % 3);
                for (int i = 0; i < 3; i++) {
                    long id = (t + i) % 2 == 0 ? 1L : 2L;
                    try {
                        counters.add(1, id, id == 1L ? step : -step);
                        applied.incrementAndGet();
                    } catch (CounterOverflowException e) {
                        refused.incrementAndGet();
                    }
                }
            });
        } finally {
            writing.set(false);
        }

        assertThat(reads.get()).as("reads made while writing").isPositive();
        reader.shutdown();
        assertThat(applied.get()).as("increments that fit").isEqualTo(20);
        assertThat(refused.get()).isEqualTo(24 * 3 - 20);
        assertThat(first.getAll(1, List.of(1L, 2L))).containsExactly(
                Map.entry(1L, SlottedCounters.MAX_DELTA), Map.entry(2L, -SlottedCounters.MAX_DELTA));
        instances.get(1).add(1, 1L, -step);
        instances.get(2).add(1, 2L, step);
        assertThat(first.getAll(1, List.of(1L, 2L))).containsExactly(
                Map.entry(1L, SlottedCounters.MAX_DELTA - step), Map.entry(2L, -SlottedCounters.MAX_DELTA + step));
    }

    /**
     * Over several slots a counter holds more than one slot row, and wherever the edge is met,
     * what was acknowledged is exactly what was applied and every total stays readable.
     */
    @Test
    void add_largeAmountsOverFourSlots_fromThreeInstances_totalIsExactlyWhatWasAcknowledged() throws Exception {
        long step = SlottedCounters.MAX_DELTA / 3;
        List<SlottedCounters> instances = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            instances.add(i == 0 ? migrated(builder().slots(4)) : counters(builder().slots(4)));
        }
        AtomicLong acknowledged = new AtomicLong();

        runConcurrently(24, t -> {
            for (int i = 0; i < 4; i++) {
                try {
                    instances.get(t % 3).add(1, 1L, step);
                    acknowledged.addAndGet(step);
                } catch (CounterOverflowException e) {
                    // the slot it landed in was full; nothing of it was applied
                }
            }
        });

        long total = instances.get(1).get(1, 1L);
        assertThat(total).isEqualTo(acknowledged.get())
                .isGreaterThan(SlottedCounters.MAX_DELTA).isLessThanOrEqualTo(4 * SlottedCounters.MAX_DELTA);
        instances.get(2).add(1, 1L, -step);
        assertThat(instances.get(0).get(1, 1L)).isEqualTo(total - step);
    }

    @Test
    void get_totalBeyond64Bits_isReportedNeverWrapped() {
        SlottedCounters counters = migrated(builder());
        db.execute("INSERT INTO " + table + " (record_type, record_id, slot, count) VALUES"
                + " (1, 1, 0, " + Long.MAX_VALUE + "), (1, 1, 1, 1)");

        assertThatThrownBy(() -> counters.get(1, 1L))
                .isInstanceOf(CounterOverflowException.class)
                .hasMessageContaining("9223372036854775808");
        assertThatThrownBy(() -> counters.getAll(1, List.of(1L)))
                .isInstanceOf(CounterOverflowException.class);
    }

    @Test
    void get_totalBeyond64Bits_reportsTheExactTotal() {
        SlottedCounters counters = migrated(builder());
        db.execute("INSERT INTO " + table + " (record_type, record_id, slot, count) VALUES"
                + " (1, 1, 0, " + Long.MAX_VALUE + "), (1, 1, 1, " + (Long.MAX_VALUE - 1) + "),"
                + " (1, 2, 0, " + Long.MIN_VALUE + "), (1, 2, 1, " + Long.MIN_VALUE + ")");
        BigInteger above = new BigInteger("18446744073709551613");
        BigInteger below = new BigInteger("-18446744073709551616");

        assertThatThrownBy(() -> counters.get(1, 1L)).isInstanceOfSatisfying(
                CounterOverflowException.class, e -> assertThat(e.total()).isEqualTo(above));
        assertThatThrownBy(() -> counters.getAll(1, List.of(1L))).isInstanceOfSatisfying(
                CounterOverflowException.class, e -> assertThat(e.total()).isEqualTo(above));
        assertThatThrownBy(() -> counters.get(1, 2L)).isInstanceOfSatisfying(
                CounterOverflowException.class, e -> assertThat(e.total()).isEqualTo(below));
        assertThatThrownBy(() -> counters.getAll(1, List.of(2L))).isInstanceOfSatisfying(
                CounterOverflowException.class, e -> assertThat(e.total()).isEqualTo(below));
    }

    @Test
    void missingTable_isReportedWithWhatToDo() {
        SlottedCounters counters = counters(builder());

        assertThatThrownBy(() -> counters.add(1, 1L, 1))
                .isInstanceOf(SchemaException.class)
                .hasMessageContaining(table)
                .hasMessageContaining("migrate");
        assertThatThrownBy(() -> counters.get(1, 1L)).isInstanceOf(SchemaException.class);
    }

    @Test
    void migrate_tableWithoutSlotColumn_isRefusedNamingTheColumn() {
        db.execute("CREATE TABLE " + table + " (record_type INT NOT NULL, record_id BIGINT NOT NULL,"
                + " count BIGINT NOT NULL, PRIMARY KEY (record_type, record_id))");
        SlottedCounters counters = counters(builder());

        assertThatThrownBy(counters::migrate)
                .isInstanceOf(SchemaException.class)
                .hasMessageContaining("no column 'slot'");
    }

    @Test
    void migrate_tableWithoutTheUniqueKey_isRefusedSayingWhichKey() {
        db.execute("CREATE TABLE " + table + " (record_type INT NOT NULL, record_id BIGINT NOT NULL,"
                + " slot INT NOT NULL, count BIGINT NOT NULL)");
        SlottedCounters counters = counters(builder());

        assertThatThrownBy(counters::migrate)
                .isInstanceOf(SchemaException.class)
                .hasMessageContaining("unique key over exactly (record_type, record_id, slot)");
    }

    @Test
    void unreachableDatabase_isReportedAsUnavailable() {
        DataSource nowhere = new DriverManagerDataSource(db.unreachableJdbcUrl());
        SlottedCounters counters = counters(SlottedCounters.builder(nowhere).table(table));

        assertThatThrownBy(() -> counters.add(1, 1L, 1))
                .isInstanceOf(DatabaseUnavailableException.class)
                .isNotInstanceOf(OutcomeUnknownException.class)
                .hasMessageContaining("database unavailable")
                .hasMessageContaining("nothing was applied");
        assertThatThrownBy(() -> counters.get(1, 1L)).isInstanceOf(DatabaseUnavailableException.class);
        assertThatThrownBy(counters::migrate).isInstanceOf(DatabaseUnavailableException.class);
    }

    @Test
    void add_afterClose_isRefused() {
        SlottedCounters counters = migrated(builder());
        counters.close();

        assertThatThrownBy(() -> counters.increment(1, 1L))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
    }

    // ---------------------------------------------------------------- contention

    @Test
    void add_rowLockedByAnotherTransaction_isRetriedAndSucceedsOnceReleased() throws Exception {
        SlottedCounters counters = migrated(SlottedCounters.builder(db.shortLockWaitDataSource())
                .table(table).slots(1).maxAttempts(60).retryBackoff(Duration.ofMillis(5)));
        counters.add(1, 1L, 1);

        try (Connection holder = lockSlotRows(1, 1L)) {
            CompletableFuture<Void> blocked = CompletableFuture.runAsync(() -> counters.add(1, 1L, 5));
            await().atMost(Duration.ofSeconds(30)).until(() -> counters.stats().retries() >= 1);
            assertThat(blocked).isNotDone();
            holder.rollback();
            blocked.get(30, TimeUnit.SECONDS);
        }
        assertThat(counters.get(1, 1L)).isEqualTo(6);
    }

    @Test
    void add_rowLockedLongerThanEveryRetry_failsSayingHowOftenItTriedAndChangesNothing()
            throws Exception {
        SlottedCounters counters = migrated(SlottedCounters.builder(db.shortLockWaitDataSource())
                .table(table).slots(1).maxAttempts(2).retryBackoff(Duration.ofMillis(1)));
        counters.add(1, 1L, 1);

        try (Connection holder = lockSlotRows(1, 1L)) {
            assertThatThrownBy(() -> counters.add(1, 1L, 5))
                    .isInstanceOfSatisfying(ContentionException.class,
                            e -> assertThat(e.attempts()).isEqualTo(2))
                    .hasMessageContaining("gave up after 2 attempts")
                    .hasMessageContaining("nothing was applied");
            holder.rollback();
        }
        assertThat(counters.get(1, 1L)).isEqualTo(1);
    }

    // ---------------------------------------------------------------- helpers

    private Map<Integer, Long> slotCounts(int recordType, long recordId) {
        Map<Integer, Long> perSlot = new HashMap<>();
        try (Connection connection = db.dataSource().getConnection();
                PreparedStatement select = connection.prepareStatement("SELECT slot, count FROM "
                        + table + " WHERE record_type = ? AND record_id = ?")) {
            select.setInt(1, recordType);
            select.setLong(2, recordId);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    perSlot.put(rows.getInt(1), rows.getLong(2));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return perSlot;
    }

    private int columnCount() throws SQLException {
        try (Connection connection = db.dataSource().getConnection();
                PreparedStatement select = connection.prepareStatement("SELECT * FROM " + table);
                ResultSet rows = select.executeQuery()) {
            return rows.getMetaData().getColumnCount();
        }
    }
}
