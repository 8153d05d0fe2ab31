package io.slotted;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import io.slotted.db.TestDatabase;
import io.slotted.db.TestDatabases;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Counters that expire, as Redis keys do: an expired counter reads 0 and counts from 0 again, the
 * options of {@code EXPIRE} decide as Redis's do, and increments racing expiries from three
 * instances each count in exactly one of the counter's lives. On every database, in both modes
 * that tell each caller the total after its increment.
 */
@ParameterizedClass(name = "[{arguments}]")
@MethodSource("databasesInModes")
class ExpirySuite extends CounterTableTest {
    private static final int TYPE = 12;
    private static final long KEY = 7;

    private final WriteMode mode;
    private final List<HikariDataSource> pools = new ArrayList<>();

    ExpirySuite(TestDatabase db, WriteMode mode) {
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
        return SlottedCounters.builder(pool).table(table).writeMode(mode).clock(clock).expiring(TYPE);
    }

    @Test
    void anExpiredCounter_readsZero_andCountsFromZeroWithoutAnExpiry() {
        MutableClock clock = MutableClock.followingTheSystemClock();
        SlottedCounters counters = migrated(instance("a", clock));
        counters.add(TYPE, KEY, 5);
        CounterExpiry expiry = counters.expiry();

        assertThat(expiry.expireIn(TYPE, KEY, Duration.ofSeconds(10))).isTrue();
        assertThat(expiry.expiresAt(TYPE, KEY)).hasValueSatisfying(at ->
                assertThat(Duration.between(clock.instant(), at)).isBetween(Duration.ofSeconds(9), Duration.ofSeconds(10)));
        counters.add(TYPE, KEY, 2);
        assertThat(counters.get(TYPE, KEY)).as("an increment keeps the expiry, as INCR does").isEqualTo(7);
        assertThat(expiry.expiresAt(TYPE, KEY)).isPresent();

        clock.advance(Duration.ofSeconds(11));
        assertThat(counters.get(TYPE, KEY)).as("expired").isZero();
        assertThat(counters.getAll(TYPE, List.of(KEY, 8L))).containsExactly(Map.entry(KEY, 0L), Map.entry(8L, 0L));
        assertThat(expiry.expiresAt(TYPE, KEY)).isEmpty();
        assertThat(counters.addAndGet(TYPE, KEY, 3)).as("counts from 0 again").isEqualTo(3);
        assertThat(counters.get(TYPE, KEY)).isEqualTo(3);
        assertThat(expiry.expiresAt(TYPE, KEY)).as("a new counter has no expiry").isEmpty();
        assertThat(sqlLong("SELECT SUM(count) FROM " + table + " WHERE record_type = " + TYPE)).isEqualTo(3);
    }

    @Test
    void expireOptions_decideAsRedisDoes_andACounterThatReadsZeroTakesNoExpiry() {
        MutableClock clock = MutableClock.followingTheSystemClock();
        SlottedCounters counters = migrated(instance("a", clock));
        CounterExpiry expiry = counters.expiry();
        Instant now = clock.instant();
        assertThat(expiry.expireAt(TYPE, KEY, now.plusSeconds(60))).as("absent").isFalse();
        counters.add(TYPE, KEY, 1);

        assertThat(expiry.expireAt(TYPE, KEY, now.plusSeconds(60), ExpiryRule.IF_SET)).isFalse();
        assertThat(expiry.expireAt(TYPE, KEY, now.plusSeconds(60), ExpiryRule.IF_LATER)).isFalse();
        assertThat(expiry.expireAt(TYPE, KEY, now.plusSeconds(60), ExpiryRule.IF_NONE)).isTrue();
        assertThat(expiry.expireAt(TYPE, KEY, now.plusSeconds(90), ExpiryRule.IF_NONE)).isFalse();
        assertThat(expiry.expireAt(TYPE, KEY, now.plusSeconds(30), ExpiryRule.IF_LATER)).isFalse();
        assertThat(expiry.expireAt(TYPE, KEY, now.plusSeconds(90), ExpiryRule.IF_LATER)).isTrue();
        assertThat(expiry.expireAt(TYPE, KEY, now.plusSeconds(120), ExpiryRule.IF_EARLIER)).isFalse();
        assertThat(expiry.expireAt(TYPE, KEY, now.plusSeconds(45), ExpiryRule.IF_EARLIER)).isTrue();
        assertThat(expiry.expiresAt(TYPE, KEY)).hasValue(Instant.ofEpochMilli(now.plusSeconds(45).toEpochMilli()));

        assertThat(expiry.persist(TYPE, KEY)).isTrue();
        assertThat(expiry.persist(TYPE, KEY)).isFalse();
        assertThat(expiry.expiresAt(TYPE, KEY)).isEmpty();
        assertThat(expiry.expireAt(TYPE, KEY, now.plusSeconds(45), ExpiryRule.IF_EARLIER)).as("none is later than any")
                .isTrue();

        assertThat(expiry.expireAt(TYPE, KEY, now.minusSeconds(1))).as("a time past clears it now").isTrue();
        assertThat(counters.get(TYPE, KEY)).isZero();
        assertThat(sqlLong("SELECT COUNT(*) FROM " + table + " WHERE record_type = " + TYPE)).isZero();
    }

