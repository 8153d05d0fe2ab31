package io.slotted.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.slotted.db.EmbeddedMariaDbServer;
import io.slotted.server.ServiceClient.Response;
import io.slotted.server.config.DatabaseSettings;
import io.slotted.server.config.ServerSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code /readyz} follows the database down and back up without a restart. The fault is real: a
 * MariaDB server of the test's own, stopped and started again under the running service.
 */
class ReadinessTest {
    private EmbeddedMariaDbServer mariaDb;
    private SlottedServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
        if (mariaDb != null) {
            mariaDb.stop();
        }
    }

    @Test
    void readyz_is503WhileTheDatabaseIsDown_and200AgainOnceItIsBack() {
        mariaDb = EmbeddedMariaDbServer.privateServer("readiness");
        server = SlottedServer.start(ServerSettings.defaults(new DatabaseSettings(mariaDb.jdbcUrl(), null, null))
                .withPort(0));
        ServiceClient client = new ServiceClient(server.port());
        assertThat(client.post("/v1/counters/1/1/increment").send().status()).isEqualTo(200);
        assertThat(client.get("/readyz").send().status()).isEqualTo(200);

        mariaDb.stop();

        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            Response ready = client.get("/readyz").send();
            assertThat(ready.status()).isEqualTo(503);
            assertThat(ready.errorCode()).isEqualTo("database_unavailable");
        });
        assertThat(client.get("/healthz").send().status()).isEqualTo(200);
        Response read = client.get("/v1/counters/1/1").send();
        assertThat(read.status()).isEqualTo(503);
        assertThat(read.errorCode()).isEqualTo("database_unavailable");

        mariaDb.start();

        await().atMost(Duration.ofSeconds(60)).untilAsserted(
                () -> assertThat(client.get("/readyz").send().status()).isEqualTo(200));
        assertThat(client.get("/v1/counters/1/1").send().json().get("count").longValue()).isEqualTo(1);
    }

    @Test
    void databaseStoppedAndStartedUnderLoad_requestsFailWith503AndNothingAcknowledgedIsLost()
            throws Exception {
        mariaDb = EmbeddedMariaDbServer.privateServer("outage");
        server = SlottedServer.start(ServerSettings.defaults(new DatabaseSettings(mariaDb.jdbcUrl(), null, null))
                .withPort(0));
        ServiceClient client = new ServiceClient(server.port());
        AtomicLong acknowledged = new AtomicLong();
        AtomicLong notApplied = new AtomicLong();
        AtomicLong unknown = new AtomicLong();
        AtomicInteger calls = new AtomicInteger();
        ExecutorService clients = Executors.newFixedThreadPool(16);
        List<Future<?>> running = new ArrayList<>();
        for (int c = 0; c < 16; c++) {
            running.add(clients.submit(() -> {
                while (calls.incrementAndGet() <= 3_000) {
                    Response response = client.post("/v1/counters/1/7/increment").send();
                    if (response.status() == 200) {
                        acknowledged.incrementAndGet();
                    } else if (response.status() == 503 && response.errorCode().equals("outcome_unknown")) {
                        unknown.incrementAndGet();
                    } else {
                        assertThat(response.status()).as(response.text()).isEqualTo(503);
                        notApplied.incrementAndGet();
                    }
                }
                return null;
            }));
        }
        await().atMost(Duration.ofSeconds(60)).until(() -> acknowledged.get() >= 300);
        mariaDb.stop();
        await().atMost(Duration.ofSeconds(90)).until(() -> notApplied.get() + unknown.get() > 0);
        mariaDb.start();
        for (Future<?> clientTask : running) {
            clientTask.get(3, TimeUnit.MINUTES);
        }
        clients.shutdown();

        long count = client.get("/v1/counters/1/7").send().json().get("count").longValue();
        System.out.printf("outage: acknowledged=%d notApplied=%d unknown=%d count=%d%n",
                acknowledged.get(), notApplied.get(), unknown.get(), count);
        assertThat(count).as("nothing acknowledged lost, nothing counted twice")
                .isBetween(acknowledged.get(), acknowledged.get() + unknown.get());
        assertThat(client.get("/readyz").send().status()).as("recovered by itself").isEqualTo(200);
        assertThat(client.post("/v1/counters/1/8/increment").send().status()).isEqualTo(200);
    }
}
