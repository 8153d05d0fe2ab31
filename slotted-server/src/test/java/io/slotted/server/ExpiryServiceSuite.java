package io.slotted.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.slotted.WriteMode;
import io.slotted.db.TestDatabase;
import io.slotted.server.config.CounterSettings;
import io.slotted.server.config.DatabaseSettings;
import io.slotted.server.config.ServerSettings;
import io.slotted.server.config.TypeLimits;
import io.slotted.server.config.TypeNames;
import io.slotted.server.http.HttpSettings;
import io.slotted.server.resp.RespSettings;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.params.SetParams;

/**
 * {@code serve --expiring}: counters that expire, through the Redis protocol with a real client
 * (Jedis), on every database: {@code EXPIRE} and its options, {@code TTL}, {@code PERSIST},
 * {@code SET … EX}, an expired counter reading 0 and counting from 0, the {@code INCR} then
 * {@code EXPIRE} of a fixed-window limiter pipelined and in a {@code MULTI}, and refusals that
 * change nothing.
 */
@ParameterizedClass(name = "[{arguments}]")
@MethodSource("io.slotted.db.TestDatabases#all")
class ExpiryServiceSuite {
    private static final AtomicInteger TABLES = new AtomicInteger();

    private final TestDatabase db;
    private String table;
    private SlottedServer server;

    ExpiryServiceSuite(TestDatabase db) {
        this.db = db;
    }

    @BeforeEach
    void startService() {
        table = "exp_" + ProcessHandle.current().pid() + "_" + TABLES.incrementAndGet();
        TypeNames types = TypeNames.parse("rack=20,views=21");
        server = SlottedServer.start(new ServerSettings(0, "127.0.0.1", new DatabaseSettings(db.jdbcUrl(), null, null),
                null, types, new CounterSettings(table, WriteMode.GROUPED, null, Duration.ZERO)
                        .withExpiring(TypeLimits.parseExpiring(List.of("rack"), types))),
                HttpSettings.defaults(), RespSettings.on(0));
    }

    @AfterEach
    void stopService() {
        server.close();
        db.dropCounterTables(table);
    }

    private Jedis client() {
        return new Jedis("127.0.0.1", server.respPort());
    }

    @Test
    void expire_ttl_persist_answerAsRedisDoes_andAnExpiredCounterCountsFromZero() throws Exception {
        try (Jedis jedis = client()) {
            assertThat(jedis.ttl("rack:a")).as("absent").isEqualTo(-2);
            assertThat(jedis.expire("rack:a", 10)).as("absent takes no expiry").isZero();
            assertThat(jedis.incrBy("rack:a", 5)).isEqualTo(5);
            assertThat(jedis.ttl("rack:a")).as("no expiry").isEqualTo(-1);
            assertThat(jedis.expire("rack:a", 10)).isEqualTo(1);
            assertThat(jedis.ttl("rack:a")).isBetween(9L, 10L);
            assertThat(jedis.pttl("rack:a")).isBetween(9_000L, 10_000L);
            assertThat(jedis.incr("rack:a")).as("INCR keeps the expiry").isEqualTo(6);
            assertThat(jedis.ttl("rack:a")).isPositive();
            assertThat(jedis.persist("rack:a")).isEqualTo(1);
            assertThat(jedis.persist("rack:a")).isZero();
            assertThat(jedis.ttl("rack:a")).isEqualTo(-1);
            assertThat(jedis.expireAt("rack:a", Instant.now().getEpochSecond() + 100)).isEqualTo(1);
            assertThat(jedis.ttl("rack:a")).isBetween(98L, 100L);

            assertThat(jedis.pexpire("rack:a", 300)).isEqualTo(1);
            Thread.sleep(400);
            assertThat(jedis.get("rack:a")).as("expired").isEqualTo("0");
            assertThat(jedis.exists("rack:a")).isFalse();
            assertThat(jedis.ttl("rack:a")).isEqualTo(-2);
            assertThat(jedis.incr("rack:a")).as("counts from 0 again").isEqualTo(1);
            assertThat(jedis.ttl("rack:a")).as("without the old expiry").isEqualTo(-1);
            assertThat(jedis.expire("rack:a", -1)).as("a time past deletes it, as in Redis").isEqualTo(1);
            assertThat(jedis.get("rack:a")).isEqualTo("0");
        }
    }

