package io.slotted;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import io.slotted.db.CommitCuttingProxy;
import io.slotted.db.CommitCuttingProxy.Cut;
import io.slotted.db.ServerTestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A roller whose connection is cut while it commits a roll-up, by a proxy on loopback: before the
 * server received the COMMIT (the roll-up is rolled back) and after (it committed, the roller never
 * heard). Either way nothing is lost or moved twice, reads stay exact, and the next roll-up, by
 * another instance, converges. A release of a copy-mode type is cut alike at each of its COMMITs
 * while writers go on incrementing, and loses nothing. It runs on every database a proxy can stand
 * in front of.
 */
@ParameterizedClass(name = "[{arguments}]")
@MethodSource("io.slotted.db.TestDatabases#servers")
class RollUpFaultSuite {
    private static final AtomicInteger TABLES = new AtomicInteger();
    private static final int TYPE = 4;

    private final ServerTestDatabase db;
    private String table;
    private CommitCuttingProxy proxy;
    private HikariDataSource viaProxy;

    RollUpFaultSuite(ServerTestDatabase db) {
        this.db = db;
    }

    @BeforeEach
    void proxyInFront() throws Exception {
        table = "rfault_" + ProcessHandle.current().pid() + "_" + TABLES.incrementAndGet();
        proxy = new CommitCuttingProxy(db.host(), db.port());
        viaProxy = db.poolFor(db.jdbcUrlVia("127.0.0.1", proxy.port()), "roller-via-proxy", 4);
    }

    @AfterEach
    void cleanUp() throws Exception {
        viaProxy.close();
        proxy.close();
        db.dropCounterTables(table);
        db.dropTable(table + "_repos");
    }

    @ParameterizedTest
    @EnumSource(Cut.class)
    void rollUpCommitCut_nothingLostOrMovedTwice_andTheNextRollUpConverges(Cut how) throws SQLException {
        ownerRows(50, 1000);
        try (SlottedCounters healthy = SlottedCounters.builder(db.dataSource()).table(table).build();
                SlottedCounters roller = SlottedCounters.builder(viaProxy).table(table).build()) {
            healthy.migrate();
            healthy.owners().adopt(TYPE, OwnerColumn.parse(table + "_repos.id.downloads_count"), OwnerMode.FOLD);
            Map<Long, Long> expected = new HashMap<>();
            for (int i = 0; i < 500; i++) {
                long id = i % 50;
                healthy.add(TYPE, id, 1 + i % 3);
                expected.merge(id, 1L + i % 3, Long::sum);
            }
            expected.replaceAll((id, n) -> n + 1000);

            proxy.cutNextCommit(how);
            assertThatThrownBy(roller.owners()::rollUpNow).as("the roller lost its connection while committing")
                    .isInstanceOf(SlottedException.class);

            assertThat(proxy.cuts()).isEqualTo(1);
            assertThat(healthy.getAll(TYPE, expected.keySet())).isEqualTo(expected);
            healthy.owners().rollUpNow();
            assertThat(columns()).isEqualTo(expected);
            assertThat(healthy.getAll(TYPE, expected.keySet())).isEqualTo(expected);
        }
    }

    // ---------------------------------------------------------------- a copy-mode release cut

    /** A release's COMMITs: its copy's three transactions (500, 500 and 200 counters), then the unbinding. */
    private static final int COPY_COUNTERS = 1_200;
    private static final int COPY_RELEASE_COMMITS = 4;
    private static final int WRITERS = 4;

    static Stream<Arguments> copyReleaseCuts() {
        return Stream.of(Cut.values()).flatMap(how -> Stream.iterate(1, commit -> commit + 1)
                .limit(COPY_RELEASE_COMMITS).map(commit -> Arguments.of(how, commit)));
    }

