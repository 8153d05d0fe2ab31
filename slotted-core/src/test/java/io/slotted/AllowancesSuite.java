package io.slotted;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import io.slotted.db.ServerTestDatabase;
import io.slotted.db.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * How a bounded counter's headroom moves between the flushers of several processes: a flusher
 * given an allowance spends it without the counter's lock; one whose allowance does not cover its
 * increments takes the lock, and takes back what other flushers hold when the headroom left needs
 * it, so that nothing is stranded in another process's allowance. Each instance runs one flusher,
 * on a pool of its own, as a process would.
 */
@ParameterizedClass(name = "[{arguments}]")
@MethodSource("io.slotted.db.TestDatabases#all")
class AllowancesSuite extends CounterTableTest {
    private static final int STOCK = 7;
    private static final int QUOTA = 8;
    private static final long ITEM = 1;

    private final List<HikariDataSource> pools = new ArrayList<>();
    private final ExecutorService callers = Executors.newCachedThreadPool();

    AllowancesSuite(TestDatabase db) {
        super(db);
    }

    @AfterEach
    void closePools() {
        callers.shutdownNow();
        pools.forEach(HikariDataSource::close);
    }

    private SlottedCounters instance(String name, int recordType, Limits limits) {
        return instance(name, recordType, limits, WriteMode.GROUPED);
    }

    private SlottedCounters instance(String name, int recordType, Limits limits, WriteMode mode) {
        HikariDataSource pool = db.applicationPool(table + "-" + name, 4);
        pools.add(pool);
        SlottedCountersBuilder builder = SlottedCounters.builder(pool).table(table).writeMode(mode).flushers(1)
                .limits(recordType, limits);
        return pools.size() == 1 ? migrated(builder) : counters(builder);
    }