    @Test
    void expireOptions_nx_xx_gt_lt_decideAsRedisDoes() {
        try (Jedis jedis = client()) {
            jedis.incr("rack:b");
            assertThat(jedis.sendCommand(Cmd.EXPIRE, "rack:b", "100", "XX")).isEqualTo(0L);
            assertThat(jedis.sendCommand(Cmd.EXPIRE, "rack:b", "100", "GT")).isEqualTo(0L);
            assertThat(jedis.sendCommand(Cmd.EXPIRE, "rack:b", "100", "NX")).isEqualTo(1L);
            assertThat(jedis.sendCommand(Cmd.EXPIRE, "rack:b", "200", "NX")).isEqualTo(0L);
            assertThat(jedis.sendCommand(Cmd.EXPIRE, "rack:b", "50", "GT")).isEqualTo(0L);
            assertThat(jedis.sendCommand(Cmd.EXPIRE, "rack:b", "200", "GT")).isEqualTo(1L);
            assertThat(jedis.sendCommand(Cmd.EXPIRE, "rack:b", "300", "LT")).isEqualTo(0L);
            assertThat(jedis.sendCommand(Cmd.EXPIRE, "rack:b", "150", "lt")).isEqualTo(1L);
            assertThat(jedis.ttl("rack:b")).isBetween(148L, 150L);
            assertThatThrownBy(() -> jedis.sendCommand(Cmd.EXPIRE, "rack:b", "10", "SOON"))
                    .isInstanceOf(JedisDataException.class).hasMessage("ERR Unsupported option SOON");
            assertThatThrownBy(() -> jedis.sendCommand(Cmd.EXPIRE, "rack:b", "ten"))
                    .isInstanceOf(JedisDataException.class).hasMessageContaining("not an integer");
            assertThat(jedis.ttl("rack:b")).as("refusals changed nothing").isBetween(148L, 150L);
        }
    }

    @Test
    void setWithEx_setsTheCountAndItsExpiry_andAPlainSetTakesItAway() throws Exception {
        try (Jedis jedis = client()) {
            assertThat(jedis.set("rack:c", "7", SetParams.setParams().ex(60))).isEqualTo("OK");
            assertThat(jedis.get("rack:c")).isEqualTo("7");
            assertThat(jedis.ttl("rack:c")).isBetween(59L, 60L);
            assertThat(jedis.set("rack:c", "8")).isEqualTo("OK");
            assertThat(jedis.ttl("rack:c")).isEqualTo(-1);
            assertThat(jedis.set("rack:c", "9", SetParams.setParams().px(200))).isEqualTo("OK");
            Thread.sleep(300);
            assertThat(jedis.get("rack:c")).isEqualTo("0");
            assertThatThrownBy(() -> jedis.set("rack:c", "9", SetParams.setParams().nx()))
                    .isInstanceOf(JedisDataException.class).hasMessageContaining("NX, XX, GET and KEEPTTL are not supported");
        }
    }

    @Test
    void aTypeThatDoesNotExpire_refusesAnExpiry_andAnswersTtlAsForAKeyWithoutOne() {
        try (Jedis jedis = client()) {
            jedis.incrBy("views:1", 3);
            assertThatThrownBy(() -> jedis.expire("views:1", 10)).isInstanceOf(JedisDataException.class)
                    .hasMessage("ERR type views does not expire: start the service with --expiring views (every"
                            + " process alike) to give its counters an expiry; nothing was changed");
            assertThatThrownBy(() -> jedis.set("views:1", "5", SetParams.setParams().ex(10)))
                    .isInstanceOf(JedisDataException.class).hasMessageContaining("does not expire");
            assertThat(jedis.ttl("views:1")).isEqualTo(-1);
            assertThat(jedis.ttl("views:2")).isEqualTo(-2);
            assertThat(jedis.get("views:1")).as("nothing changed, and the connection serves on").isEqualTo("3");
        }
    }

