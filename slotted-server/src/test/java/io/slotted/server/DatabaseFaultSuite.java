package io.slotted.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.slotted.WriteMode;
import io.slotted.db.TestDatabase;
import io.slotted.server.ServiceClient.Response;
import io.slotted.server.http.HttpSettings;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The service when the database misbehaves under it: a table locked by another session, a table
 * dropped, a user who may only read, a pool with no connection free. Counter requests answer 503
 * within their deadline instead of waiting the lock out, health and metrics never wait behind
 * them, and readiness tells what counting needs from the last background probe, at once. The
 * faults are real, on every database: each says how it locks a table and makes a read-only user.
 */
@ParameterizedClass(name = "[{arguments}]")
@MethodSource("io.slotted.db.TestDatabases#all")
class DatabaseFaultSuite {
    /** The deadline for counter work in the tests that hold a lock. */
    private static final Duration DEADLINE = Duration.ofSeconds(1);
    /** How much later than its deadline an answer may come on a busy machine. */
    private static final Duration SLACK = Duration.ofSeconds(10);
    private static final HttpSettings QUICK = HttpSettings.defaults()
            .withReadiness(Duration.ofMillis(200), Duration.ofSeconds(1));

    private final TestDatabase db;
    private final OpenedResources opened = new OpenedResources();

    DatabaseFaultSuite(TestDatabase db) {
        this.db = db;
    }

    @AfterEach
    void close() throws Exception {
        opened.close();
    }

    private TestService start(WriteMode mode, HttpSettings settings) {
        return opened.add(TestService.start(db, mode, settings, DEADLINE));
    }

    /** Holds a lock on the table until closed, on a connection of the test's own. */
    private AutoCloseable lock(String table) throws SQLException {
        return opened.add(TableLock.hold(db, table));
    }

    private static Response increment(ServiceClient client, long id) {
        return client.post("/v1/counters/downloads/" + id + "/increment").token(ServiceSuite.WRITER).send();
    }

    private static long count(ServiceClient client, long id) {
        Response read = client.get("/v1/counters/downloads/" + id).token(ServiceSuite.READER).send();
        assertThat(read.status()).as("%s", read).isEqualTo(200);
        return read.json().get("count").longValue();
    }

    @Test
    void heldTableLock_countersAnswer503InTime_healthAnswers_notReady_andCountsStayExact() throws Exception {
        TestService service = start(WriteMode.GROUPED, QUICK);
        ServiceClient client = service.client();
        assertThat(increment(client, 1).status()).isEqualTo(200);
        AutoCloseable lock = lock(service.table());
        ExecutorService clients = Executors.newFixedThreadPool(8);
        int unknown = 0;
        try {
            List<Future<Response>> answers = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                answers.add(clients.submit(() -> increment(client, 1)));
            }
            Future<Response> read = clients.submit(() -> client.get("/v1/counters/downloads/1")
                    .token(ServiceSuite.READER).send());

            for (Future<Response> answer : answers) {
                Response response = answer.get(DEADLINE.plus(SLACK).toMillis(), TimeUnit.MILLISECONDS);
                assertThat(response.status()).as("%s", response).isEqualTo(503);
                assertThat(response.errorCode()).isIn("outcome_unknown", "timeout");
                unknown += response.errorCode().equals("outcome_unknown") ? 1 : 0;
            }
            Response readAnswer = read.get(DEADLINE.plus(SLACK).toMillis(), TimeUnit.MILLISECONDS);
            assertThat(readAnswer.status()).as("%s", readAnswer).isEqualTo(503);
            assertThat(readAnswer.errorCode()).isEqualTo("timeout");
            assertThat(client.get("/healthz").send().status()).isEqualTo(200);
            assertThat(client.get("/metrics").send().status()).isEqualTo(200);
            await().atMost(Duration.ofSeconds(30)).untilAsserted(
                    () -> assertThat(client.get("/readyz").send().status()).isEqualTo(503));
        } finally {
            lock.close();
            clients.shutdownNow();
        }