    @Test
    void farFromTheBound_aFlushSpendsItsAllowance_withoutWaitingForTheCountersLock() throws Exception {
        SlottedCounters counters = instance("p0", STOCK, Limits.atLeast(0));
        counters.add(STOCK, ITEM, 1000);
        assertThat(counters.tryAdd(STOCK, ITEM, -1)).isTrue();
        assertThat(allowances(STOCK)).as("the first decrement, under the lock, gave the flusher an eighth"
                + " of the headroom left").containsExactly(124L);
        assertThat(counters.tryAdd(STOCK, ITEM, -1)).isTrue();
        assertThat(allowances(STOCK)).as("the second, under the lock too, found the row: an eighth of 998"
                + " is still 124").containsExactly(124L);

        Connection holder = lockCounter(STOCK);
        try {
            Future<Boolean> spent = callers.submit(() -> counters.tryAdd(STOCK, ITEM, -3));
            assertThat(spent.get(30, TimeUnit.SECONDS)).as("spent from the allowance while another"
                    + " transaction held the counter's lock").isTrue();
            assertThat(allowances(STOCK)).containsExactly(121L);

            Future<Boolean> waiting = callers.submit(() -> counters.tryAdd(STOCK, ITEM, -200));
            Thread.sleep(1000);
            assertThat(waiting).as("a decrement its allowance does not cover waits for the lock").isNotDone();
            holder.rollback();
            assertThat(waiting.get(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            holder.close();
        }
        assertThat(sum(STOCK)).isEqualTo(1000 - 1 - 1 - 3 - 200);
        assertThat(counters.get(STOCK, ITEM)).isEqualTo(795);
    }

    @Test
    void aProcessNeedingTheLastUnits_takesBackWhatAnotherProcessesFlusherHolds() {
        SlottedCounters first = instance("p0", STOCK, Limits.atLeast(0));
        SlottedCounters second = instance("p1", STOCK, Limits.atLeast(0), WriteMode.DIRECT);
        first.add(STOCK, ITEM, 81);
        assertThat(first.tryAdd(STOCK, ITEM, -1)).isTrue();
        assertThat(allowances(STOCK)).as("the first process's flusher holds an eighth of the 80 left")
                .containsExactly(10L);

        assertThat(second.tryAdd(STOCK, ITEM, -80)).as("the whole of what is left is sold, the first"
                + " process's allowance included").isTrue();
        assertThat(sum(STOCK)).isZero();
        assertThat(allowances(STOCK)).as("taken back").allMatch(count -> count == 0);
        assertThat(first.tryAdd(STOCK, ITEM, -1)).isFalse();
        assertThat(second.tryAdd(STOCK, ITEM, -1)).isFalse();
        assertThat(sum(STOCK)).isZero();
    }

    @Test
    void anUpperBound_holdsItsAllowancesBelowZero_andTakesThemBackTheSameWay() {
        SlottedCounters first = instance("p0", QUOTA, Limits.atMost(100));
        SlottedCounters second = instance("p1", QUOTA, Limits.atMost(100), WriteMode.DIRECT);
        assertThat(first.tryAdd(QUOTA, ITEM, 4)).isTrue();
        assertThat(allowances(QUOTA)).as("an eighth of the 96 left, held as a count below 0")
                .containsExactly(-12L);
        assertThat(first.tryAdd(QUOTA, ITEM, 2)).isTrue();
        assertThat(allowances(QUOTA)).as("decided under the lock again, which found the row: an eighth of"
                + " the 94 left").containsExactly(-11L);
        assertThat(first.tryAdd(QUOTA, ITEM, 3)).isTrue();
        assertThat(allowances(QUOTA)).as("spent").containsExactly(-8L);

        assertThat(second.tryAdd(QUOTA, ITEM, 91)).isTrue();
        assertThat(sum(QUOTA)).isEqualTo(100);
        assertThat(first.tryAdd(QUOTA, ITEM, 1)).isFalse();
        assertThat(first.tryAdd(QUOTA, ITEM, -30)).as("moving away from the bound is never refused").isTrue();
        assertThat(first.get(QUOTA, ITEM)).isEqualTo(70);
    }

    @Test
    void allowancesArePartOfTheTotal_andASetReplacesThemWithTheNewCount() {
        SlottedCounters counters = instance("p0", STOCK, Limits.atLeast(0));
        counters.add(STOCK, ITEM, 801);
        assertThat(counters.tryAdd(STOCK, ITEM, -1)).isTrue();
        assertThat(allowances(STOCK)).containsExactly(100L);
        assertThat(counters.get(STOCK, ITEM)).isEqualTo(800);

        counters.admin().set(STOCK, ITEM, 50);
        assertThat(sum(STOCK)).isEqualTo(50);
        assertThat(allowances(STOCK)).as("a set replaces every row's count, and leaves allowance rows at 0:"
                + " they are never deleted").containsExactly(0L);
        assertThat(counters.tryAdd(STOCK, ITEM, -50)).isTrue();
        assertThat(counters.tryAdd(STOCK, ITEM, -1)).isFalse();
        assertThat(counters.get(STOCK, ITEM)).isZero();
    }

    @Test
    void anAllowanceRowDeletedByHand_whileItsFlusherSpendsFromIt_failsTheFlush_andNothingOfItCounts() throws SQLException {
        SlottedCounters counters = instance("p0", STOCK, Limits.atLeast(0));
        counters.add(STOCK, ITEM, 1000);
        assertThat(counters.tryAdd(STOCK, ITEM, -1)).isTrue();
        assertThat(counters.tryAdd(STOCK, ITEM, -1)).isTrue();
        assertThat(counters.tryAdd(STOCK, ITEM, -1)).isTrue();
        assertThat(allowances(STOCK)).as("the third was spent from the allowance").containsExactly(123L);

        db.execute("DELETE FROM " + table + " WHERE record_type = " + STOCK + " AND slot < 0");
        if (!(db instanceof ServerTestDatabase)) {
            // H2 spends in the flush's transaction, where a missing row is one that does not
            // cover the spend: the transaction is rolled back and the decrement decided under the lock.
            assertThat(counters.tryAdd(STOCK, ITEM, -1)).isTrue();
            assertThat(sum(STOCK)).isEqualTo(1000 - 4 - 123);
            return;
        }
        assertThatThrownBy(() -> counters.tryAdd(STOCK, ITEM, -1)).isInstanceOf(SlottedException.class)
                .hasMessageContaining("allowance row").hasMessageContaining("must not be deleted by hand");
        assertThat(sum(STOCK)).as("the 123 deleted by hand, and nothing of the failed decrement")
                .isEqualTo(1000 - 3 - 123);
    }

    @Test
    void aFlusherAwayLongerThanItsMarkIsSurelyKept_spendsInTheLedgersTransaction_whichPutsItsMarkBack() {
        MutableClock clock = new MutableClock();
        HikariDataSource pool = db.applicationPool(table + "-away", 4);
        pools.add(pool);
        SlottedCounters counters = migrated(SlottedCounters.builder(pool).table(table).flushers(1)
                .limits(STOCK, Limits.atLeast(0)).clock(clock));
        counters.add(STOCK, ITEM, 1000);
        assertThat(counters.tryAdd(STOCK, ITEM, -1)).isTrue();
        assertThat(counters.tryAdd(STOCK, ITEM, -1)).as("found its allowance row: it spends from it now").isTrue();

        // Away for more than a day, the flusher is taken for gone: another process prunes its
        // ledger row and its mark. A plain UPDATE of the mark would now spend without marking.
        clock.advance(Duration.ofHours(25));
        db.execute("DELETE FROM " + table + "_ledger");
        db.execute("DELETE FROM " + table + " WHERE record_type = " + SlottedCounters.RESERVED_RECORD_TYPE);

        assertThat(counters.tryAdd(STOCK, ITEM, -3)).isTrue();
        assertThat(sum(STOCK)).isEqualTo(1000 - 5);
        assertThat(rowsOfType(SlottedCounters.RESERVED_RECORD_TYPE)).as("its mark, put back by the claim").isEqualTo(1);
        assertThat(counters.tryAdd(STOCK, ITEM, -2)).isTrue();
        assertThat(sum(STOCK)).isEqualTo(1000 - 7);
    }

    /** Opens a transaction holding the counter's lock, its slot 0 row, as a decision does. */
    private Connection lockCounter(int recordType) throws SQLException {
        Connection holder = db.dataSource().getConnection();
        holder.setAutoCommit(false);
        try (PreparedStatement lock = holder.prepareStatement("SELECT count FROM " + table
                + " WHERE record_type = ? AND record_id = ? AND slot = 0 FOR UPDATE")) {
            lock.setInt(1, recordType);
            lock.setLong(2, ITEM);
            try (ResultSet row = lock.executeQuery()) {
                assertThat(row.next()).as("the counter's slot 0 row").isTrue();
            }
        }
        return holder;
    }

    /** The counter's allowance rows, the rows below slot 0, by slot. */
    private List<Long> allowances(int recordType) {
        Map<Integer, Long> rows = new TreeMap<>();
        try (Connection connection = db.dataSource().getConnection();
                PreparedStatement select = connection.prepareStatement("SELECT slot, count FROM " + table
                        + " WHERE record_type = ? AND record_id = ? AND slot < 0")) {
            select.setInt(1, recordType);
            select.setLong(2, ITEM);
            try (ResultSet row = select.executeQuery()) {
                while (row.next()) {
                    rows.put(row.getInt(1), row.getLong(2));
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return List.copyOf(rows.values());
    }

    private long rowsOfType(int recordType) {
        try (Connection connection = db.dataSource().getConnection();
                PreparedStatement select = connection.prepareStatement("SELECT COUNT(*) FROM " + table
                        + " WHERE record_type = ?")) {
            select.setInt(1, recordType);
            try (ResultSet row = select.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private long sum(int recordType) {
        return sumOfRows(recordType, ITEM);
    }
}
