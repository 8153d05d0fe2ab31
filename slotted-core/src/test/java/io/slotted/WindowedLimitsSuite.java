package io.slotted;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import io.slotted.db.TestDatabase;
import io.slotted.db.TestDatabases;
import io.slotted.internal.DefaultSlottedCounters;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Quotas per window, as usage meters and rate limits use them: three library instances, each on a
 * pool of its own as three processes would be, their writers counting into windows that end
 * while they write, and each window's count checked by SQL. On every database, in both modes
 * that tell each caller whether its increment was applied.
 */
@ParameterizedClass(name = "[{arguments}]")
@MethodSource("databasesInModes")
class WindowedLimitsSuite extends CounterTableTest {
    private static final int QUOTA = 9;
    private static final long KEY = 42;
    private static final Instant MIDNIGHT = Instant.parse("2026-11-22T00:00:00Z");

    private final WriteMode mode;
    private final List<HikariDataSource> pools = new ArrayList<>();

    WindowedLimitsSuite(TestDatabase db, WriteMode mode) {
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

    /** An instance as a process of its own would have it: its own pool and clock. */
    private SlottedCountersBuilder instance(String name, Clock clock) {
        HikariDataSource pool = db.applicationPool(table + "-" + name, 24);
        pools.add(pool);
        return SlottedCounters.builder(pool).table(table).writeMode(mode).clock(clock);
    }

    /**
     * 64 writers over three instances spend a quota of 1,000 per one-second window for four
     * seconds, so that windows end while increments of them are still queued: no window's count,
     * sampled by SQL while they write, ever passes 1,000, every refusal came when its window had
     * no room for it, and the total is exactly what was accepted. The deltas, 1 to 30, fill a
     * window within a fraction of its second in either mode on any database, so windows refuse.
     * (The keeper removes windows before the previous one as the test runs, which is why they are
     * sampled.)
     */
    @Test
    void quotaOf1000PerSecond_64WritersOver3Instances_noWindowPassesIt_andEachRefusalFoundItsWindowFull()
            throws Exception {
        Limits quota = Limits.atMost(1000).per(Window.every(Duration.ofSeconds(1)));
        List<SlottedCounters> instances = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            SlottedCountersBuilder builder = instance("p" + i, Clock.systemUTC()).limits(QUOTA, quota);
            instances.add(i == 0 ? migrated(builder) : counters(builder));
        }
        AtomicLong accepted = new AtomicLong();
        ConcurrentLinkedQueue<QuotaExceededException> refusals = new ConcurrentLinkedQueue<>();
        Map<Instant, Long> highest = new ConcurrentHashMap<>();
        AtomicBoolean writing = new AtomicBoolean(true);
        CompletableFuture<Void> sampler = CompletableFuture.runAsync(() -> {
            while (writing.get()) {
                windowCounts().forEach((window, count) -> highest.merge(window, count, Math::max));
                sleep(20);
            }
        });
        long end = System.nanoTime() + Duration.ofSeconds(4).toNanos();

        try {
            runConcurrently(64, t -> {
                SlottedCounters counters = instances.get(t % 3);
                Random random = new Random(20261129L + t);
                while (System.nanoTime() < end) {
                    int amount = 1 + random.nextInt(30);
                    try {
                        counters.add(QUOTA, KEY, amount);
                        accepted.addAndGet(amount);
                    } catch (QuotaExceededException e) {
                        refusals.add(e);
                        Thread.sleep(5);
                    }
                }
            });
        } finally {
            writing.set(false);
            sampler.get(1, TimeUnit.MINUTES);
        }
        windowCounts().forEach((window, count) -> highest.merge(window, count, Math::max));

        System.out.println(db + " " + mode + ": windows " + new TreeMap<>(highest) + ", " + refusals.size()
                + " refusals");
        assertThat(highest).as("windows counted in").hasSizeGreaterThanOrEqualTo(3);
        assertThat(highest.values()).as("each window's highest count SQL saw").allSatisfy(count ->
                assertThat(count).isBetween(0L, 1000L));
        assertThat(totalAcrossWindows()).as("the total counts on across windows").isEqualTo(accepted.get());
        Set<Instant> refusedIn = new HashSet<>();
        assertThat(refusals).as("a full window refuses").isNotEmpty().allSatisfy(refusal -> {
            assertThat(refusal.total() + refusal.delta()).as("the window had no room for it").isGreaterThan(1000);
            assertThat(refusal.total()).isLessThanOrEqualTo(1000);
            assertThat(refusal.resetsAt()).isEqualTo(refusal.windowStart().plusSeconds(1));
            refusedIn.add(refusal.windowStart());
        });
        assertThat(refusedIn).as("windows that filled").hasSizeGreaterThanOrEqualTo(2);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * A window's count starts again from 0 when the window ends; the total counts on. A refusal
     * says the window's count and when it resets.
     */
    @Test
    void aFullWindow_refusesUntilItEnds_thenTheNextCountsFrom0() {
        MutableClock clock = new MutableClock();
        clock.set(MIDNIGHT.plus(Duration.ofMinutes(59)));
        SlottedCounters counters = migrated(instance("one", clock).limits(QUOTA, Limits.atMost(5).per(Window.HOUR)));

        counters.add(QUOTA, KEY, 4);
        assertThatThrownBy(() -> counters.add(QUOTA, KEY, 2)).isInstanceOfSatisfying(QuotaExceededException.class, e -> {
            assertThat(e.total()).isEqualTo(4);
            assertThat(e.delta()).isEqualTo(2);
            assertThat(e.windowStart()).isEqualTo(MIDNIGHT);
            assertThat(e.resetsAt()).isEqualTo(MIDNIGHT.plus(Duration.ofHours(1)));
            assertThat(e).hasMessageContaining("quota exceeded: adding 2 to counter (record_type=9, record_id=42)")
                    .hasMessageContaining("nothing was applied").hasMessageContaining("resets at 2026-11-22T01:00:00Z");
        });
        assertThat(counters.tryAdd(QUOTA, KEY, 1)).isTrue();
        assertThat(counters.tryAdd(QUOTA, KEY, 1)).as("the window is full").isFalse();

        assertThat(counters.get(QUOTA, KEY)).as("a read answers the window's count").isEqualTo(5);

        clock.advance(Duration.ofMinutes(1));
        assertThat(counters.get(QUOTA, KEY)).as("the next window counts from 0").isZero();
        assertThat(counters.tryAdd(QUOTA, KEY, 5)).isTrue();
        assertThat(counters.tryAdd(QUOTA, KEY, 1)).isFalse();
        assertThat(totalAcrossWindows()).as("the total counts on").isEqualTo(10);
        assertThat(windowCounts()).containsExactly(Map.entry(MIDNIGHT, 5L),
                Map.entry(MIDNIGHT.plus(Duration.ofHours(1)), 5L));
    }

    /**
     * Windows in a zone other than UTC, through the write path: a month window ending on the last
     * day of a short month in Paris, and a day window on the day Paris puts its clocks back (25
     * hours long), each counting from 0 at its local midnight and refusing past its bound.
     */
    @Test
    void windowsInAZone_endAtItsMonthEndAndAcrossItsClockChange() {
        ZoneId paris = ZoneId.of("Europe/Paris");
        MutableClock clock = new MutableClock();
        SlottedCounters counters = migrated(instance("one", clock)
                .limits(QUOTA, Limits.atMost(3).per(Window.MONTH.in(paris)))
                .limits(QUOTA + 1, Limits.atMost(3).per(Window.DAY.in(paris))));

        Instant februaryEnds = ZonedDateTime.of(2027, 3, 1, 0, 0, 0, 0, paris).toInstant(); // 23:00 UTC
        clock.set(februaryEnds.minus(Duration.ofMinutes(1)));
        assertThat(counters.addAndGet(QUOTA, KEY, 3)).isEqualTo(3);
        assertThat(counters.tryAdd(QUOTA, KEY, 1)).as("February in Paris is full").isFalse();
        clock.set(februaryEnds);
        assertThat(counters.addAndGet(QUOTA, KEY, 1)).as("March in Paris counts from 0, in UTC still February")
                .isEqualTo(1);

        Instant longDay = ZonedDateTime.of(2026, 10, 25, 0, 0, 0, 0, paris).toInstant();
        Instant nextDay = ZonedDateTime.of(2026, 10, 26, 0, 0, 0, 0, paris).toInstant();
        assertThat(Duration.between(longDay, nextDay)).isEqualTo(Duration.ofHours(25));
        clock.set(longDay.plus(Duration.ofMinutes(150))); // 02:30, the first time
        assertThat(counters.addAndGet(QUOTA + 1, KEY, 2)).isEqualTo(2);
        clock.set(longDay.plus(Duration.ofMinutes(210))); // 02:30 again, an hour later
        assertThat(counters.addAndGet(QUOTA + 1, KEY, 1)).as("the repeated hour is the same day").isEqualTo(3);
        clock.set(nextDay.minus(Duration.ofMinutes(1))); // 23:59, the 25th hour
        assertThatThrownBy(() -> counters.add(QUOTA + 1, KEY, 1)).isInstanceOfSatisfying(QuotaExceededException.class,
                e -> {
                    assertThat(e.windowStart()).isEqualTo(longDay);
                    assertThat(e.resetsAt()).isEqualTo(nextDay);
                });
        clock.set(nextDay);
        assertThat(counters.addAndGet(QUOTA + 1, KEY, 3)).as("the next day counts from 0").isEqualTo(3);
    }

    /** A refund is a negative delta in the window it is made in; it never takes the window below 0. */
    @Test
    void aRefund_makesRoomInItsWindow_butNeverTakesItBelow0() {
        MutableClock clock = new MutableClock();
        SlottedCounters counters = migrated(instance("one", clock).limits(QUOTA, Limits.atMost(10).per(Window.DAY)));

        counters.add(QUOTA, KEY, 10);
        counters.add(QUOTA, KEY, -3);
        assertThat(counters.tryAdd(QUOTA, KEY, 3)).as("the refund made room").isTrue();
        assertThatThrownBy(() -> counters.add(QUOTA, KEY, -11)).isInstanceOf(QuotaExceededException.class)
                .hasMessageContaining("its count 10");
        assertThat(windowCounts()).containsExactly(Map.entry(MIDNIGHT, 10L));
    }

    /**
     * A refund goes back into the window of the increment it gives back, the current one or the
     * one before it, answering that window's count; never below 0, never into a window no longer
     * kept or yet to come, and only on a type with limits per window.
     */
    @Test
    void aRefund_goesBackIntoTheWindowOfTheIncrementItGivesBack() {
        MutableClock clock = new MutableClock();
        clock.set(MIDNIGHT.plus(Duration.ofMinutes(59)));
        SlottedCounters counters = migrated(instance("one", clock).limits(QUOTA, Limits.atMost(5).per(Window.HOUR)));
        Instant charged = clock.instant();
        counters.add(QUOTA, KEY, 5);
        clock.advance(Duration.ofMinutes(1));
        assertThat(counters.addAndGet(QUOTA, KEY, 4)).isEqualTo(4);

        assertThat(counters.refund(QUOTA, KEY, 2, charged)).as("the previous window's count").isEqualTo(3);
        assertThat(counters.get(QUOTA, KEY)).as("the current window is untouched").isEqualTo(4);
        assertThatThrownBy(() -> counters.refund(QUOTA, KEY, 4, charged)).isInstanceOf(QuotaExceededException.class)
                .hasMessageContaining("its count 3");
        assertThat(counters.refund(QUOTA, KEY, 4, clock.instant())).as("into the current window").isZero();
        assertThat(windowCounts()).containsExactly(Map.entry(MIDNIGHT, 3L),
                Map.entry(MIDNIGHT.plus(Duration.ofHours(1)), 0L));
        assertThat(totalAcrossWindows()).isEqualTo(3);

        clock.advance(Duration.ofHours(1));
        assertThatThrownBy(() -> counters.refund(QUOTA, KEY, 1, charged)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("only the current window (from 2026-11-22T02:00:00Z) and the one before it")
                .hasMessageContaining("nothing was changed");
        assertThatThrownBy(() -> counters.refund(QUOTA, KEY, 1, clock.instant().plus(Duration.ofHours(1))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("it has not begun");
        assertThatThrownBy(() -> counters.refund(QUOTA, KEY, 0, clock.instant()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("positive amount");
        assertThatThrownBy(() -> counters.refund(QUOTA + 1, KEY, 1, clock.instant()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("has no limits per window");
        assertThat(totalAcrossWindows()).as("nothing was changed").isEqualTo(3);
    }

    /**
     * An idempotency key of a windowed type is kept as long as the type's longest window (two
     * hours for an hour: the one the clocks go back), though the retention asked is shorter, so
     * that a retry can never charge a window twice.
     */
    @Test
    void idempotencyKeys_ofAWindowedType_outliveItsLongestWindow_notJustTheRetention() {
        MutableClock clock = new MutableClock();
        SlottedCounters counters = migrated(instance("one", clock).idempotencyRetention(Duration.ofMinutes(30))
                .limits(QUOTA, Limits.atMost(100).per(Window.HOUR)));
        assertThat(counters.add(QUOTA, KEY, 1, "charge-1")).isTrue();

        clock.advance(Duration.ofMinutes(90)); // past the retention, within two hours
        assertThat(counters.add(QUOTA, KEY, 1, "charge-2")).isTrue(); // a keyed write prunes what is due
        assertThat(counters.add(QUOTA, KEY, 1, "charge-1")).as("still remembered").isFalse();

        clock.advance(Duration.ofHours(3));
        assertThat(counters.add(QUOTA, KEY, 1, "charge-3")).isTrue();
        assertThat(counters.add(QUOTA, KEY, 1, "charge-1")).as("forgotten once the longest window passed").isTrue();
    }

    /**
     * The process's own clock decides an increment's window: a process whose clock runs an hour
     * ahead counts into the next hour's window, and each window keeps its bound.
     */
    @Test
    void aSkewedProcess_countsInTheWindowOfItsOwnClock_andEachWindowKeepsItsBound() {
        MutableClock clock = new MutableClock();
        MutableClock ahead = new MutableClock();
        ahead.advance(Duration.ofHours(1));
        Limits quota = Limits.atMost(3).per(Window.HOUR);
        SlottedCounters onTime = migrated(instance("on-time", clock).limits(QUOTA, quota));
        SlottedCounters skewed = counters(instance("skewed", ahead).limits(QUOTA, quota));

        assertThat(onTime.tryAdd(QUOTA, KEY, 3)).isTrue();
        assertThat(skewed.tryAdd(QUOTA, KEY, 3)).as("its clock says the next hour").isTrue();
        assertThat(onTime.tryAdd(QUOTA, KEY, 1)).isFalse();
        assertThat(skewed.tryAdd(QUOTA, KEY, 1)).isFalse();
        assertThat(windowCounts()).containsExactly(Map.entry(MIDNIGHT, 3L),
                Map.entry(MIDNIGHT.plus(Duration.ofHours(1)), 3L));
    }

    /**
     * The window is recorded with the limits: a process given none counts in the recorded windows,
     * and one given another window refuses to write.
     */
    @Test
    void theWindowIsRecorded_aProcessGivenNoneFollowsIt_andOneGivenAnotherRefusesToWrite() {
        MutableClock clock = new MutableClock();
        SlottedCounters first = migrated(instance("first", clock).limits(QUOTA, Limits.atMost(2).per(Window.DAY)));
        first.add(QUOTA, KEY, 1);
        SlottedCounters follower = counters(instance("follower", clock));
        SlottedCounters other = counters(instance("other", clock).limits(QUOTA, Limits.atMost(2).per(Window.HOUR)));

        assertThat(follower.tryAdd(QUOTA, KEY, 1)).isTrue();
        assertThat(follower.tryAdd(QUOTA, KEY, 1)).as("the recorded window is full").isFalse();
        assertThatThrownBy(() -> other.add(QUOTA, KEY, 1)).isInstanceOf(SlottedException.class)
                .hasMessageContaining("0..2/day").hasMessageContaining("0..2/hour");
        assertThat(windowCounts()).containsExactly(Map.entry(MIDNIGHT, 2L));
    }

    /**
     * A set is refused: a windowed counter's count is what increments added in its window. A batch
     * counts each of its increments in its window, refused whole if one does not fit.
     */
    @Test
    void aSetIsRefused_andABatchIsDecidedWhole() {
        MutableClock clock = new MutableClock();
        SlottedCounters counters = migrated(instance("one", clock).limits(QUOTA, Limits.atMost(5).per(Window.DAY)));

        assertThatThrownBy(() -> counters.admin().set(QUOTA, KEY, 3)).isInstanceOf(SlottedException.class)
                .hasMessageContaining("limits per window (0..5/day)").hasMessageContaining("nothing was changed");
        assertThat(counters.tryAdd(QUOTA, KEY, 5)).isTrue();
        assertThat(counters.get(QUOTA, KEY)).isEqualTo(5);
        assertThatThrownBy(() -> counters.addAll(List.of(new Increment(QUOTA, KEY + 1, 2),
                new Increment(QUOTA, KEY, 1)))).isInstanceOf(QuotaExceededException.class);
        assertThat(counters.get(QUOTA, KEY + 1)).as("nothing of the refused batch").isZero();
        counters.addAll(List.of(new Increment(QUOTA, KEY + 1, 2), new Increment(QUOTA, KEY + 1, 3)));
        assertThat(windowCounts()).containsExactly(Map.entry(MIDNIGHT, 5L));
        assertThat(windowCounts(KEY + 1)).containsExactly(Map.entry(MIDNIGHT, 5L));
    }

    /** The keeper removes windows older than the one before the current one. */
    @Test
    void oldWindows_areRemovedByTheKeeper_theCurrentAndThePreviousOneKept() {
        MutableClock clock = new MutableClock();
        SlottedCounters counters = migrated(instance("one", clock).limits(QUOTA, Limits.atMost(5).per(Window.MINUTE)));
        for (int minute = 0; minute < 4; minute++) {
            counters.add(QUOTA, KEY, 1 + minute);
            clock.advance(Duration.ofMinutes(1));
        }
        clock.advance(Duration.ofMinutes(-1));

        ((DefaultSlottedCounters) counters).keepBucketsNow();

        assertThat(windowCounts()).containsExactly(Map.entry(MIDNIGHT.plus(Duration.ofMinutes(2)), 3L),
                Map.entry(MIDNIGHT.plus(Duration.ofMinutes(3)), 4L));
        assertThat(counters.get(QUOTA, KEY)).isEqualTo(4);
        assertThat(totalAcrossWindows()).isEqualTo(10);
    }

    /**
     * A limiter's answers: addAndGet and each increment of addAllAndGet answer the window's count
     * right after them, get and getAll the current window's count.
     */
    @Test
    void answers_areTheWindowsCount() {
        MutableClock clock = new MutableClock();
        SlottedCounters counters = migrated(instance("one", clock).limits(QUOTA, Limits.atMost(10).per(Window.HOUR)));

        assertThat(counters.addAndGet(QUOTA, KEY, 3)).isEqualTo(3);
        assertThat(counters.addAndGet(QUOTA, KEY, 2)).isEqualTo(5);
        assertThat(counters.addAllAndGet(List.of(new Increment(QUOTA, KEY, 1), new Increment(QUOTA, KEY + 1, 4),
                new Increment(QUOTA, KEY, 2)))).containsExactly(6L, 4L, 8L);
        clock.advance(Duration.ofHours(1));
        assertThat(counters.addAndGet(QUOTA, KEY, 1)).as("a new window").isEqualTo(1);
        assertThat(counters.getAll(QUOTA, List.of(KEY, KEY + 1))).containsExactly(Map.entry(KEY, 1L),
                Map.entry(KEY + 1, 0L));
        assertThat(counters.addAndGetAsync(QUOTA, KEY, 2).join()).isEqualTo(3);
    }

    @Test
    void aWindowedTypeTakesNoBucketsOfItsOwn() {
        assertThatThrownBy(() -> SlottedCounters.builder(db.dataSource()).table(table)
                .limits(QUOTA, Limits.atMost(5).per(Window.DAY)).buckets(QUOTA, BucketUnit.HOUR, Duration.ofDays(1))
                .build()).isInstanceOf(IllegalStateException.class).hasMessageContaining("give it no buckets");
    }

    private Map<Instant, Long> windowCounts() {
        return windowCounts(KEY);
    }

    /** The key's total over every window, as SQL sums its slot rows. */
    private long totalAcrossWindows() {
        try (Connection connection = db.dataSource().getConnection(); Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SELECT COALESCE(SUM(count), 0) FROM " + table
                        + " WHERE record_type = " + QUOTA + " AND record_id = " + KEY)) {
            row.next();
            return row.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The key's count per window, as SQL sums its rows. */
    private Map<Instant, Long> windowCounts(long recordId) {
        Map<Instant, Long> windows = new TreeMap<>();
        try (Connection connection = db.dataSource().getConnection(); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT bucket_start, SUM(count) FROM " + table + "_buckets"
                        + " WHERE record_type = " + QUOTA + " AND record_id = " + recordId + " GROUP BY bucket_start")) {
            while (rows.next()) {
                windows.put(Instant.ofEpochSecond(rows.getLong(1)), rows.getLong(2));
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return windows;
    }
}
