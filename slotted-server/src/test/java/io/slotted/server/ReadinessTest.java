package io.slotted.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.slotted.server.ServiceClient.Response;
import io.slotted.db.EmbeddedMariaDbServer;
import io.slotted.db.MariaDbTestDatabase;
import java.time.Duration;
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
}
