package io.slotted.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.slotted.WriteMode;
import io.slotted.db.H2TestDatabase;
import io.slotted.server.config.CounterSettings;
import io.slotted.server.config.DatabaseSettings;
import io.slotted.server.config.ServerSettings;
import io.slotted.server.config.TypeNames;
import io.slotted.server.http.HttpSettings;
import io.slotted.server.resp.RespSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * {@code GET /v1/live} against a service on H2 serving HTTP and the Redis protocol, with real
 * clients of both: the errors each front end answered, by code; the increments of every second
 * adding up to the engine's total exactly; write latencies recorded for writes; connections counted
 * per front end.
 */
class LiveReportTest {
    private final H2TestDatabase db = H2TestDatabase.instance();
    private final String table = "live_" + ProcessHandle.current().pid();
    private SlottedServer server;
    private ServiceClient http;

    @BeforeEach
    void start() throws Exception {
        Path tokens = Files.createDirectories(Path.of("target", "tokens")).resolve(table + ".txt");
        Files.writeString(tokens, ServiceSuite.READER + " read\n" + ServiceSuite.WRITER + " write\n");
        server = SlottedServer.start(new ServerSettings(0, "127.0.0.1", new DatabaseSettings(db.jdbcUrl(), null, null),
                tokens, TypeNames.parse("downloads=1"), new CounterSettings(table, WriteMode.GROUPED, null, Duration.ZERO)),
                HttpSettings.defaults(), RespSettings.on(0));
        http = new ServiceClient(server.port());
    }

    @AfterEach
    void stop() {
        try {
            server.close();
        } finally {
            db.dropCounterTables(table);
        }
    }

    private JsonNode live() {
        ServiceClient.Response response = http.get("/v1/live").token(ServiceSuite.READER).send();
        assertThat(response.status()).as("%s", response).isEqualTo(200);
        return response.json();
    }

    @Test
    void live_countsErrorsByFrontEndAndCode_andItsSecondsAddUpToTheEnginesTotal() throws Exception {
        ExecutorService writers = Executors.newFixedThreadPool(4);
        Future<?>[] done = new Future<?>[4];
        for (int w = 0; w < done.length; w++) {
            long id = w;
            done[w] = writers.submit(() -> {
                for (int i = 0; i < 50; i++) {
                    assertThat(http.post("/v1/counters/downloads/" + id + "/increment").token(ServiceSuite.WRITER)
                            .body("{\"delta\": 3}").send().status()).isEqualTo(200);
                }
                return null;
            });
        }
        for (Future<?> writer : done) {
            writer.get(1, TimeUnit.MINUTES);
        }
        writers.shutdown();
        assertThat(http.post("/v1/counters/downloads/1/increment").token(ServiceSuite.WRITER)
                .body("{\"delta\": 0}").send().errorCode()).isEqualTo("bad_delta");
        assertThat(http.post("/v1/counters/downloads/1/increment").body("{\"delta\": 1}").send().errorCode())
                .isEqualTo("unauthorized");
        try (Jedis jedis = new Jedis(new HostAndPort("127.0.0.1", server.respPort()),
                DefaultJedisClientConfig.builder().password(ServiceSuite.WRITER).build())) {
            for (int i = 0; i < 10; i++) {
                jedis.incrBy("downloads:7", 2);
            }
            assertThatThrownBy(() -> jedis.incrByFloat("downloads:7", 1.5))
                    .isInstanceOf(JedisDataException.class);

            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                JsonNode live = live();
                assertThat(live.path("connections").path("resp").asInt()).as("the Jedis connection").isEqualTo(1);
                assertThat(live.path("connections").path("http").asInt()).as("this request's").isGreaterThanOrEqualTo(1);
                assertThat(errors(live)).contains("http bad_delta 1", "http unauthorized 1", "resp ERR 1");
                long sum = 0;
                for (JsonNode increments : live.path("seconds").path("increments")) {
                    sum += increments.asLong();
                }
                assertThat(sum).as("every second's increments, added up").isEqualTo(4 * 50 + 10)
                        .isEqualTo(live.path("totals").path("incrementsApplied").asLong());
                assertThat(live.path("seconds").path("p50")).as("write latencies").anyMatch(p -> p.asDouble() > 0);
            });
        }
        assertThat(http.get("/metrics").send().text())
                .contains("slotted_errors_total{code=\"bad_delta\",front_end=\"http\"} 1.0")
                .contains("slotted_errors_total{code=\"ERR\",front_end=\"resp\"} 1.0");
    }

    private static List<String> errors(JsonNode live) {
        List<String> errors = new ArrayList<>();
        live.path("errors").forEach(e -> errors.add(e.path("frontEnd").asText() + " " + e.path("code").asText()
                + " " + e.path("count").asLong()));
        return errors;
    }
}
