package io.slotted.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.slotted.WriteMode;
import io.slotted.db.TestDatabase;
import io.slotted.server.ServiceClient.Response;
import io.slotted.server.config.CounterSettings;
import io.slotted.server.config.DatabaseSettings;
import io.slotted.server.config.ServerSettings;
import io.slotted.server.config.TypeLimits;
import io.slotted.server.config.TypeNames;
import io.slotted.server.http.HttpSettings;
import io.slotted.server.resp.RespSettings;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * {@code serve --limits}: stock and a quota through both front ends, with real clients (the JDK's
 * HTTP client, Jedis), on every database: a refusal answers 409 {@code limit_exceeded} or
 * {@code -ERR limit exceeded}, changes nothing, and leaves the service serving; 32 Redis clients
 * selling one stock sell exactly all of it.
 */
@ParameterizedClass(name = "[{arguments}]")
@MethodSource("io.slotted.db.TestDatabases#all")
class LimitsServiceSuite {
    private static final AtomicInteger TABLES = new AtomicInteger();

    private final TestDatabase db;
    private String table;
    private SlottedServer server;
    private ServiceClient http;

    LimitsServiceSuite(TestDatabase db) {
        this.db = db;
    }

    @BeforeEach
    void startService() {
        table = "lim_" + ProcessHandle.current().pid() + "_" + TABLES.incrementAndGet();
        TypeNames types = TypeNames.parse("stock=7,quota=8,meter=9");
        server = SlottedServer.start(new ServerSettings(0, "127.0.0.1", new DatabaseSettings(db.jdbcUrl(), null, null),
                null, types, new CounterSettings(table, WriteMode.GROUPED, null, Duration.ZERO)
                        .withLimits(TypeLimits.parse(List.of("stock=0..", "quota=..10", "meter=..3/day"), types))),
                HttpSettings.defaults(), RespSettings.on(0));
        http = new ServiceClient(server.port());
    }

    @AfterEach
    void stopService() {
        server.close();
        db.dropCounterTables(table);
    }

    private Response increment(String type, long id, long delta) {
        return http.post("/v1/counters/" + type + "/" + id + "/increment").body("{\"delta\": " + delta + "}").send();
    }

    private long read(String type, long id) {
        return http.get("/v1/counters/" + type + "/" + id).send().json().get("count").longValue();
    }

    @Test
    void http_anIncrementTheLimitsRefuse_answers409LimitExceeded_andChangesNothing() {
        assertThat(increment("stock", 1, 5).status()).isEqualTo(200);

        Response refused = increment("stock", 1, -6);

        assertThat(refused.status()).as(refused.toString()).isEqualTo(409);
        assertThat(refused.errorCode()).isEqualTo("limit_exceeded");
        assertThat(refused.json().path("error").path("message").asText()).isEqualTo("limit exceeded: adding -6"
                + " would take the counter's total 5 outside its type's limits 0..; nothing was applied");
        assertThat(read("stock", 1)).isEqualTo(5);
        assertThat(increment("quota", 1, 11).status()).isEqualTo(409);
        assertThat(increment("stock", 1, -5).status()).as("the service goes on serving").isEqualTo(200);
        assertThat(read("stock", 1)).isZero();
    }

    @Test
    void http_aBatchWithARefusedIncrement_isRefusedWhole() {
        assertThat(increment("stock", 2, 3).status()).isEqualTo(200);

        Response refused = http.post("/v1/increments").body("{\"increments\": [{\"type\": \"quota\", \"id\": 2,"
                + " \"delta\": 4}, {\"type\": \"stock\", \"id\": 2, \"delta\": -4}]}").send();

        assertThat(refused.status()).as(refused.toString()).isEqualTo(409);
        assertThat(refused.errorCode()).isEqualTo("limit_exceeded");
        assertThat(read("quota", 2)).isZero();
        assertThat(read("stock", 2)).isEqualTo(3);
    }