    /**
     * A fixed-window limiter as users write it: {@code INCR} then {@code EXPIRE}, pipelined and
     * in a {@code MULTI}; the window's key expires and the next window's counts from 1.
     */
    @Test
    void incrThenExpire_pipelinedOrInAMulti_givesTheCountAndTheExpiry() throws Exception {
        try (Jedis jedis = client()) {
            Pipeline pipeline = jedis.pipelined();
            Response<Long> counted = pipeline.incr("rack::attack:1:login:10.0.0.1");
            Response<Long> expired = pipeline.expire("rack::attack:1:login:10.0.0.1", 1);
            pipeline.sync();
            assertThat(counted.get()).isEqualTo(1);
            assertThat(expired.get()).isEqualTo(1);

            Transaction multi = jedis.multi();
            multi.incr("rack::attack:1:login:10.0.0.1");
            multi.pexpire("rack::attack:1:login:10.0.0.1", 300);
            assertThat(multi.exec()).containsExactly(2L, 1L);
            assertThat(jedis.pttl("rack::attack:1:login:10.0.0.1")).isBetween(1L, 300L);
            Thread.sleep(400);
            assertThat(jedis.incr("rack::attack:1:login:10.0.0.1")).as("a new window's count").isEqualTo(1);
        }
    }

    @Test
    void http_putAndDeleteTheExpiry_andAReadShowsIt() throws Exception {
        ServiceClient http = new ServiceClient(server.port());
        try (Jedis jedis = client()) {
            jedis.incrBy("rack:h", 4);
        }
        ServiceClient.Response set = http.call("PUT", "/v1/counters/rack/h/expiry").body("{\"in\": \"PT1H\"}").send();
        assertThat(set.status()).as(set.toString()).isEqualTo(200);
        Instant at = Instant.parse(set.json().get("expires_at").asText());
        assertThat(Duration.between(Instant.now(), at)).isBetween(Duration.ofMinutes(59), Duration.ofMinutes(60));
        ServiceClient.Response read = http.get("/v1/counters/rack/h").send();
        assertThat(read.json().get("count").asLong()).isEqualTo(4);
        assertThat(read.json().get("expires_at").asText()).isEqualTo(at.toString());

        ServiceClient.Response persisted = http.call("DELETE", "/v1/counters/rack/h/expiry").send();
        assertThat(persisted.status()).isEqualTo(200);
        assertThat(persisted.json().get("expires_at").isNull()).isTrue();
        assertThat(http.get("/v1/counters/rack/h").send().json().has("expires_at")).isFalse();

        ServiceClient.Response absent = http.call("PUT", "/v1/counters/rack/nobody/expiry").body("{\"in\": \"PT1H\"}").send();
        assertThat(absent.status()).isEqualTo(404);
        assertThat(absent.errorCode()).isEqualTo("counter_absent");
        ServiceClient.Response notExpiring = http.call("PUT", "/v1/counters/views/1/expiry").body("{\"in\": \"PT1H\"}").send();
        assertThat(notExpiring.status()).isEqualTo(409);
        assertThat(notExpiring.errorCode()).isEqualTo("not_expiring");
        ServiceClient.Response both = http.call("PUT", "/v1/counters/rack/h/expiry")
                .body("{\"in\": \"PT1H\", \"at\": \"2030-01-01T00:00:00Z\"}").send();
        assertThat(both.errorCode()).isEqualTo("bad_expiry");

        ServiceClient.Response past = http.call("PUT", "/v1/counters/rack/h/expiry").body("{\"at\": \"2000-01-01T00:00:00Z\"}")
                .send();
        assertThat(past.status()).isEqualTo(200);
        assertThat(past.json().get("expires_at").isNull()).as("expired at once").isTrue();
        assertThat(http.get("/v1/counters/rack/h").send().json().get("count").asLong()).isZero();
    }

    /** The commands Jedis has no method for with these options. */
    private enum Cmd implements redis.clients.jedis.commands.ProtocolCommand {
        EXPIRE;

        @Override
        public byte[] getRaw() {
            return name().getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        }
    }
}