    /**
     * A release of a copy-mode type whose connection is cut at one of its COMMITs: the copies of
     * the slots into the column, or the unbinding. Writers increment every counter all along, and
     * a reader checks each counter against what they were acknowledged before it read and what
     * they had begun when it was done: during the release, after the cut, and during the release
     * run again to finish. At the end the column and what increments left in the slots after the
     * release add up to exactly what the writers were acknowledged.
     */
    @ParameterizedTest(name = "{0} at COMMIT {1}")
    @MethodSource("copyReleaseCuts")
    void copyRelease_cutAtEachCommit_losesNothing_andReleasingAgainFinishes(Cut how, int commit) throws Exception {
        ownerRows(COPY_COUNTERS, 0);
        OwnerColumn owner = OwnerColumn.parse(table + "_repos.id.downloads_count");
        long seed = 20261128L + commit;
        System.out.println(db + " " + how + " at COMMIT " + commit + ": writers' seed " + seed);
        ExecutorService threads = Executors.newFixedThreadPool(WRITERS + 1);
        try (SlottedCounters healthy = SlottedCounters.builder(db.dataSource()).table(table).build();
                SlottedCounters releaser = SlottedCounters.builder(viaProxy).table(table).build()) {
            healthy.migrate();
            healthy.owners().adopt(TYPE, owner, OwnerMode.COPY);
            Tally tally = new Tally();
            List<Increment> fill = new ArrayList<>();
            for (long id = 0; id < COPY_COUNTERS; id++) {
                fill.add(new Increment(TYPE, id, id + 1));
            }
            tally.add(fill, () -> healthy.addAll(fill));
            AtomicBoolean writing = new AtomicBoolean(true);
            List<Future<?>> writers = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                Random random = new Random(seed + w);
                writers.add(threads.submit(() -> {
                    while (writing.get()) {
                        Increment one = new Increment(TYPE, random.nextInt(COPY_COUNTERS), 1 + random.nextInt(5));
                        tally.add(List.of(one), () -> healthy.add(TYPE, one.recordId(), one.delta()));
                    }
                    return null;
                }));
            }
            AtomicLong checks = new AtomicLong();
            Future<?> reader = threads.submit(() -> {
                while (writing.get()) {
                    readsWithinTally(healthy, tally);
                    checks.incrementAndGet();
                }
                return null;
            });

            long acknowledgedBefore = total(tally.acknowledged);
            proxy.cutCommitStatementAfter(commit - 1, how);
            assertThatThrownBy(() -> releaser.owners().release(TYPE))
                    .as("the release lost its connection while committing").isInstanceOf(SlottedException.class);
            assertThat(proxy.cuts()).isEqualTo(1);
            if (how == Cut.AFTER_THE_CLIENT_GAVE_UP) {
                Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> proxy.lateDeliveries() == 1);
            }
            long checked = checks.get();
            Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> checks.get() >= checked + 3
                    || reader.isDone());
            boolean unbindingCommitted = commit == COPY_RELEASE_COMMITS && how != Cut.BEFORE_SERVER_RECEIVES;
            assertThat(bound(healthy)).as("bound after the cut").isEqualTo(!unbindingCommitted);
            if (!unbindingCommitted) {
                healthy.owners().release(TYPE);
            }
            long acknowledgedDuring = total(tally.acknowledged) - acknowledgedBefore;
            Thread.sleep(200); // increments after the release, which stay in the slots
            writing.set(false);
            for (Future<?> writer : writers) {
                writer.get(1, TimeUnit.MINUTES);
            }
            reader.get(1, TimeUnit.MINUTES);

            assertThat(acknowledgedDuring).as("counts acknowledged during the releases").isPositive();
            assertThat(checks.get()).as("reads checked").isGreaterThan(checked);
            assertThat(bound(healthy)).isFalse();
            assertThat(tally.begun).as("every increment begun was acknowledged").isEqualTo(tally.acknowledged);
            assertThat(plus(columns(), slotSums())).as("the column, and the slots of increments after the release")
                    .isEqualTo(tally.acknowledged);
        } finally {
            threads.shutdownNow();
        }
    }

    /** What the writers began and what they were acknowledged, per counter. */
    private static final class Tally {
        final Map<Long, Long> begun = new ConcurrentHashMap<>();
        final Map<Long, Long> acknowledged = new ConcurrentHashMap<>();

        void add(List<Increment> increments, Runnable write) {
            increments.forEach(one -> begun.merge(one.recordId(), one.delta(), Long::sum));
            write.run();
            increments.forEach(one -> acknowledged.merge(one.recordId(), one.delta(), Long::sum));
        }
    }

    /**
     * Reads every counter and checks it holds at least what was acknowledged before the read and
     * at most what had begun by its end; a type unbound by then reads only what is left in its
     * slots, and is not checked.
     */
    private void readsWithinTally(SlottedCounters counters, Tally tally) {
        Map<Long, Long> least = new HashMap<>(tally.acknowledged);
        Map<Long, Long> read = new HashMap<>();
        for (long from = 0; from < COPY_COUNTERS; from += 600) {
            read.putAll(counters.getAll(TYPE, Stream.iterate(from, id -> id + 1).limit(600).toList()));
        }
        Map<Long, Long> most = new HashMap<>(tally.begun);
        if (!bound(counters)) {
            return;
        }
        for (long id = 0; id < COPY_COUNTERS; id++) {
            assertThat(read.get(id)).as("counter %d while the type is bound", id)
                    .isBetween(least.get(id), most.get(id));
        }
    }

    private static long total(Map<Long, Long> counts) {
        return counts.values().stream().mapToLong(Long::longValue).sum();
    }

    private static boolean bound(SlottedCounters counters) {
        return counters.admin().types().stream().anyMatch(type -> type.recordType() == TYPE && type.owner().isPresent());
    }

    /** The owner table, with ids 0 … count-1, each column holding {@code initial}. */
    private void ownerRows(int count, long initial) throws SQLException {
        db.execute("CREATE TABLE " + table + "_repos (id BIGINT PRIMARY KEY,"
                + " downloads_count BIGINT DEFAULT 0 NOT NULL)");
        try (Connection connection = db.dataSource().getConnection();
                PreparedStatement insert = connection.prepareStatement("INSERT INTO " + table
                        + "_repos (id, downloads_count) VALUES (?, ?)")) {
            for (long id = 0; id < count; id++) {
                insert.setLong(1, id);
                insert.setLong(2, initial);
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    private Map<Long, Long> slotSums() {
        Map<Long, Long> sums = new HashMap<>();
        try (Connection connection = db.dataSource().getConnection();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT record_id, SUM(count) FROM " + table
                        + " WHERE record_type = " + TYPE + " GROUP BY record_id")) {
            while (rows.next()) {
                sums.put(rows.getLong(1), rows.getLong(2));
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return sums;
    }

    private static Map<Long, Long> plus(Map<Long, Long> a, Map<Long, Long> b) {
        Map<Long, Long> sum = new HashMap<>(a);
        b.forEach((id, n) -> sum.merge(id, n, Long::sum));
        sum.values().removeIf(n -> n == 0);
        return sum;
    }

    private Map<Long, Long> columns() {
        Map<Long, Long> columns = new HashMap<>();
        try (Connection connection = db.dataSource().getConnection();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(
                        "SELECT id, downloads_count FROM " + table + "_repos")) {
            while (rows.next()) {
                columns.put(rows.getLong(1), rows.getLong(2));
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return columns;
    }
}