    @Test
    void redis_aDecrementTheLimitsRefuse_isAnErrorThatChangesNothing_andMultiExecIsRefusedWhole() {
        try (Jedis jedis = new Jedis("127.0.0.1", server.respPort())) {
            assertThat(jedis.incrBy("stock:3", 3)).isEqualTo(3);
            assertThatThrownBy(() -> jedis.decrBy("stock:3", 4)).isInstanceOf(JedisDataException.class)
                    .hasMessage("ERR limit exceeded: adding -4 would take the counter's total 3 outside its type's"
                            + " limits 0..; nothing was applied");
            assertThat(jedis.get("stock:3")).isEqualTo("3");
            assertThatThrownBy(() -> jedis.hincrBy("quota", "3", 11)).isInstanceOf(JedisDataException.class)
                    .hasMessageStartingWith("ERR limit exceeded: adding 11");

            Transaction transaction = jedis.multi();
            transaction.incrBy("quota:3", 2);
            transaction.decrBy("stock:3", 5);
            assertThatThrownBy(transaction::exec).isInstanceOf(JedisDataException.class)
                    .hasMessageStartingWith("ERR limit exceeded: adding -5");

            assertThat(jedis.get("quota:3")).isEqualTo("0");
            assertThat(jedis.decr("stock:3")).as("the connection goes on serving").isEqualTo(2);
        }
    }

    @Test
    void aQuotaPerWindow_refusesOnceTheWindowIsFull_sayingWhenItResets() {
        try (Jedis jedis = new Jedis("127.0.0.1", server.respPort())) {
            assertThat(jedis.incrBy("meter:4", 3)).isEqualTo(3);
            assertThatThrownBy(() -> jedis.incr("meter:4")).isInstanceOf(JedisDataException.class)
                    .hasMessageStartingWith("ERR quota exceeded: adding 1 would take the counter's count 3 in the"
                            + " window from ")
                    .hasMessageContaining("outside its type's limits 0..3/day; nothing was applied; the window resets at")
                    .hasMessageMatching(".* \\(in [0-9]+ s\\)");
            assertThat(jedis.get("meter:4")).isEqualTo("3");
        }
        Response refused = increment("meter", 4, 1);
        assertThat(refused.status()).as(refused.toString()).isEqualTo(429);
        assertThat(refused.errorCode()).isEqualTo("quota_exceeded");
        assertThat(refused.json().path("error").path("message").asText()).startsWith("quota exceeded: adding 1");
        long untilMidnight = Duration.between(Instant.now(), Instant.now().truncatedTo(ChronoUnit.DAYS)
                .plus(Duration.ofDays(1))).toSeconds();
        assertThat(refused.raw().headers().firstValue("Retry-After")).hasValueSatisfying(seconds ->
                assertThat(Long.parseLong(seconds)).isBetween(untilMidnight - 5, untilMidnight + 5));
        assertThat(refused.raw().headers().firstValue("RateLimit-Policy")).hasValue("\"quota\";q=3;w=86400");
        assertThat(refused.raw().headers().firstValue("RateLimit")).hasValueSatisfying(value ->
                assertThat(value).startsWith("\"quota\";r=0;t="));
        Response refund = increment("meter", 4, -1);
        assertThat(refund.status()).as("a refund makes room").isEqualTo(200);
        assertThat(refund.json().get("count").longValue()).as("the window's count after it").isEqualTo(2);
        assertThat(refund.raw().headers().firstValue("RateLimit")).hasValueSatisfying(value ->
                assertThat(value).startsWith("\"quota\";r=1;t="));
        Response last = http.post("/v1/counters/meter/4/increment").header("Idempotency-Key", "last-one")
                .body("{\"delta\": 1}").send();
        assertThat(last.status()).as(last.toString()).isEqualTo(200);
        assertThat(last.json().get("count").longValue()).as("a keyed increment answers the count too").isEqualTo(3);
        assertThat(last.raw().headers().firstValue("RateLimit")).hasValueSatisfying(value ->
                assertThat(value).startsWith("\"quota\";r=0;t="));
        Response read = http.get("/v1/counters/meter/4").send();
        assertThat(read.json().get("count").longValue()).as("a read answers the window's count").isEqualTo(3);
        assertThat(read.raw().headers().firstValue("RateLimit-Policy")).hasValue("\"quota\";q=3;w=86400");
        assertThat(read.raw().headers().firstValue("RateLimit")).hasValueSatisfying(value ->
                assertThat(Long.parseLong(value.substring(value.indexOf(";t=") + 3)))
                        .isBetween(untilMidnight - 5, untilMidnight + 5));
        assertThat(http.get("/v1/counters/meter?ids=4,5").send().raw().headers().firstValue("RateLimit-Policy"))
                .hasValue("\"quota\";q=3;w=86400");
        Response plain = increment("quota", 4, 1);
        assertThat(plain.json().has("count")).as("a type without a window answers no count").isFalse();
        assertThat(plain.raw().headers().firstValue("RateLimit")).isEmpty();
        try (Jedis jedis = new Jedis("127.0.0.1", server.respPort())) {
            assertThat(jedis.decr("meter:4")).as("INCR and DECR answer the window's count").isEqualTo(2);
            assertThat(jedis.get("meter:4")).isEqualTo("2");
        }
    }