    @Test
    void setUntil_setsTheCountAndTheExpiry_andAPlainSetTakesTheExpiryAway() {
        MutableClock clock = MutableClock.followingTheSystemClock();
        SlottedCounters counters = migrated(instance("a", clock));
        CounterExpiry expiry = counters.expiry();
        counters.add(TYPE, KEY, 40);

        expiry.setUntil(TYPE, KEY, 7, clock.instant().plusSeconds(5));
        assertThat(counters.get(TYPE, KEY)).isEqualTo(7);
        assertThat(expiry.expiresAt(TYPE, KEY)).isPresent();
        counters.admin().set(TYPE, KEY, 9);
        assertThat(expiry.expiresAt(TYPE, KEY)).as("SET takes the expiry away").isEmpty();

        expiry.setUntil(TYPE, KEY, 11, clock.instant().plusSeconds(5));
        clock.advance(Duration.ofSeconds(6));
        assertThat(counters.get(TYPE, KEY)).isZero();
    }

    @Test
    void aTypeThatDoesNotExpire_isRefused_andAnExpiringTypeTakesNoLimitsShrinkOrOwnerColumn() {
        SlottedCounters counters = migrated(instance("a", Clock.systemUTC()));
        assertThatThrownBy(() -> counters.expiry().expireIn(TYPE + 1, KEY, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("does not expire")
                .hasMessageContaining("expiring(" + (TYPE + 1) + ")");
        assertThatThrownBy(() -> instance("b", Clock.systemUTC()).limits(TYPE, Limits.atLeast(0)).build())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("takes no limits");
        assertThatThrownBy(() -> counters.admin().shrink(TYPE, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not shrunk");
        assertThatThrownBy(() -> counters.owners().adopt(TYPE, OwnerColumn.parse("owners.id.n"), OwnerMode.FOLD))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("folds into no owner column");
    }

    @Test
    void aProcessNotToldTheTypeExpires_followsTheRegistry_andTakesTheLock() {
        MutableClock clock = MutableClock.followingTheSystemClock();
        SlottedCounters told = migrated(instance("told", clock));
        told.add(TYPE, KEY, 5);
        assertThat(told.expiry().expireIn(TYPE, KEY, Duration.ofSeconds(10))).isTrue();
        HikariDataSource pool = db.applicationPool(table + "-untold", 8);
        pools.add(pool);
        SlottedCounters untold = counters(SlottedCounters.builder(pool).table(table).writeMode(mode).clock(clock));

        clock.advance(Duration.ofSeconds(11));
        untold.add(TYPE, KEY, 2);
        assertThat(untold.get(TYPE, KEY)).as("its write cleared the expired counter first").isEqualTo(2);
        assertThat(told.get(TYPE, KEY)).isEqualTo(2);
        assertThat(untold.expiry().expireIn(TYPE, KEY, Duration.ofSeconds(10))).as("it may expire it too").isTrue();
        assertThat(sqlLong("SELECT expiring FROM " + table + "_types WHERE record_type = " + TYPE)).isEqualTo(1);
    }

    @Test
    void theSweep_removesExpiredCounters_andLeavesTheRest() throws Exception {
        MutableClock clock = MutableClock.followingTheSystemClock();
        SlottedCounters counters = migrated(instance("a", clock));
        for (long id = 1; id <= 20; id++) {
            counters.add(TYPE, id, id);
            if (id <= 15) {
                counters.expiry().expireIn(TYPE, id, Duration.ofSeconds(id <= 10 ? 5 : 500));
            }
        }
        clock.advance(Duration.ofSeconds(6));
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (sqlLong("SELECT COUNT(*) FROM " + table + "_expiry") > 10 && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertThat(sqlLong("SELECT COUNT(*) FROM " + table + "_expiry")).as("expiry rows left").isEqualTo(10);
        assertThat(sqlLong("SELECT COUNT(DISTINCT record_id) FROM " + table + " WHERE record_type = " + TYPE)).as("counters with rows").isEqualTo(10);
        assertThat(sqlLong("SELECT SUM(count) FROM " + table + " WHERE record_type = " + TYPE)).isEqualTo(11 + 12 + 13 + 14 + 15 + 16 + 17 + 18 + 19 + 20);
    }

    /**
     * 24 writers on three instances add 1 to one counter while each instance gives the counter
     * expiries of 5 to 30 ms, for three seconds; then the test clears it once, by an expiry in
     * the past, and the writers go on for a second. The counter then holds exactly the increments
     * made after the clearing: at least those begun after it returned, at most those and the ones
     * under way while it ran. An increment carried from an expired life, counted twice or lost
     * breaks that. Each caller also learns the total right after its own increment (a grouped
     * flush tells its callers distinct totals, as Redis's {@code INCR} does): every life counts
     * 1, 2, 3 … from 0, so no total is seen by more increments than the total one lower.
     */
    @Test
    void increments_racingExpiriesFromThreeInstances_eachCountInExactlyOneLife() throws Exception {
        List<SlottedCounters> instances = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            SlottedCountersBuilder builder = instance("p" + i, Clock.systemUTC());
            instances.add(i == 0 ? migrated(builder) : counters(builder));
        }
        Map<Long, AtomicLong> seen = new ConcurrentHashMap<>();
        List<long[]> writes = Collections.synchronizedList(new ArrayList<>());
        AtomicLong expiries = new AtomicLong();
        long start = System.nanoTime();
        long expiringEnd = start + Duration.ofSeconds(3).toNanos();
        long clearAt = expiringEnd + Duration.ofMillis(100).toNanos();
        long writingEnd = clearAt + Duration.ofSeconds(1).toNanos();
        long[] clearing = new long[2];
        CountDownLatch expirersDone = new CountDownLatch(3);

        runConcurrently(28, t -> {
            SlottedCounters counters = instances.get(t % 3);
            Random random = new Random(20261202L + t);
            if (t < 3) {
                while (System.nanoTime() < expiringEnd) {
                    if (counters.expiry().expireIn(TYPE, KEY, Duration.ofMillis(5 + random.nextInt(26)))) {
                        expiries.incrementAndGet();
                    }
                    Thread.sleep(random.nextInt(30));
                }
                expirersDone.countDown();
                return;
            }
            if (t == 3) {
                expirersDone.await(); // no expiry given after the clearing begins
                Thread.sleep(Math.max(0, (clearAt - System.nanoTime()) / 1_000_000));
                clearing[0] = System.nanoTime();
                counters.expiry().expireAt(TYPE, KEY, Instant.now().minusSeconds(1));
                clearing[1] = System.nanoTime();
                return;
            }
            while (System.nanoTime() < writingEnd) {
                long begun = System.nanoTime();
                long total = counters.addAndGet(TYPE, KEY, 1);
                seen.computeIfAbsent(total, k -> new AtomicLong()).incrementAndGet();
                writes.add(new long[] {begun, System.nanoTime()});
            }
        });

        long after = writes.stream().filter(w -> w[0] > clearing[1]).count();
        long during = writes.stream().filter(w -> w[0] <= clearing[1] && w[1] >= clearing[0]).count();
        long total = instances.get(2).get(TYPE, KEY);
        System.out.println(db + " " + mode + ": " + expiries + " expiries, " + writes.size() + " increments; "
                + after + " begun after the clearing, " + during + " under way during it; the counter holds " + total);
        assertThat(expiries.get()).as("expiries given").isGreaterThan(10);
        assertThat(after).as("increments after the clearing").isPositive();
        assertThat(total).as("the increments after the clearing, and some of those under way").isBetween(after,
                after + during);
        TreeMap<Long, Long> counts = new TreeMap<>();
        seen.forEach((value, n) -> counts.put(value, n.get()));
        assertThat(counts.firstKey()).as("the lowest total seen").isEqualTo(1);
        assertThat(counts.get(1L)).as("lives that counted").isGreaterThan(5);
        long previous = Long.MAX_VALUE;
        for (Map.Entry<Long, Long> entry : counts.entrySet()) {
            assertThat(entry.getValue()).as("increments that saw total %d, not more than saw %d",
                    entry.getKey(), entry.getKey() - 1).isLessThanOrEqualTo(previous);
            previous = entry.getValue();
        }
    }

    private long sqlLong(String sql) {
        try (Connection connection = db.dataSource().getConnection();
                Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery(sql)) {
            row.next();
            return row.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }
}
