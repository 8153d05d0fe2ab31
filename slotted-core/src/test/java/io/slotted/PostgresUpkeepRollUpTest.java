package io.slotted;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.slotted.db.PostgresTestDatabase;
import io.slotted.db.RestartableServer;
import io.slotted.db.ServerTestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Roll-ups under load on PostgreSQL with autovacuum off, as this machine's server runs, and on, as
 * a server should: on a private server set each way (autovacuum looking every second when on),
 * 32 writers increment counters drawn from a Zipf distribution for 8 s while a roll-up in fold
 * mode runs every 100 ms. Every count and every column ends exact, roll-ups complete all along,
 * and autovacuum visits the counter table when on and never when off.
 */
class PostgresUpkeepRollUpTest {
    private static final int TYPE = 7;
    private static final int OWNERS = 2_000;

    @ParameterizedTest(name = "autovacuum {0}")
    @ValueSource(booleans = {false, true})
    void rollUpsUnderLoad_withAutovacuumOffAndOn_countEveryIncrementOnce(boolean autovacuum) throws Exception {
        PostgresTestDatabase shared = PostgresTestDatabase.instance();
        RestartableServer server = shared.privateServers().orElseThrow().privateServer("upkeep");
        try {
            ServerTestDatabase db = shared.privateServers().orElseThrow().on(server);
            db.execute("ALTER SYSTEM SET autovacuum = " + (autovacuum ? "on" : "off"));
            db.execute("ALTER SYSTEM SET autovacuum_naptime = '1s'");
            db.execute("SELECT pg_reload_conf()");
            String table = "upkeep_" + ProcessHandle.current().pid() + (autovacuum ? "_on" : "_off");
            db.execute("CREATE TABLE " + table + "_owners (id BIGINT PRIMARY KEY, n BIGINT DEFAULT 0 NOT NULL)");
            db.execute("INSERT INTO " + table + "_owners (id) SELECT generate_series(0, " + (OWNERS - 1) + ")");
            try (SlottedCounters counters = SlottedCounters.builder(db.dataSource()).table(table)
                    .rollUpEvery(Duration.ofMillis(100)).build()) {
                counters.migrate();
                counters.owners().adopt(TYPE, OwnerColumn.parse(table + "_owners.id.n"), OwnerMode.FOLD);
                counters.owners().rollUpNow(); // waits out the grace a new binding gets
                long rollUpsBefore = counters.stats().rollUps();

                Map<Long, Long> expected = write(counters, 32, Duration.ofSeconds(8));

                long rollUps = counters.stats().rollUps() - rollUpsBefore;
                System.out.println("PostgreSQL, autovacuum " + (autovacuum ? "on" : "off") + ": " + rollUps
                        + " roll-ups in 8 s of writes");
                assertThat(rollUps).as("roll-ups completed while the writers wrote").isGreaterThanOrEqualTo(10);
                List<Long> ids = LongStream.range(0, OWNERS).boxed().toList();
                assertThat(counters.getAll(TYPE, ids)).isEqualTo(all(expected));
                counters.owners().rollUpNow();
                assertThat(columns(db, table + "_owners")).isEqualTo(all(expected));
            }
            if (autovacuum) {
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                        assertThat(autovacuums(db, table)).as("autovacuum visits the counter table").isPositive());
            } else {
                assertThat(autovacuums(db, table)).as("autovacuum off").isZero();
            }
        } finally {
            server.stop();
        }
    }

    private static Map<Long, Long> write(SlottedCounters counters, int threads, Duration duration) throws Exception {
        Map<Long, Long> acknowledged = new ConcurrentHashMap<>();
        Zipf zipf = new Zipf(OWNERS);
        long until = System.nanoTime() + duration.toNanos();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<java.util.concurrent.Future<?>> writers = new java.util.ArrayList<>();
            for (int t = 0; t < threads; t++) {
                long seed = 4747L + t;
                writers.add(pool.submit(() -> {
                    Random random = new Random(seed);
                    Map<Long, Long> mine = new HashMap<>();
                    while (System.nanoTime() < until) {
                        long id = zipf.next(random);
                        long delta = 1 + random.nextInt(5);
                        counters.add(TYPE, id, delta);
                        mine.merge(id, delta, Long::sum);
                    }
                    mine.forEach((id, delta) -> acknowledged.merge(id, delta, Long::sum));
                    return null;
                }));
            }
            for (var writer : writers) {
                writer.get(2, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
        return acknowledged;
    }

    private static Map<Long, Long> all(Map<Long, Long> sparse) {
        Map<Long, Long> all = new HashMap<>();
        for (long id = 0; id < OWNERS; id++) {
            all.put(id, sparse.getOrDefault(id, 0L));
        }
        return all;
    }

    private static Map<Long, Long> columns(ServerTestDatabase db, String owners) throws SQLException {
        Map<Long, Long> columns = new HashMap<>();
        try (Connection connection = db.dataSource().getConnection();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT id, n FROM " + owners)) {
            while (rows.next()) {
                columns.put(rows.getLong(1), rows.getLong(2));
            }
        }
        return columns;
    }

    private static long autovacuums(ServerTestDatabase db, String table) throws SQLException {
        try (Connection connection = db.dataSource().getConnection();
                PreparedStatement select = connection.prepareStatement(
                        "SELECT autovacuum_count FROM pg_stat_user_tables WHERE relname = ?")) {
            select.setString(1, table);
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? row.getLong(1) : 0;
            }
        }
    }
}