        await().atMost(Duration.ofSeconds(30)).untilAsserted(
                () -> assertThat(client.get("/readyz").send().status()).isEqualTo(200));
        assertThat(increment(client, 1).status()).isEqualTo(200);
        assertThat(count(client, 1)).as("acknowledged, plus what an unknown outcome applied")
                .isBetween(2L, 2L + unknown);
    }

    @Test
    void heldTableLock_withEveryWorkerWaiting_answersTheRest503AtOnce() throws Exception {
        TestService service = start(WriteMode.DIRECT, QUICK.withWorkers(1, 1));
        ServiceClient client = service.client();
        AutoCloseable lock = lock(service.table());
        ExecutorService clients = Executors.newFixedThreadPool(6);
        List<String> codes = new ArrayList<>();
        try {
            List<Future<Response>> answers = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                long id = 100 + i;
                answers.add(clients.submit(() -> increment(client, id)));
            }
            for (Future<Response> answer : answers) {
                Response response = answer.get(DEADLINE.plus(SLACK).toMillis(), TimeUnit.MILLISECONDS);
                assertThat(response.status()).as("%s", response).isEqualTo(503);
                codes.add(response.errorCode());
            }
        } finally {
            lock.close();
            clients.shutdownNow();
        }

        assertThat(codes).isSubsetOf("overloaded", "timeout", "outcome_unknown").contains("overloaded");
        long unknown = codes.stream().filter("outcome_unknown"::equals).count();
        // The one worker finishes the write it was waiting on before it reads again.
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(client
                .get("/v1/counters/downloads?ids=100,101,102,103,104,105").token(ServiceSuite.READER)
                .send().status()).isEqualTo(200));
        long applied = 0;
        for (int i = 0; i < 6; i++) {
            applied += count(client, 100 + i);
        }
        assertThat(applied).isBetween(0L, unknown);
    }

    @Test
    void droppedTable_notReady_sayingWhy_untilMigratedAgain() {
        TestService service = start(WriteMode.GROUPED, QUICK);
        ServiceClient client = service.client();
        assertThat(client.get("/readyz").send().status()).isEqualTo(200);

        db.dropCounterTables(service.table());

        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            Response ready = client.get("/readyz").send();
            assertThat(ready.status()).isEqualTo(503);
            assertThat(ready.json().at("/error/message").asText()).containsIgnoringCase(service.table());
        });
        service.store().counters().migrate();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(
                () -> assertThat(client.get("/readyz").send().status()).isEqualTo(200));
    }

    @Test
    void readOnlyUser_notReady_sayingWhy() {
        TestService owner = start(WriteMode.GROUPED, QUICK);
        String user = "ro_" + owner.table();
        String url = db.createReadOnlyUser(user, owner.table());
        opened.addLast(() -> db.dropUser(user));
        owner.stop();

        TestService readOnly = TestService.start(db, url, owner.table(), WriteMode.GROUPED, QUICK,
                DEADLINE);
        opened.add(() -> readOnly.stop());
        ServiceClient client = readOnly.client();

        assertThat(count(client, 1)).isZero();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            Response ready = client.get("/readyz").send();
            assertThat(ready.status()).as("%s", ready).isEqualTo(503);
            assertThat(ready.json().at("/error/message").asText()).contains("written");
        });
    }

    @Test
    void exhaustedPool_readinessAnswersAtOnce_fromTheLastProbe() throws Exception {
        TestService service = start(WriteMode.GROUPED, QUICK);
        ServiceClient client = service.client();
        List<Connection> borrowed = new ArrayList<>();
        try {
            for (int i = 0; i < TestService.POOL_SIZE; i++) {
                borrowed.add(service.store().pool().getConnection());
            }
            long start = System.nanoTime();
            Response ready = client.get("/readyz").send();
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

            assertThat(ready.status()).as("%s", ready).isEqualTo(200);
            assertThat(millis).as("/readyz took ms").isLessThan(1_000);
        } finally {
            for (Connection connection : borrowed) {
                connection.close();
            }
        }
    }
}
