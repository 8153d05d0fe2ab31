package io.slotted;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import io.slotted.db.TestDatabase;
import io.slotted.db.TestDatabases;
import io.slotted.internal.registry.TypeRegistry;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Counters with limits, as stock and quotas use them: three library instances, each on a pool of
 * its own as three processes would be, 64 writers among them, and the database's own sum checked
 * by SQL while they write. On every database, in both modes that tell each caller whether its
 * increment was applied.
 */
@ParameterizedClass(name = "[{arguments}]")
@MethodSource("databasesInModes")
class LimitsSuite extends CounterTableTest {
    private static final int STOCK = 7;
    private static final int QUOTA = 8;
    private static final long ITEM = 1;

    private final WriteMode mode;
    private final List<HikariDataSource> pools = new ArrayList<>();
    /**
     * Every instance's clock: a test whose processes all learned of a new binding as they were
     * made moves it past the grace a binding waits for other processes, instead of sleeping it out.
     */
    private final MutableClock clock = MutableClock.followingTheSystemClock();

    LimitsSuite(TestDatabase db, WriteMode mode) {
        super(db);
        this.mode = mode;
    }

    static Stream<Arguments> databasesInModes() {
        return TestDatabases.inModes(TestDatabases.all(), WriteMode.GROUPED, WriteMode.DIRECT);
    }

    @AfterEach
    void closePools() {
        pools.forEach(HikariDataSource::close);
    }

    /** An instance as a process of its own would have it: its own pool, the given settings. */
    private SlottedCountersBuilder instance(String name) {
        return instance(name, mode);
    }

    private SlottedCountersBuilder instance(String name, WriteMode writeMode) {
        HikariDataSource pool = db.applicationPool(table + "-" + name, 24);
        pools.add(pool);
        return SlottedCounters.builder(pool).table(table).writeMode(writeMode).clock(clock);
    }

