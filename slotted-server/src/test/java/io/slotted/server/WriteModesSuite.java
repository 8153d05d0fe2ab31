package io.slotted.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.slotted.WriteMode;
import io.slotted.db.TestDatabase;
import io.slotted.server.ServiceClient.Response;
import io.slotted.server.config.CounterSettings;
import io.slotted.server.config.DatabaseSettings;
import io.slotted.server.config.ServerSettings;
import io.slotted.server.config.TypeNames;
import io.slotted.server.http.HttpSettings;
import io.slotted.server.resp.RespSettings;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;

/**
 * Both front ends' plain increments in every write mode: 8 Redis-protocol clients (INCRBY) and 8
 * HTTP clients add known deltas to four counters at once, and the table holds exactly their sum
 * once the service has stopped (which writes what {@code BUFFERED} still held). The
 * {@code DIRECT} path runs on the front ends' own writer threads, the others through group
 * commit; the Redis answers are checked to grow by at least each client's own deltas. On every
 * database.
 */
@ParameterizedClass(name = "[{arguments}]")
@MethodSource("io.slotted.db.TestDatabases#all")
class WriteModesSuite {
    private static final AtomicInteger TABLES = new AtomicInteger();
    private static final int CLIENTS_EACH = 8;
    private static final int PER_CLIENT = 40;

    private final TestDatabase db;

    WriteModesSuite(TestDatabase db) {
        this.db = db;
    }

    @ParameterizedTest
    @EnumSource(WriteMode.class)
    void knownDeltasFromBothFrontEnds_sumExactly(WriteMode mode) throws Exception {
        String table = "modes_" + ProcessHandle.current().pid() + "_" + TABLES.incrementAndGet();
        long expected = 0;
        for (int c = 0; c < 2 * CLIENTS_EACH; c++) {
            for (int i = 0; i < PER_CLIENT; i++) {
                expected += delta(c, i);
            }
        }
        SlottedServer server = SlottedServer.start(new ServerSettings(0, "127.0.0.1",
                new DatabaseSettings(db.jdbcUrl(), null, null), null, TypeNames.parse("views=2"),
                new CounterSettings(table, mode, null, Duration.ZERO)), HttpSettings.defaults(), RespSettings.on(0));
        ExecutorService threads = Executors.newFixedThreadPool(2 * CLIENTS_EACH);
        try {
            List<Future<?>> clients = new ArrayList<>();
            for (int c = 0; c < CLIENTS_EACH; c++) {
                int client = c;
                clients.add(threads.submit(() -> viaRedisProtocol(server, client)));
                clients.add(threads.submit(() -> viaHttp(server, CLIENTS_EACH + client, mode)));
            }
            for (Future<?> client : clients) {
                client.get(3, TimeUnit.MINUTES);
            }
        } finally {
            threads.shutdownNow();
            server.close();
        }
        try {
            assertThat(sqlSum(table)).as("%s", mode).isEqualTo(expected);
        } finally {
            db.dropCounterTables(table);
        }
    }

    private static Void viaRedisProtocol(SlottedServer server, int client) {
        try (Jedis jedis = new Jedis(new HostAndPort("127.0.0.1", server.respPort()))) {
            long[] lastSeen = new long[4];
            for (int i = 0; i < PER_CLIENT; i++) {
                int key = i % 4;
                long total = jedis.incrBy("views:" + key, delta(client, i));
                assertThat(total).isGreaterThanOrEqualTo(lastSeen[key] + delta(client, i));
                lastSeen[key] = total;
            }
        }
        return null;
    }

    private static Void viaHttp(SlottedServer server, int client, WriteMode mode) {
        ServiceClient http = new ServiceClient(server.port());
        int acknowledged = mode == WriteMode.BUFFERED ? 202 : 200;
        for (int i = 0; i < PER_CLIENT; i++) {
            Response response = http.post("/v1/counters/views/" + (i % 4) + "/increment")
                    .body("{\"delta\": " + delta(client, i) + "}").send();
            assertThat(response.status()).as("%s", response).isEqualTo(acknowledged);
        }
        return null;
    }

    private long sqlSum(String table) throws Exception {
        try (Connection connection = db.dataSource().getConnection();
                Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SELECT COALESCE(SUM(count), 0) FROM " + table
                        + " WHERE record_type = 2")) {
            row.next();
            return row.getLong(1);
        }
    }

    private static long delta(int client, int step) {
        return (client * 5L + step) % 11 + 1;
    }
}