    @Test
    void http_aRefundWithItsWindow_goesBackIntoThatWindow_andBadRefundsAreRefusedSayingWhy() {
        assertThat(increment("meter", 5, 3).json().get("count").longValue()).isEqualTo(3);
        String now = Instant.now().toString();

        Response refund = http.post("/v1/counters/meter/5/increment?window=" + now).body("{\"delta\": -2}").send();
        assertThat(refund.status()).as(refund.toString()).isEqualTo(200);
        assertThat(refund.json().get("count").longValue()).isEqualTo(1);
        assertThat(refund.raw().headers().firstValue("RateLimit")).hasValueSatisfying(value ->
                assertThat(value).startsWith("\"quota\";r=2;t="));

        String longAgo = Instant.now().minus(Duration.ofDays(3)).toString();
        Response tooOld = http.post("/v1/counters/meter/5/increment?window=" + longAgo).body("{\"delta\": -1}").send();
        assertThat(tooOld.status()).as(tooOld.toString()).isEqualTo(400);
        assertThat(tooOld.json().path("error").path("message").asText()).contains("only the current window");
        Response positive = http.post("/v1/counters/meter/5/increment?window=" + now).body("{\"delta\": 1}").send();
        assertThat(positive.errorCode()).isEqualTo("bad_delta");
        Response malformed = http.post("/v1/counters/meter/5/increment?window=soon").body("{\"delta\": -1}").send();
        assertThat(malformed.status()).isEqualTo(400);
        assertThat(malformed.json().path("error").path("message").asText()).contains("window");
        Response keyed = http.post("/v1/counters/meter/5/increment?window=" + now).header("Idempotency-Key", "k")
                .body("{\"delta\": -1}").send();
        assertThat(keyed.status()).isEqualTo(400);
        Response noWindow = http.post("/v1/counters/quota/5/increment?window=" + now).body("{\"delta\": -1}").send();
        assertThat(noWindow.status()).isEqualTo(400);
        assertThat(noWindow.json().path("error").path("message").asText()).contains("has none");
        assertThat(read("meter", 5)).as("only the one refund changed anything").isEqualTo(1);
    }

    @Test
    void redis_32ClientsSellingAStockOf1000_sellExactlyAllOfIt() throws Exception {
        try (Jedis restock = new Jedis("127.0.0.1", server.respPort())) {
            restock.incrBy("stock:4", 1000);
        }
        ExecutorService clients = Executors.newFixedThreadPool(32);
        List<Future<Integer>> sold = new ArrayList<>();
        for (int c = 0; c < 32; c++) {
            sold.add(clients.submit(() -> {
                int mine = 0;
                try (Jedis jedis = new Jedis("127.0.0.1", server.respPort())) {
                    while (true) {
                        try {
                            long left = jedis.decr("stock:4");
                            assertThat(left).isNotNegative();
                            mine++;
                        } catch (JedisDataException refused) {
                            assertThat(refused).hasMessageStartingWith("ERR limit exceeded: adding -1 would take the"
                                    + " counter's total 0 outside");
                            return mine;
                        }
                    }
                }
            }));
        }
        int total = 0;
        for (Future<Integer> client : sold) {
            total += client.get(2, TimeUnit.MINUTES);
        }
        clients.shutdown();

        assertThat(total).as("decrements answered with a total").isEqualTo(1000);
        assertThat(new CounterRows(db.dataSource(), table).typeTotal(7)).isZero();
    }
}