    private List<SlottedCounters> threeInstances(int recordType, Limits limits) {
        List<SlottedCounters> instances = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            SlottedCountersBuilder builder = instance("p" + i).limits(recordType, limits);
            instances.add(i == 0 ? migrated(builder) : counters(builder));
        }
        return instances;
    }

    @Test
    void stockOf10000_64WritersOver3Instances_sellExactlyTheStock_andTheTotalIsNeverBelowZero() throws Exception {
        List<SlottedCounters> instances = threeInstances(STOCK, Limits.atLeast(0));
        instances.get(0).add(STOCK, ITEM, 10_000);
        AtomicLong sold = new AtomicLong();
        AtomicLong smallestRefused = new AtomicLong(Long.MAX_VALUE);
        AtomicLong refusals = new AtomicLong();

        try (Sampler sampler = new Sampler(STOCK)) {
            runConcurrently(64, t -> {
                SlottedCounters counters = instances.get(t % 3);
                Random random = new Random(20261127L + t);
                while (true) {
                    int amount = 1 + random.nextInt(5);
                    if (counters.tryAdd(STOCK, ITEM, -amount)) {
                        if (sold.addAndGet(amount) > 10_000) {
                            throw new AssertionError("oversold: " + sold.get() + " sold of a stock of 10000");
                        }
                    } else {
                        refusals.incrementAndGet();
                        smallestRefused.accumulateAndGet(amount, Math::min);
                        return;
                    }
                }
            });
            assertThat(sampler.samples()).as("SQL samples of the total taken while the writers sold").isPositive();
            assertThat(sampler.lowest()).as("the lowest total SQL saw while the writers sold").isGreaterThanOrEqualTo(0);
        }

        long left = sum(STOCK);
        System.out.println(db + " " + mode + ": sold " + sold.get() + ", left " + left + ", smallest refused "
                + smallestRefused.get());
        assertThat(left).as("what is left").isBetween(0L, 4L);
        assertThat(sold.get()).as("what was sold").isEqualTo(10_000 - left);
        assertThat(left).as("what is left is less than the smallest refused request").isLessThan(smallestRefused.get());
        assertThat(refusals.get()).as("each writer stopped at its first refusal").isEqualTo(64);
        assertThat(instances.get(1).get(STOCK, ITEM)).isEqualTo(left);
    }

    @Test
    void quotaOf1000_64WritersOver3Instances_useExactlyTheQuota_andTheTotalIsNeverAboveIt() throws Exception {
        List<SlottedCounters> instances = threeInstances(QUOTA, Limits.atMost(1000));
        AtomicLong used = new AtomicLong();
        AtomicLong smallestRefused = new AtomicLong(Long.MAX_VALUE);

        try (Sampler sampler = new Sampler(QUOTA)) {
            runConcurrently(64, t -> {
                SlottedCounters counters = instances.get(t % 3);
                Random random = new Random(1127L + t);
                while (true) {
                    int amount = 1 + random.nextInt(5);
                    if (counters.tryAdd(QUOTA, ITEM, amount)) {
                        if (used.addAndGet(amount) > 1000) {
                            throw new AssertionError("over the quota: " + used.get() + " used of 1000");
                        }
                    } else {
                        smallestRefused.accumulateAndGet(amount, Math::min);
                        return;
                    }
                }
            });
            assertThat(sampler.highest()).as("the highest total SQL saw while the writers spent").isLessThanOrEqualTo(1000);
        }

        long total = sum(QUOTA);
        assertThat(total).isEqualTo(used.get()).isLessThanOrEqualTo(1000);
        assertThat(1000 - total).as("the quota left is less than the smallest refused request")
                .isLessThan(smallestRefused.get());
    }

    @Test
    void aRefusal_throwsWithTheTotal_changesNothing_andTryAddSaysFalse() {
        SlottedCounters counters = migrated(instance("one").limits(STOCK, Limits.between(0, 10)));

        assertThatThrownBy(() -> counters.add(STOCK, ITEM, -1))
                .isInstanceOfSatisfying(LimitExceededException.class, e -> {
                    assertThat(e.total()).isZero();
                    assertThat(e.delta()).isEqualTo(-1);
                    assertThat(e.limits()).isEqualTo(Limits.between(0, 10));
                    assertThat(e.getMessage()).isEqualTo("limit exceeded: adding -1 to counter (record_type=7,"
                            + " record_id=1) would take its total 0 outside 0..10; nothing was applied");
                });
        assertThat(counters.tryAdd(STOCK, ITEM, 11)).isFalse();
        assertThat(counters.tryAdd(STOCK, ITEM, 10)).isTrue();
        assertThat(counters.addAndGet(STOCK, ITEM, -3)).isEqualTo(7);
        assertThatThrownBy(() -> counters.addAndGet(STOCK, ITEM, -8))
                .isInstanceOfSatisfying(LimitExceededException.class, e -> assertThat(e.total()).isEqualTo(7));
        assertThatThrownBy(() -> counters.addAsync(STOCK, ITEM, 4).join())
                .hasCauseInstanceOf(LimitExceededException.class);
        assertThat(counters.get(STOCK, ITEM)).isEqualTo(7);
        assertThat(sum(STOCK)).isEqualTo(7);
        assertThat(counters.tryAdd(STOCK, 2L, 5)).as("another counter of the type has its own total").isTrue();
        counters.add(1, ITEM, -5);
        assertThat(counters.get(1, ITEM)).as("a type without limits goes below 0").isEqualTo(-5);
    }

    @Test
    void aBatchWithARefusedIncrement_isRefusedWhole() {
        SlottedCounters counters = migrated(instance("one").limits(STOCK, Limits.atLeast(0)));
        counters.add(STOCK, ITEM, 3);

        assertThatThrownBy(() -> counters.addAll(List.of(new Increment(1, ITEM, 5), new Increment(STOCK, ITEM, -2),
                new Increment(STOCK, ITEM, -2)))).isInstanceOf(LimitExceededException.class);

        assertThat(counters.get(1, ITEM)).isZero();
        assertThat(counters.get(STOCK, ITEM)).isEqualTo(3);
        assertThat(counters.addAllAndGet(List.of(new Increment(STOCK, ITEM, -2), new Increment(STOCK, ITEM, -1))))
                .containsExactly(1L, 0L);
    }

    @Test
    void theFirstProcessRecordsItsLimits_oneGivenOthersRefusesToWrite_oneGivenNoneFollowsThem() {
        SlottedCounters first = migrated(instance("first").limits(STOCK, Limits.atLeast(0)));
        first.add(STOCK, ITEM, 5);
        SlottedCounters other = counters(instance("other").limits(STOCK, Limits.atLeast(-10)));
        SlottedCounters none = counters(instance("none"));

        assertThatThrownBy(() -> other.add(STOCK, ITEM, -1)).isInstanceOf(SlottedException.class)
                .hasMessageContaining("has the limits 0.. in the registry")
                .hasMessageContaining("but this process was given -10..")
                .hasMessageContaining("nothing was written");
        assertThat(none.tryAdd(STOCK, ITEM, -6)).as("the recorded limits refuse it").isFalse();
        assertThat(none.tryAdd(STOCK, ITEM, -5)).isTrue();
        assertThat(first.get(STOCK, ITEM)).isZero();
    }

    @Test
    void aBufferedProcessGivenNoLimits_keepsTheRecordedOnes_countingWhatTheyRefuseAsDropped() {
        SlottedCounters recorder = migrated(instance("recorder").limits(STOCK, Limits.atLeast(0)));
        recorder.add(STOCK, ITEM, 3);
        SlottedCounters buffered = counters(instance("buffered", WriteMode.BUFFERED));

        buffered.add(STOCK, ITEM, -2);
        buffered.add(STOCK, ITEM, -2);
        buffered.close(); // writes what was accepted

        assertThat(recorder.get(STOCK, ITEM)).as("the first sale applied, the second refused").isEqualTo(1);
        assertThat(buffered.stats().incrementsDropped()).isEqualTo(1);
    }

    @Test
    void inTheApplicationsTransaction_aRefusalLeavesTheTransactionToTheApplication() throws SQLException {
        SlottedCounters counters = migrated(instance("one").limits(STOCK, Limits.atLeast(0)));
        counters.add(STOCK, ITEM, 2);
        try (Connection connection = db.dataSource().getConnection()) {
            connection.setAutoCommit(false);
            counters.add(connection, STOCK, ITEM, -2);
            assertThatThrownBy(() -> counters.add(connection, STOCK, ITEM, -1))
                    .isInstanceOfSatisfying(LimitExceededException.class, e -> assertThat(e.total()).isZero());
            connection.commit();
        }
        assertThat(counters.get(STOCK, ITEM)).isZero();
    }

    @Test
    void setsRacingTheWriters_neverTakeTheTotalOutside_andASetOutsideTheLimitsIsRefused() throws Exception {
        SlottedCounters counters = migrated(instance("one").limits(STOCK, Limits.atLeast(0)));
        counters.add(STOCK, ITEM, 50);

        assertThatThrownBy(() -> counters.admin().set(STOCK, ITEM, -1))
                .isInstanceOfSatisfying(LimitExceededException.class, e -> assertThat(e.refusedASet()).isTrue())
                .hasMessage("limit exceeded: cannot set counter (record_type=7, record_id=1) to -1, outside its"
                        + " type's limits 0..; nothing was changed");
        assertThat(counters.get(STOCK, ITEM)).isEqualTo(50);

        long until = System.nanoTime() + 2_000_000_000L;
        AtomicLong sets = new AtomicLong();
        try (Sampler sampler = new Sampler(STOCK)) {
            runConcurrently(17, t -> {
                Random random = new Random(t);
                while (System.nanoTime() < until) {
                    if (t == 0) {
                        counters.admin().set(STOCK, ITEM, 20 + random.nextInt(20));
                        sets.incrementAndGet();
                        Thread.sleep(20);
                    } else {
                        counters.tryAdd(STOCK, ITEM, -(1 + random.nextInt(3)));
                    }
                }
            });
            assertThat(sampler.lowest()).as("the lowest total SQL saw").isGreaterThanOrEqualTo(0);
        }
        assertThat(sets.get()).isPositive();
        assertThat(sum(STOCK)).isNotNegative();
    }

    @Test
    void aRecountRepairOutsideTheLimits_isRefused_andRepairsNothing() {
        SlottedCounters counters = migrated(instance("one").limits(STOCK, Limits.atLeast(0)));
        counters.add(STOCK, ITEM, 2);
        counters.add(STOCK, 2L, 9);
        db.execute("CREATE TABLE " + table + "_truth (id BIGINT PRIMARY KEY, n BIGINT NOT NULL)");
        try {
            db.execute("INSERT INTO " + table + "_truth VALUES (1, -3), (2, 4)");
            String source = "SELECT id, n FROM " + table + "_truth";

            assertThatThrownBy(() -> counters.admin().recount(STOCK, source, true))
                    .isInstanceOf(LimitExceededException.class).hasMessageContaining("adding -5");
            assertThat(counters.getAll(STOCK, List.of(ITEM, 2L))).containsExactly(entry(ITEM, 2L), entry(2L, 9L));

            db.execute("UPDATE " + table + "_truth SET n = 0 WHERE id = 1");
            assertThat(counters.admin().recount(STOCK, source, true).fixed()).isEqualTo(2);
            assertThat(counters.getAll(STOCK, List.of(ITEM, 2L))).containsExactly(entry(ITEM, 0L), entry(2L, 4L));
        } finally {
            db.dropTable(table + "_truth");
        }
    }

    /**
     * A recount repairing a counter that drifted 300 above its source of truth, over and over,
     * while 16 writers sell from it, each sale and its row in the source committing together:
     * the repair is decided under the same lock as the sales, the total never goes below 0, and
     * at the end the counter equals the truth exactly.
     */
    @Test
    void recountRepairsRacingTheWriters_endEqualToTheTruth_andNeverTakeTheTotalOutside() throws Exception {
        SlottedCounters counters = migrated(instance("one").limits(STOCK, Limits.atLeast(0)));
        db.execute("CREATE TABLE " + table + "_truth (id BIGINT PRIMARY KEY, n BIGINT NOT NULL)");
        try {
            db.execute("INSERT INTO " + table + "_truth VALUES (" + ITEM + ", 2000)");
            counters.add(STOCK, ITEM, 2000 + 300);
            String source = "SELECT id, n FROM " + table + "_truth";
            AtomicBoolean selling = new AtomicBoolean(true);
            AtomicLong fixed = new AtomicLong();
            Thread repairs = new Thread(() -> {
                while (selling.get()) {
                    fixed.addAndGet(counters.admin().recount(STOCK, source, true).fixed());
                }
            }, "recount");
            try (Sampler sampler = new Sampler(STOCK)) {
                repairs.start();
                runConcurrently(16, t -> {
                    for (int sale = 0; sale < 100; sale++) {
                        sellOneRecordingIt(counters);
                    }
                });
                selling.set(false);
                repairs.join();
                assertThat(sampler.lowest()).as("the lowest total SQL saw").isGreaterThanOrEqualTo(0);
            }
            fixed.addAndGet(counters.admin().recount(STOCK, source, true).fixed());
            assertThat(fixed.get()).as("the drift was repaired once").isEqualTo(1);
            assertThat(sum(STOCK)).isEqualTo(2000 - 1600);
            assertThat(counters.admin().recount(STOCK, source, false).differing()).isZero();
        } finally {
            db.dropTable(table + "_truth");
        }
    }

    /** One sale and its row in the source of truth, in one transaction of the application's. */
    private void sellOneRecordingIt(SlottedCounters counters) throws SQLException {
        try (Connection connection = db.dataSource().getConnection()) {
            connection.setAutoCommit(false);
            counters.add(connection, STOCK, ITEM, -1);
            try (Statement statement = connection.createStatement()) {
                statement.executeUpdate("UPDATE " + table + "_truth SET n = n - 1 WHERE id = " + ITEM);
            }
            connection.commit();
        }
    }

    @Test
    void limitsThatACounterIsAlreadyOutside_areNotRecorded_andSayWhichAndItsTotal() {
        AtomicLong ahead = new AtomicLong(); // the unlimited process's ticker, moved instead of slept out
        SlottedCounters unlimited = migrated(instance("before").ticker(() -> System.nanoTime() + ahead.get()));
        unlimited.add(STOCK, 5L, -3);
        SlottedCounters limited = counters(instance("after").limits(STOCK, Limits.atLeast(0)));

        assertThatThrownBy(() -> limited.add(STOCK, ITEM, 1)).isInstanceOf(SlottedException.class)
                .hasMessageContaining("counter (record_type=7, record_id=5) has the total -3 already")
                .hasMessageContaining("nothing was written");
        assertThat(limited.get(STOCK, ITEM)).isZero();
        unlimited.admin().set(STOCK, 5L, 0);
        assertThat(limited.tryAdd(STOCK, ITEM, 1)).as("recorded once the counter is within").isTrue();
        // A process given no limits learns recorded ones when it next reads the registry.
        ahead.addAndGet(TypeRegistry.REFRESH.toNanos() + 1);
        assertThat(unlimited.tryAdd(STOCK, 5L, -1)).as("and kept by the process given none").isFalse();
    }

    @Test
    void aTypeWithLimits_isNotBoundInFoldMode() {
        SlottedCounters counters = migrated(instance("one").limits(STOCK, Limits.atLeast(0)));
        counters.add(STOCK, ITEM, 1);
        db.execute("CREATE TABLE " + table + "_items (id BIGINT PRIMARY KEY, stock BIGINT NOT NULL)");
        try {
            assertThatThrownBy(() -> counters.owners().adopt(STOCK, OwnerColumn.parse(table + "_items.id.stock"),
                    OwnerMode.FOLD)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("has the limits 0..").hasMessageContaining("bind it in copy mode");
        } finally {
            db.dropTable(table + "_items");
        }
    }

    @Test
    void aStockFoldedIntoItsOwnerColumn_isSoldExactly_whileRollUpsMoveTheSlotsIntoTheColumn() throws Exception {
        String items = table + "_items";
        db.execute("CREATE TABLE " + items + " (id BIGINT PRIMARY KEY, stock BIGINT NOT NULL CHECK (stock >= 0))");
        try {
            db.execute("INSERT INTO " + items + " (id, stock) VALUES (" + ITEM + ", 3000)");
            migrated(instance("binder")).owners().adopt(STOCK, OwnerColumn.parse(items + ".id.stock"), OwnerMode.FOLD);
            clock.advance(TypeRegistry.GRACE); // the sellers, made after the binding, count the column
            List<SlottedCounters> sellers = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                sellers.add(counters(instance("p" + i).limits(STOCK, Limits.atLeast(0))
                        .rollUpEvery(Duration.ofMillis(50))));
            }
            AtomicLong sold = new AtomicLong();
            AtomicLong smallestRefused = new AtomicLong(Long.MAX_VALUE);
            AtomicLong refusals = new AtomicLong();

            try (Sampler sampler = new Sampler(() -> columnPlusSlots(items))) {
                runConcurrently(24, t -> {
                    SlottedCounters counters = sellers.get(t % 3);
                    Random random = new Random(20261128L + t);
                    while (true) {
                        int amount = 1 + random.nextInt(5);
                        if (!counters.tryAdd(STOCK, ITEM, -amount)) {
                            refusals.incrementAndGet();
                            smallestRefused.accumulateAndGet(amount, Math::min);
                            return;
                        }
                        sold.addAndGet(amount);
                    }
                });
                assertThat(sampler.lowest()).as("the lowest total, column and slots, SQL saw while the writers"
                        + " sold").isGreaterThanOrEqualTo(0);
            }

            long left = columnPlusSlots(items);
            System.out.println(db + " " + mode + ": folded stock sold " + sold.get() + ", left " + left);
            assertThat(sold.get()).as("what was sold").isEqualTo(3000 - left);
            assertThat(left).as("what is left is less than the smallest refused request")
                    .isBetween(0L, smallestRefused.get() - 1);
            assertThat(refusals.get()).isEqualTo(24);
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(column(items))
                    .as("the roll-ups moved every sale into the column, which its CHECK kept at 0 or more")
                    .isEqualTo(left));
            assertThat(sellers.get(1).get(STOCK, ITEM)).isEqualTo(left);
        } finally {
            db.dropTable(items);
        }
    }

    @Test
    void limitsOfAFoldedType_areRecordedOnceEveryProcessCountsTheColumn_andOnlyIfEveryTotalIsWithinThem()
            throws Exception {
        String items = table + "_items";
        db.execute("CREATE TABLE " + items + " (id BIGINT PRIMARY KEY, stock BIGINT NOT NULL)");
        try {
            db.execute("INSERT INTO " + items + " (id, stock) VALUES (1, 5), (2, 2)");
            SlottedCounters binder = migrated(instance("binder"));
            binder.owners().adopt(STOCK, OwnerColumn.parse(items + ".id.stock"), OwnerMode.FOLD);
            binder.add(STOCK, 2L, -4);
            SlottedCounters limited = counters(instance("limited").limits(STOCK, Limits.atLeast(0)));

            assertThatThrownBy(() -> limited.add(STOCK, 1L, -1)).isInstanceOf(SlottedException.class)
                    .hasMessageContaining("was bound to its owner column").hasMessageContaining("nothing was written");
            clock.advance(TypeRegistry.GRACE); // every process, binder and limited, counts the column
            assertThatThrownBy(() -> limited.add(STOCK, 1L, -1)).isInstanceOf(SlottedException.class)
                    .hasMessageContaining("counter (record_type=7, record_id=2) has the total -2 already");

            binder.admin().set(STOCK, 2L, 0);
            assertThat(limited.tryAdd(STOCK, 1L, -5)).as("the 5 in the column are sold").isTrue();
            assertThat(limited.tryAdd(STOCK, 1L, -1)).isFalse();
            assertThat(limited.get(STOCK, 1L)).isZero();
            assertThat(limited.tryAdd(STOCK, 3L, -1)).as("a counter with no owner row has its slots only").isFalse();
        } finally {
            db.dropTable(items);
        }
    }

    /** The stock's owner column and slots, as one statement reads them. */
    private long columnPlusSlots(String items) {
        return query("SELECT (SELECT stock FROM " + items + " WHERE id = " + ITEM + ") + (SELECT COALESCE(SUM(count), 0)"
                + " FROM " + table + " WHERE record_type = " + STOCK + " AND record_id = " + ITEM + ")");
    }

    private long column(String items) {
        return query("SELECT stock FROM " + items + " WHERE id = " + ITEM);
    }

    private long query(String sql) {
        try (Connection connection = db.dataSource().getConnection(); Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery(sql)) {
            row.next();
            return row.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aRegistryMadeBeforeLimits_isGivenTheirColumnsByMigrate_andKeepsItsRows() {
        db.execute("CREATE TABLE " + table + "_types (record_type INT NOT NULL, owner_table VARCHAR(130),"
                + " key_column VARCHAR(64), count_column VARCHAR(64), owner_mode VARCHAR(8), slots INT NOT NULL,"
                + " bound_ms BIGINT NOT NULL, rolled_up_ms BIGINT NOT NULL, PRIMARY KEY (record_type))");
        db.execute("INSERT INTO " + table + "_types VALUES (3, NULL, NULL, NULL, NULL, 2, 0, 0)");
        SlottedCounters counters = counters(instance("one").limits(STOCK, Limits.atLeast(0)));

        MigrationReport report = counters.migrate();

        assertThat(report.actions()).contains("added to " + table + "_types the columns lower_bound and upper_bound"
                + " (the types' limits), and limit_window (the window of limits per window), and expiring (the types"
                + " whose counters may expire)");
        assertThat(counters.tryAdd(STOCK, ITEM, -1)).isFalse();
        assertThat(counters.tryAdd(STOCK, ITEM, 1)).isTrue();
        assertThat(counters.migrate().actions()).as("a second migrate has nothing to do").isEmpty();
    }

    private long sum(int recordType) {
        return sumOfRows(recordType, ITEM);
    }

    /** Reads a counter's total by SQL, over and over, until closed: the lowest and highest it saw. */
    private final class Sampler implements AutoCloseable {
        private final AtomicBoolean stop = new AtomicBoolean();
        private final AtomicLong lowest = new AtomicLong(Long.MAX_VALUE);
        private final AtomicLong highest = new AtomicLong(Long.MIN_VALUE);
        private final AtomicLong samples = new AtomicLong();
        private final Thread thread;

        Sampler(int recordType) {
            this(() -> sum(recordType));
        }

        Sampler(LongSupplier totals) {
            thread = new Thread(() -> {
                while (!stop.get()) {
                    long total = totals.getAsLong();
                    lowest.accumulateAndGet(total, Math::min);
                    highest.accumulateAndGet(total, Math::max);
                    samples.incrementAndGet();
                }
            }, "total-sampler");
            thread.start();
        }

        long lowest() {
            return lowest.get();
        }

        long highest() {
            return highest.get();
        }

        long samples() {
            return samples.get();
        }

        @Override
        public void close() throws InterruptedException {
            stop.set(true);
            thread.join();
        }
    }
}
