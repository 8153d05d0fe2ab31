package io.slotted.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.slotted.BucketUnit;
import io.slotted.CounterNames;
import io.slotted.OwnerColumn;
import io.slotted.OwnerMode;
import io.slotted.SlottedCounters;
import io.slotted.TimeBuckets;
import io.slotted.WriteMode;
import io.slotted.db.TestDatabase;
import io.slotted.server.ServiceClient.Response;
import io.slotted.server.config.CounterSettings;
import io.slotted.server.config.DatabaseSettings;
import io.slotted.server.config.ServerSettings;
import io.slotted.server.config.TypeNames;
import io.slotted.server.http.HttpFrontEnd;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The HTTP contract of {@code docs/api.md}, over real HTTP against a real service object, on every
 * database. The service runs for each database on a table of its own (dropped afterwards); each
 * test uses record ids of its own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ParameterizedClass(name = "[{arguments}]")
@MethodSource("io.slotted.db.TestDatabases#all")
class ServiceSuite {
    static final String READER = "reader-token-1";
    static final String WRITER = "writer-token-2";
    static final String ADMIN = "admin-token-3";
    /** A type that the roll-up test binds to an owner column, by number. */
    private static final int ROLLED_UP_TYPE = 3;
    /** A type that a test binds to an {@code INT} owner column, by number. */
    private static final int SMALL_COLUMN_TYPE = 4;
    /** A type with minute buckets that only the top-N test writes, by number. */
    private static final int TOP_TYPE = 5;
    private static final AtomicInteger TABLES = new AtomicInteger();

    @Parameter
    private TestDatabase db;
    private final AtomicLong ids = new AtomicLong(1_000);
    private String table;
    private Path tokenFile;
    private SlottedServer server;
    private ServiceClient client;

    @BeforeParameterizedClassInvocation
    void startService() throws IOException {
        table = "srv_" + ProcessHandle.current().pid() + "_" + TABLES.incrementAndGet();
        tokenFile = Files.createDirectories(Path.of("target", "tokens")).resolve(table + ".txt");
        Files.writeString(tokenFile, "# tokens for " + table + "\n\n"
                + READER + " read\n"
                + WRITER + " write   # writes imply reads\n"
                + ADMIN + " admin\n");
        start();
        // The probe counter of the bad-request table starts at 1: every bad request leaves it so.
        assertThat(increment("downloads", PROBE, null, null).status()).isEqualTo(200);
    }

    @AfterParameterizedClassInvocation
    void stopService() {
        if (server != null) {
            server.close();
        }
        db.dropCounterTables(table);
    }

    private void start() {
        server = SlottedServer.start(new ServerSettings(0, "127.0.0.1", new DatabaseSettings(db.jdbcUrl(), null, null),
                tokenFile, TypeNames.parse("downloads=1,views=2"),
                new CounterSettings(table, WriteMode.GROUPED, null, CounterSettings.SERVICE_ROLL_UP)
                        .withBuckets(Map.of(1, new TimeBuckets(BucketUnit.HOUR, Duration.ofDays(30)),
                                TOP_TYPE, new TimeBuckets(BucketUnit.MINUTE, Duration.ofMinutes(60))))));
        client = new ServiceClient(server.port());
    }

    private long newId() {
        return ids.incrementAndGet();
    }

    private Response increment(String type, long id, String body, String key) {
        ServiceClient.Call call = client.post("/v1/counters/" + type + "/" + id + "/increment").token(WRITER);
        if (key != null) {
            call.header("Idempotency-Key", key);
        }
        return (body == null ? call : call.body(body)).send();
    }

    private long count(String type, long id) {
        Response response = client.get("/v1/counters/" + type + "/" + id).token(READER).send();
        assertThat(response.status()).as("%s", response).isEqualTo(200);
        return response.json().get("count").longValue();
    }

    @Test
    void increment_withoutBody_addsOne_andAnswersWhatWasApplied() {
        long id = newId();

        Response response = increment("downloads", id, null, null);

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.text()).isEqualTo(
                "{\"type\":\"downloads\",\"id\":" + id + ",\"delta\":1,\"replayed\":false,\"durable\":true}");
        assertThat(count("downloads", id)).isEqualTo(1);
    }

    @Test
    void increment_byRecordTypeNumber_echoesTheNumber_andSharesTheCounterWithItsName() {
        long id = newId();

        Response response = increment("1", id, "{\"delta\": -7}", null);
        increment("downloads", id, "{\"delta\": 10}", null);

        assertThat(response.json().get("type").isInt()).isTrue();
        assertThat(response.json().get("type").intValue()).isEqualTo(1);
        assertThat(response.json().get("delta").longValue()).isEqualTo(-7);
        assertThat(count("downloads", id)).isEqualTo(3);
        assertThat(client.get("/v1/counters/1/" + id).token(READER).send().text())
                .isEqualTo("{\"type\":1,\"id\":" + id + ",\"count\":3}");
    }

    @Test
    void increment_emptyObjectOrEmptyBody_addsOne() {
        long id = newId();

        increment("views", id, "{}", null);
        increment("views", id, "", null);

        assertThat(count("views", id)).isEqualTo(2);
    }

    @Test
    void read_neverSeenCounter_isZero() {
        assertThat(client.get("/v1/counters/views/" + CounterNames.MAPPED_IDS_END).token(READER).send().text())
                .isEqualTo("{\"type\":\"views\",\"id\":" + CounterNames.MAPPED_IDS_END + ",\"count\":0}");
        assertThat(client.get("/v1/counters/views/nobody%20yet").token(READER).send().text())
                .isEqualTo("{\"type\":\"views\",\"id\":\"nobody yet\",\"count\":0}");
        assertThat(client.get("/v1/counters/nosuchtype/7").token(READER).send().text())
                .isEqualTo("{\"type\":\"nosuchtype\",\"id\":7,\"count\":0}");
    }

    @Test
    void readMany_answersEveryIdInOrder_withZeroForNeverSeen() {
        long a = newId();
        long b = newId();
        long never = newId();
        increment("downloads", a, "{\"delta\": 10}", null);
        increment("downloads", b, "{\"delta\": 7}", null);

        Response response = client.get("/v1/counters/downloads?ids=" + b + "," + never + "," + a)
                .token(READER).send();

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.text()).isEqualTo("{\"type\":\"downloads\",\"counts\":{\"" + b + "\":7,\""
                + never + "\":0,\"" + a + "\":10}}");
    }

    @Test
    void readMany_acceptsExactlyTheLimit() {
        String thousand = IntStream.range(0, HttpFrontEnd.MAX_IDS).mapToObj(Integer::toString)
                .collect(Collectors.joining(","));

        Response response = client.get("/v1/counters/2?ids=" + thousand).token(READER).send();

        assertThat(response.status()).as("%s", response.status()).isEqualTo(200);
        assertThat(response.json().get("counts").size()).isEqualTo(HttpFrontEnd.MAX_IDS);
    }

    @Test
    void batch_appliesEveryIncrement_acrossTypes() {
        long a = newId();
        long b = newId();

        Response response = client.post("/v1/increments").token(WRITER).body("{\"increments\": ["
                + "{\"type\": \"downloads\", \"id\": " + a + ", \"delta\": 5},"
                + "{\"type\": \"views\", \"id\": " + b + ", \"delta\": -2},"
                + "{\"type\": 1, \"id\": " + a + "},"
                + "{\"type\": \"2\", \"id\": " + b + ", \"delta\": 9}]}").send();

        assertThat(response.status()).as("%s", response).isEqualTo(200);
        assertThat(response.text()).isEqualTo("{\"applied\":4,\"durable\":true}");
        assertThat(count("downloads", a)).isEqualTo(6);
        assertThat(count("views", b)).isEqualTo(7);
    }

    @Test
    void batch_withOneBadItem_changesNothing() {
        long id = newId();

        Response response = client.post("/v1/increments").token(WRITER).body("{\"increments\": ["
                + "{\"type\": \"downloads\", \"id\": " + id + ", \"delta\": 5},"
                + "{\"type\": \"downloads\", \"id\": " + id + ", \"delta\": 0}]}").send();

        assertThat(response.status()).isEqualTo(400);
        assertThat(response.errorCode()).isEqualTo("bad_delta");
        assertThat(response.json().at("/error/message").asText()).contains("increments[1].delta");
        assertThat(count("downloads", id)).isZero();
    }

    @Test
    void increment_idempotencyKey_replaysOnce_rejectsAnotherBody_andSurvivesARestart() {
        long id = newId();
        String key = "order-" + id;

        Response first = increment("downloads", id, "{\"delta\": 5}", key);
        Response replay = increment("downloads", id, "{\"delta\": 5}", key);
        Response conflict = increment("downloads", id, "{\"delta\": 6}", key);
        server.close();
        start();
        Response afterRestart = increment("downloads", id, "{\"delta\": 5}", key);

        assertThat(first.json().get("replayed").booleanValue()).isFalse();
        assertThat(replay.status()).isEqualTo(200);
        assertThat(replay.text()).isEqualTo(
                "{\"type\":\"downloads\",\"id\":" + id + ",\"delta\":5,\"replayed\":true,\"durable\":true}");
        assertThat(conflict.status()).isEqualTo(409);
        assertThat(conflict.errorCode()).isEqualTo("idempotency_conflict");
        assertThat(afterRestart.status()).isEqualTo(200);
        assertThat(afterRestart.json().get("replayed").booleanValue()).isTrue();
        assertThat(count("downloads", id)).isEqualTo(5);
    }

    @Test
    void batch_idempotencyKey_replaysOnce_andRejectsAnotherBody() {
        long id = newId();
        String key = "batch-" + id;
        String body = "{\"increments\": [{\"type\": \"views\", \"id\": " + id + ", \"delta\": 3},"
                + " {\"type\": \"views\", \"id\": " + id + ", \"delta\": 4}]}";

        Response first = client.post("/v1/increments").token(WRITER).header("Idempotency-Key", key).body(body).send();
        Response replay = client.post("/v1/increments").token(WRITER).header("Idempotency-Key", key).body(body).send();
        Response conflict = client.post("/v1/increments").token(WRITER).header("Idempotency-Key", key)
                .body(body.replace("\"delta\": 4", "\"delta\": 40")).send();

        assertThat(first.text()).isEqualTo("{\"applied\":2,\"durable\":true}");
        assertThat(replay.status()).isEqualTo(200);
        assertThat(replay.text()).isEqualTo("{\"applied\":0,\"replayed\":true,\"durable\":true}");
        assertThat(conflict.status()).isEqualTo(409);
        assertThat(conflict.errorCode()).isEqualTo("idempotency_conflict");
        assertThat(count("views", id)).isEqualTo(7);
    }

    /** The most a counter of a type holds in its slots: each slot row holds up to MAX_DELTA. */
    private long capacity(int recordType) {
        return server.store().counters().config().slots(recordType) * SlottedCounters.MAX_DELTA;
    }

    /**
     * A counter of a type without time buckets: a bucketed type's group-commit increments land
     * first in pending rows of their own (docs/time-buckets.md), which BucketSuite tests at the
     * edge.
     */
    @Test
    void increment_pastWhatTheCounterHolds_is422_andChangesNothing() {
        long id = newId();
        long full = capacity(2);
        assertThat(set("views", id, "{\"count\": " + full + "}", ADMIN).status()).isEqualTo(200);

        Response single = increment("views", id, "{\"delta\": 10}", null);
        Response batch = client.post("/v1/increments").token(WRITER).body("{\"increments\": ["
                + "{\"type\": \"views\", \"id\": " + id + ", \"delta\": 3},"
                + "{\"type\": \"views\", \"id\": " + id + ", \"delta\": 3}]}").send();

        assertThat(single.status()).isEqualTo(422);
        assertThat(single.errorCode()).isEqualTo("overflow");
        assertThat(single.json().at("/error/message").asText()).contains("nothing was applied",
                "at most " + SlottedCounters.MAX_DELTA);
        assertThat(batch.status()).isEqualTo(422);
        assertThat(batch.errorCode()).isEqualTo("overflow");
        assertThat(count("views", id)).isEqualTo(full);
        assertThat(increment("views", id, "{\"delta\": -10}", null).status()).isEqualTo(200);
        assertThat(count("views", id)).isEqualTo(full - 10);
    }

    @Test
    void increment_ofMoreThanMaxDelta_is400_sayingWhatToDo_andChangesNothing() {
        long id = newId();

        Response single = increment("downloads", id, "{\"delta\": " + (SlottedCounters.MAX_DELTA + 1) + "}", null);
        Response batch = client.post("/v1/increments").token(WRITER).body("{\"increments\": [{\"type\":"
                + " \"downloads\", \"id\": " + id + ", \"delta\": " + Long.MIN_VALUE + "}]}").send();

        assertThat(single.status()).isEqualTo(400);
        assertThat(single.errorCode()).isEqualTo("bad_delta");
        assertThat(single.json().at("/error/message").asText())
                .contains("from -4503599627370495 to 4503599627370495", "several increments");
        assertThat(batch.status()).isEqualTo(400);
        assertThat(batch.errorCode()).isEqualTo("bad_delta");
        assertThat(count("downloads", id)).isZero();
    }

    private Response set(String type, long id, String body, String token) {
        return client.call("PUT", "/v1/counters/" + type + "/" + id).token(token).body(body).send();
    }

    @Test
    void set_replacesTheCount_andIncrementsAfterItCountOnTop() {
        long id = newId();
        increment("downloads", id, "{\"delta\": 7}", null);

        Response response = set("downloads", id, "{\"count\": 1000}", ADMIN);
        increment("downloads", id, "{\"delta\": 5}", null);

        assertThat(response.status()).as("%s", response).isEqualTo(200);
        assertThat(response.text()).isEqualTo("{\"type\":\"downloads\",\"id\":" + id + ",\"count\":1000}");
        assertThat(count("downloads", id)).isEqualTo(1005);
        assertThat(set("1", id, "{\"count\": -3}", ADMIN).text())
                .isEqualTo("{\"type\":1,\"id\":" + id + ",\"count\":-3}");
        assertThat(count("downloads", id)).isEqualTo(-3);
        assertThat(set("views", id, "{\"count\": 0}", ADMIN).status()).isEqualTo(200);
        assertThat(count("views", id)).isZero();
    }

    @Test
    void set_needsTheAdminScope_readAndWriteTokensAreForbidden() {
        long id = newId();
        increment("downloads", id, "{\"delta\": 2}", null);

        Response reader = set("downloads", id, "{\"count\": 50}", READER);
        Response writer = set("downloads", id, "{\"count\": 50}", WRITER);
        Response nobody = set("downloads", id, "{\"count\": 50}", null);

        assertThat(reader.status()).isEqualTo(403);
        assertThat(reader.errorCode()).isEqualTo("forbidden");
        assertThat(writer.status()).isEqualTo(403);
        assertThat(writer.json().at("/error/message").asText()).contains("'admin' scope");
        assertThat(nobody.status()).isEqualTo(401);
        assertThat(count("downloads", id)).isEqualTo(2);
    }

    @Test
    void set_pastWhatTheCounterHolds_is422_andChangesNothing_andIncrementsCheckTheNewCount() {
        // views keeps no time buckets: a set resets the total but no bucket.
        long id = newId();
        long full = capacity(2);
        assertThat(increment("views", id, "{\"delta\": 1}", null).status()).isEqualTo(200);

        Response tooMuch = set("views", id, "{\"count\": " + (full + 1) + "}", ADMIN);
        Response atTheEdge = set("views", id, "{\"count\": " + full + "}", ADMIN);
        Response over = increment("views", id, "{\"delta\": 1}", null);

        assertThat(tooMuch.status()).as("%s", tooMuch).isEqualTo(422);
        assertThat(tooMuch.errorCode()).isEqualTo("overflow");
        assertThat(tooMuch.json().at("/error/message").asText()).contains("cannot hold " + (full + 1));
        assertThat(atTheEdge.status()).isEqualTo(200);
        assertThat(over.status()).as("%s", over).isEqualTo(422);
        assertThat(count("views", id)).isEqualTo(full);
        assertThat(set("views", id, "{\"count\": 0}", ADMIN).status()).isEqualTo(200);
        assertThat(increment("views", id, "{\"delta\": " + SlottedCounters.MAX_DELTA + "}", null).status())
                .as("all the room again").isEqualTo(200);
        assertThat(count("views", id)).isEqualTo(SlottedCounters.MAX_DELTA);
    }

    @Test
    void set_ofACountTheOwnerColumnCannotHold_is422_andChangesNothing() {
        String owner = table + "_small";
        long id = newId();
        db.execute("CREATE TABLE " + owner + " (id BIGINT PRIMARY KEY, n INT DEFAULT 0 NOT NULL)");
        db.execute("INSERT INTO " + owner + " (id, n) VALUES (" + id + ", 7)");
        try (SlottedCounters elsewhere = SlottedCounters.builder(db.dataSource()).table(table).build()) {
            elsewhere.owners().adopt(SMALL_COLUMN_TYPE, OwnerColumn.parse(owner + ".id.n"), OwnerMode.FOLD);
            try {
                String type = Integer.toString(SMALL_COLUMN_TYPE);
                // Reads add the column once the service has seen the binding (within a second).
                await().atMost(Duration.ofSeconds(30)).until(() -> count(type, id) == 7);

                Response tooLarge = set(type, id, "{\"count\": 3000000000}", ADMIN);
                Response fits = set(type, id, "{\"count\": 2000000000}", ADMIN);

                assertThat(tooLarge.status()).as("%s", tooLarge).isEqualTo(422);
                assertThat(tooLarge.errorCode()).isEqualTo("overflow");
                assertThat(tooLarge.json().at("/error/message").asText()).contains("3000000000");
                assertThat(fits.status()).as("%s", fits).isEqualTo(200);
                assertThat(count(type, id)).isEqualTo(2_000_000_000L);
            } finally {
                elsewhere.owners().release(SMALL_COLUMN_TYPE);
            }
        } finally {
            db.dropTable(owner);
        }
    }

    @Test
    void serve_rollsABoundTypeUpByItself_andCountsItsRollUps() {
        String owner = table + "_repos";
        long id = newId();
        db.execute("CREATE TABLE " + owner + " (id BIGINT PRIMARY KEY, downloads_count BIGINT DEFAULT 0 NOT NULL)");
        db.execute("INSERT INTO " + owner + " (id, downloads_count) VALUES (" + id + ", 100)");
        // Another process binds the type; the service follows the binding from the database.
        try (SlottedCounters elsewhere = SlottedCounters.builder(db.dataSource()).table(table).build()) {
            elsewhere.owners().adopt(ROLLED_UP_TYPE, OwnerColumn.parse(owner + ".id.downloads_count"), OwnerMode.FOLD);
            try {
                String type = Integer.toString(ROLLED_UP_TYPE);
                for (int i = 0; i < 3; i++) {
                    assertThat(increment(type, id, "{\"delta\": 5}", null).status()).isEqualTo(200);
                }

                // A fold type bound moments ago is first rolled up after a grace of about 3 s.
                await().atMost(Duration.ofSeconds(30)).until(() -> ownerCount(owner, id) == 115);

                assertThat(count(type, id)).isEqualTo(115);
                // The roller counts a roll-up once its transaction has committed, a moment after
                // the column shows it.
                await().atMost(Duration.ofSeconds(10))
                        .until(() -> metric(client.get("/metrics").send().text(), "slotted_rollups_total") > 0);
                String metrics = client.get("/metrics").send().text();
                assertThat(metric(metrics, "slotted_rollups_total")).isPositive();
                assertThat(metric(metrics, "slotted_rollup_counters_total")).isGreaterThanOrEqualTo(1);
                assertThat(metric(metrics, "slotted_rollup_lag_seconds")).isNotNaN().isNotNegative();
            } finally {
                elsewhere.owners().release(ROLLED_UP_TYPE);
            }
        } finally {
            db.dropTable(owner);
        }
    }

    private long ownerCount(String owner, long id) {
        try (Connection c = db.dataSource().getConnection();
                PreparedStatement select = c.prepareStatement("SELECT downloads_count FROM " + owner
                        + " WHERE id = ?")) {
            select.setLong(1, id);
            try (ResultSet row = select.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The value of an untagged meter in a Prometheus scrape. */
    private static double metric(String scrape, String name) {
        Matcher line = Pattern.compile("(?m)^" + Pattern.quote(name) + " (\\S+)$").matcher(scrape);
        assertThat(line.find()).as("%s in %s", name, scrape).isTrue();
        return Double.parseDouble(line.group(1));
    }

    /** Sends a request head as raw bytes, for what the JDK client will not send, and reads all. */
    private String raw(String head) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", server.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(head.getBytes(StandardCharsets.ISO_8859_1));
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

    @Test
    void hugeBody_withExpectContinue_is413_beforeTheBodyIsSent() throws IOException {
        long before = count("downloads", PROBE);

        // The JDK 17 client hangs when a 100-continue request gets a final answer: a raw socket.
        String response = raw("POST " + PROBE_INCREMENT + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Authorization: Bearer " + WRITER + "\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + 64 * HttpFrontEnd.MAX_BODY_BYTES + "\r\nExpect: 100-continue\r\n"
                + "Connection: close\r\n\r\n");

        assertThat(response).startsWith("HTTP/1.1 413").contains("\"code\":\"body_too_large\"");
        assertThat(count("downloads", PROBE)).isEqualTo(before);
    }

    @Test
    void requestsJettyRefusesItself_areAnsweredInTheSameJsonShape() throws IOException {
        String badEscape = raw("GET /v1/counters/downloads/%zz HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Connection: close\r\n\r\n");
        // A segment that begins with ';' holds path parameters, which Jetty passes on undecoded.
        String badEscapeAfterSemicolon = raw("GET /v1/counters/;%\\11%?ids= HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Connection: close\r\n\r\n");
        String hugeHeader = raw("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: "
                + "a".repeat(HttpFrontEnd.MAX_REQUEST_HEAD_BYTES) + "\r\nConnection: close\r\n\r\n");

        assertThat(badEscape).startsWith("HTTP/1.1 400").contains("application/json")
                .contains("{\"error\":{\"code\":\"bad_request\",\"message\":");
        assertThat(badEscapeAfterSemicolon).startsWith("HTTP/1.1 400")
                .contains("{\"error\":{\"code\":\"bad_request\",\"message\":\"the path has a '%'");
        assertThat(hugeHeader).startsWith("HTTP/1.1 431").contains("\"code\":\"headers_too_large\"");
        assertThat(client.get("/healthz").send().status()).isEqualTo(200);
    }

    @Test
    void scopes_readTokenReads_butCannotWrite_adminDoesBoth() {
        long id = newId();

        Response readerWrites = client.post("/v1/counters/downloads/" + id + "/increment").token(READER).send();
        Response adminWrites = client.post("/v1/counters/downloads/" + id + "/increment").token(ADMIN).send();
        Response writerReads = client.get("/v1/counters/downloads/" + id).token(WRITER).send();

        assertThat(readerWrites.status()).isEqualTo(403);
        assertThat(readerWrites.errorCode()).isEqualTo("forbidden");
        assertThat(adminWrites.status()).isEqualTo(200);
        assertThat(writerReads.json().get("count").longValue()).isEqualTo(1);
    }

    @Test
    void healthAndReadiness_needNoToken() {
        assertThat(client.get("/healthz").send().status()).isEqualTo(200);
        Response ready = client.get("/readyz").send();
        assertThat(ready.status()).isEqualTo(200);
        assertThat(ready.text()).isEqualTo("{\"status\":\"ready\"}");
    }

    @Test
    void metrics_inPrometheusFormat_taggedByRouteTemplate_neverById() {
        long id = 987_654_321_987L;
        increment("downloads", id, null, null);
        client.get("/v1/counters/downloads/" + id).token(READER).send();

        Response metrics = client.get("/metrics").send();

        assertThat(metrics.status()).isEqualTo(200);
        assertThat(metrics.raw().headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("text/plain"));
        assertThat(metrics.text())
                .contains("slotted_http_requests_seconds_count{method=\"POST\",outcome=\"success\","
                        + "route=\"/v1/counters/{type}/{id}/increment\",status=\"200\"}")
                .contains("slotted_increments_applied_total", "slotted_flushes_total",
                        "slotted_flush_seconds_count", "slotted_flush_seconds_sum",
                        "slotted_retries_total", "slotted_commit_outcomes_unknown_total",
                        "slotted_commit_outcomes_resolved_total", "slotted_queue_depth",
                        "slotted_queue_capacity", "slotted_flush_increments_total",
                        "slotted_rollups_total", "slotted_rollup_counters_total",
                        "slotted_rollup_lag_seconds",
                        "hikaricp_connections_active", "jvm_memory_used_bytes")
                .doesNotContain(Long.toString(id));
    }

    /**
     * Near the edge, whichever increments land in a slot with room are applied and the others
     * refused: the count is exactly what was acknowledged, and stays readable.
     */
    @Test
    void sixteenConcurrentIncrementsAtTheEdge_exactlyTheAcknowledgedAreApplied_andTheCounterStaysReadable()
            throws Exception {
        long id = newId();
        long step = 1L << 48;
        long start = capacity(2) - 10 * step;
        assertThat(set("views", id, "{\"count\": " + start + "}", ADMIN).status()).isEqualTo(200);
        ExecutorService pool = Executors.newFixedThreadPool(16);
        List<Future<Integer>> statuses = new ArrayList<>();
        List<Integer> answered = new ArrayList<>();
        try {
            CountDownLatch go = new CountDownLatch(1);
            for (int c = 0; c < 16; c++) {
                statuses.add(pool.submit(() -> {
                    go.await();
                    return increment("views", id, "{\"delta\": " + step + "}", null).status();
                }));
            }
            go.countDown();
            for (Future<Integer> status : statuses) {
                answered.add(status.get());
            }
        } finally {
            pool.shutdownNow();
        }
        long applied = answered.stream().filter(status -> status == 200).count();

        // Which land depends on the slots the flushers pick: those with room take them.
        assertThat(answered).as("applied or refused as overflowing").allMatch(status -> status == 200 || status == 422);
        assertThat(applied).as("at most ten fit").isLessThanOrEqualTo(10);
        assertThat(count("views", id)).as("readable, exactly what was acknowledged")
                .isEqualTo(start + applied * step);
        assertThat(increment("views", id, "{\"delta\": -" + step + "}", null).status()).isEqualTo(200);
        assertThat(count("views", id)).isEqualTo(start + (applied - 1) * step);
    }

    @Test
    void sixtyFourConcurrentClients_incrementingKnownDeltas_sumExactly() throws Exception {
        long id = newId();
        int clients = 64;
        int perClient = 20;
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        List<Future<Integer>> results = new ArrayList<>();
        try {
            for (int c = 1; c <= clients; c++) {
                int delta = c;
                Callable<Integer> work = () -> {
                    int ok = 0;
                    for (int i = 0; i < perClient; i++) {
                        ok += increment("downloads", id, "{\"delta\": " + delta + "}", null).status() == 200 ? 1 : 0;
                    }
                    return ok;
                };
                results.add(pool.submit(work));
            }
            for (Future<Integer> result : results) {
                assertThat(result.get()).isEqualTo(perClient);
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(count("downloads", id)).isEqualTo((long) perClient * clients * (clients + 1) / 2);
    }

    @Test
    void series_answersEveryBucketOfTheWindow_zerosIncluded_andIncrementsCountInTheirHour() {
        long id = newId();
        Instant hour = Instant.now().truncatedTo(ChronoUnit.HOURS);
        for (int i = 0; i < 3; i++) {
            assertThat(increment("downloads", id, "{\"delta\": 4}", null).status()).isEqualTo(200);
        }
        String from = hour.minus(2, ChronoUnit.HOURS).toString();
        String to = hour.plus(2, ChronoUnit.HOURS).toString();

        Response series = client.get("/v1/counters/downloads/" + id + "/series?from=" + from + "&to=" + to)
                .token(READER).send();

        assertThat(series.status()).as("%s", series).isEqualTo(200);
        JsonNode json = series.json();
        assertThat(json.get("type").asText()).isEqualTo("downloads");
        assertThat(json.get("id").asLong()).isEqualTo(id);
        assertThat(json.get("unit").asText()).isEqualTo("hour");
        List<String> starts = new ArrayList<>();
        long sum = 0;
        for (JsonNode bucket : json.get("buckets")) {
            starts.add(bucket.get("start").asText());
            sum += bucket.get("count").asLong();
        }
        assertThat(starts).containsExactly(from, hour.minus(1, ChronoUnit.HOURS).toString(), hour.toString(),
                hour.plus(1, ChronoUnit.HOURS).toString());
        assertThat(json.get("buckets").get(0).get("count").asLong()).isZero();
        assertThat(sum).isEqualTo(12).isEqualTo(count("downloads", id));
        Response byDates = client.get("/v1/counters/1/" + id + "/series?from="
                + LocalDate.now(ZoneOffset.UTC) + "&to=" + LocalDate.now(ZoneOffset.UTC).plusDays(1)).token(READER).send();
        assertThat(byDates.status()).as("%s", byDates).isEqualTo(200);
        assertThat(byDates.json().get("type").asInt()).isEqualTo(1);
        assertThat(byDates.json().get("buckets")).hasSize(24);
    }

    @Test
    void top_answersTheHighestSumsOfTheWindow_tiesById_andTopIsNeverReadAsAnId() {
        long first = newId();
        long second = newId();
        long third = newId();
        for (long[] plan : new long[][] {{first, 2}, {second, 7}, {third, 2}, {second, 1}}) {
            assertThat(increment(String.valueOf(TOP_TYPE), plan[0], "{\"delta\": " + plan[1] + "}", null).status())
                    .isEqualTo(200);
        }
        Instant now = Instant.now();
        String window = "from=" + now.minus(Duration.ofMinutes(30)) + "&to=" + now.plus(Duration.ofMinutes(2));

        Response top = client.get("/v1/counters/" + TOP_TYPE + "/top?" + window + "&n=3").token(READER).send();
        Response one = client.get("/v1/counters/" + TOP_TYPE + "/top?" + window + "&n=1").token(READER).send();

        assertThat(top.status()).as("%s", top).isEqualTo(200);
        assertThat(top.text()).isEqualTo("{\"type\":" + TOP_TYPE + ",\"from\":\"" + now.minus(Duration.ofMinutes(30))
                + "\",\"to\":\"" + now.plus(Duration.ofMinutes(2)) + "\",\"top\":[{\"id\":" + second
                + ",\"count\":8},{\"id\":" + first + ",\"count\":2},{\"id\":" + third + ",\"count\":2}]}");
        assertThat(one.json().get("top")).hasSize(1);
        assertThat(client.get("/v1/counters/" + TOP_TYPE + "/top?" + window).token(READER).send().json()
                .get("top")).as("n defaults to 10").hasSize(3);
        assertThat(count(String.valueOf(TOP_TYPE), second)).as("ids are still read").isEqualTo(8);
    }

    @Test
    void seriesAndTop_badRequests_answerTheDocumentedErrors_andNeedTheReadScope() {
        Instant now = Instant.now();
        String window = "from=" + now.minus(Duration.ofMinutes(10)) + "&to=" + now;
        Object[][] cases = {
            {"/v1/counters/views/1/series?" + window, 404, "no_buckets", "--buckets views=hour:30d"},
            {"/v1/counters/views/top?" + window, 404, "no_buckets", "keeps no time buckets"},
            {"/v1/counters/nosuch/top?" + window, 404, "unknown_type", "unknown type 'nosuch'"},
            {"/v1/counters/downloads/" + "x".repeat(513) + "/series?" + window, 400, "bad_id", "at most 512 bytes"},
            {"/v1/counters/downloads/1/series?to=" + now, 400, "bad_range", "from is missing"},
            {"/v1/counters/downloads/1/series?from=soon&to=" + now, 400, "bad_range", "from 'soon' is neither"},
            {"/v1/counters/downloads/1/series?from=" + now + "&to=" + now.minusSeconds(1), 400, "bad_range",
                "must be after from"},
            {"/v1/counters/" + TOP_TYPE + "/top?from=" + now.minus(Duration.ofDays(8)) + "&to=" + now, 400,
                "bad_range", "at most 10000"},
            {"/v1/counters/" + TOP_TYPE + "/top?from=" + now.minus(Duration.ofHours(3)) + "&to=" + now, 400,
                "bad_range", "before the oldest minute bucket kept"},
            {"/v1/counters/" + TOP_TYPE + "/top?" + window + "&n=0", 400, "bad_n", "n must be an integer from 1 to 1000"},
            {"/v1/counters/" + TOP_TYPE + "/top?" + window + "&n=1001", 400, "bad_n", "from 1 to 1000"},
            {"/v1/counters/" + TOP_TYPE + "/top?" + window + "&n=ten", 400, "bad_n", "such as ?n=10"},
        };
        for (Object[] c : cases) {
            Response response = client.get((String) c[0]).token(READER).send();
            assertThat(response.status()).as("%s: %s", c[0], response).isEqualTo(c[1]);
            assertThat(response.errorCode()).as("%s", c[0]).isEqualTo(c[2]);
            assertThat(response.json().path("error").path("message").asText()).as("%s", c[0]).contains((String) c[3]);
        }
        assertThat(client.get("/v1/counters/downloads/1/series?" + window).send().status()).isEqualTo(401);
        assertThat(client.get("/v1/counters/downloads/top?" + window).send().status()).isEqualTo(401);
    }

    @Test
    void doctor_answersTheReportAsJson_toAnAdminOnly() {
        Response report = client.get("/v1/doctor?watch=1s").token(ADMIN).send();

        assertThat(report.status()).as("%s", report).isEqualTo(200);
        assertThat(report.json().has("hot_rows")).isTrue();
        assertThat(report.json().get("database").asText()).isNotBlank();
        assertThat(report.text()).contains(table);
        assertThat(client.get("/v1/doctor").token(WRITER).send().status()).isEqualTo(403);
        Response badWatch = client.get("/v1/doctor?watch=2h").token(ADMIN).send();
        assertThat(badWatch.status()).isEqualTo(400);
        assertThat(badWatch.text()).contains("watch must be whole seconds");
    }

    @Test
    void concurrentReadsDuringIncrements_neverReadLessThanWasAcknowledgedBeforeThem() throws Exception {
        long id = newId();
        int writers = 16;
        int readers = 16;
        AtomicLong sent = new AtomicLong();
        AtomicLong acknowledged = new AtomicLong();
        AtomicBoolean writing = new AtomicBoolean(true);
        ExecutorService pool = Executors.newFixedThreadPool(writers + readers);
        List<Future<Integer>> writes = new ArrayList<>();
        List<Future<Integer>> reads = new ArrayList<>();
        try {
            for (int w = 0; w < writers; w++) {
                writes.add(pool.submit(() -> {
                    for (int i = 0; i < 100; i++) {
                        sent.incrementAndGet();
                        assertThat(increment("downloads", id, null, null).status()).isEqualTo(200);
                        acknowledged.incrementAndGet();
                    }
                    return 100;
                }));
            }
            for (int r = 0; r < readers; r++) {
                boolean many = r % 2 == 0;
                reads.add(pool.submit(() -> {
                    int made = 0;
                    while (writing.get()) {
                        long before = acknowledged.get();
                        long read = many ? countOfMany(id) : count("downloads", id);
                        long after = sent.get();
                        assertThat(read).as("acknowledged before the read").isGreaterThanOrEqualTo(before);
                        assertThat(read).as("sent by the end of the read").isLessThanOrEqualTo(after);
                        made++;
                    }
                    return made;
                }));
            }
            for (Future<Integer> write : writes) {
                write.get(2, TimeUnit.MINUTES);
            }
            writing.set(false);
            for (Future<Integer> read : reads) {
                assertThat(read.get(1, TimeUnit.MINUTES)).as("reads made").isPositive();
            }
        } finally {
            writing.set(false);
            pool.shutdownNow();
        }
        assertThat(count("downloads", id)).isEqualTo(writers * 100L);
    }

    private long countOfMany(long id) {
        Response response = client.get("/v1/counters/downloads?ids=" + id + "," + (id + 1_000_000))
                .token(READER).send();
        assertThat(response.status()).as("%s", response).isEqualTo(200);
        return response.json().get("counts").get(String.valueOf(id)).longValue();
    }

    @Test
    void close_whileClientsIncrement_finishesWhatItAccepted_andCountsExactlyWhatWasAcknowledged()
            throws Exception {
        long id = newId();
        ServiceClient before = client;
        AtomicLong acknowledged = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(16);
        List<Future<?>> writers = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            writers.add(pool.submit(() -> {
                while (true) {
                    int status;
                    try {
                        status = before.post("/v1/counters/downloads/" + id + "/increment").token(WRITER).send().status();
                    } catch (UncheckedIOException stopped) {
                        return;
                    }
                    if (status != 200) {
                        assertThat(status).as("refused while stopping").isEqualTo(503);
                        return;
                    }
                    acknowledged.incrementAndGet();
                }
            }));
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> acknowledged.get() >= 200);

        server.close();
        for (Future<?> writer : writers) {
            writer.get(30, TimeUnit.SECONDS);
        }
        pool.shutdown();
        start();

        assertThat(count("downloads", id)).isEqualTo(acknowledged.get());
    }

    /** One bad request and the answer the contract promises for it. */
    record BadRequest(String name, String method, String path, String token, String contentType,
            String key, String body, int status, String code) {
        @Override
        public String toString() {
            return name;
        }
    }

    static final long PROBE = 42;
    private static final String PROBE_PATH = "/v1/counters/downloads/" + PROBE;
    private static final String PROBE_INCREMENT = PROBE_PATH + "/increment";

    private static BadRequest bad(String name, String method, String path, String body, int status, String code) {
        return new BadRequest(name, method, path, WRITER, null, null, body, status, code);
    }

    private static BadRequest badIncrement(String name, String body, String code) {
        return bad(name, "POST", PROBE_INCREMENT, body, 400, code);
    }

    private static BadRequest badSet(String name, String body, String code) {
        return new BadRequest(name, "PUT", PROBE_PATH, ADMIN, null, null, body, 400, code);
    }

    private static String batchOf(int n) {
        return "{\"increments\": [" + Stream.generate(() -> "{\"type\":\"downloads\",\"id\":" + PROBE + ",\"delta\":1}")
                .limit(n).collect(Collectors.joining(",")) + "]}";
    }

    static Stream<BadRequest> badRequests() {
        String thousandAndOne = IntStream.rangeClosed(0, HttpFrontEnd.MAX_IDS)
                .mapToObj(Integer::toString).collect(Collectors.joining(","));
        return Stream.of(
                badIncrement("malformed JSON", "{\"delta\": ", "malformed_json"),
                badIncrement("JSON followed by more", "{\"delta\": 1} {\"delta\": 1}", "malformed_json"),
                badIncrement("duplicate key", "{\"delta\": 1, \"delta\": 2}", "malformed_json"),
                badIncrement("body not an object", "[1]", "bad_body"),
                badIncrement("unknown field", "{\"detla\": 1}", "bad_body"),
                badIncrement("delta as a string", "{\"delta\": \"5\"}", "bad_delta"),
                badIncrement("delta with a fraction", "{\"delta\": 1.5}", "bad_delta"),
                badIncrement("delta written as a float", "{\"delta\": 1.0}", "bad_delta"),
                badIncrement("delta in exponent form", "{\"delta\": 1e3}", "bad_delta"),
                badIncrement("delta a boolean", "{\"delta\": true}", "bad_delta"),
                badIncrement("delta null", "{\"delta\": null}", "bad_delta"),
                badIncrement("delta 0", "{\"delta\": 0}", "bad_delta"),
                badIncrement("delta 2^63", "{\"delta\": 9223372036854775808}", "bad_delta"),
                badIncrement("delta below -2^63", "{\"delta\": -9223372036854775809}", "bad_delta"),
                badIncrement("delta of 40 digits", "{\"delta\": 1234567890123456789012345678901234567890}", "bad_delta"),
                bad("id over 512 bytes", "GET", "/v1/counters/downloads/" + "x".repeat(513), null, 400, "bad_id"),
                bad("id in the range kept for string ids", "GET", "/v1/counters/downloads/" + Long.MIN_VALUE, null,
                        400, "bad_id"),
                bad("id over 512 bytes, to increment", "POST", "/v1/counters/downloads/" + "é".repeat(257) + "/increment",
                        null, 400, "bad_id"),
                bad("type name malformed", "GET", "/v1/counters/Down-loads/42", null, 400, "bad_type"),
                bad("type number past 2^31-1", "GET", "/v1/counters/2147483648/42", null, 400, "bad_type"),
                bad("type name malformed in a batch", "POST", "/v1/increments",
                        "{\"increments\": [{\"type\": \"Down-loads\", \"id\": 42, \"delta\": 1}]}", 400, "bad_type"),
                bad("batch id as an object", "POST", "/v1/increments",
                        "{\"increments\": [{\"type\": \"downloads\", \"id\": {}, \"delta\": 1}]}", 400, "bad_id"),
                bad("batch id empty", "POST", "/v1/increments",
                        "{\"increments\": [{\"type\": \"downloads\", \"id\": \"\", \"delta\": 1}]}", 400, "bad_id"),
                bad("batch id holding NUL", "POST", "/v1/increments",
                        "{\"increments\": [{\"type\": \"downloads\", \"id\": \"a\\u0000b\", \"delta\": 1}]}", 400, "bad_id"),
                bad("batch without increments", "POST", "/v1/increments", "{}", 400, "bad_body"),
                bad("batch without a body", "POST", "/v1/increments", null, 400, "bad_body"),
                bad("too many ids", "GET", "/v1/counters/downloads?ids=" + thousandAndOne, null, 400, "too_many_ids"),
                bad("no ids", "GET", "/v1/counters/downloads", null, 400, "bad_ids"),
                bad("bad id in a list", "GET", "/v1/counters/downloads?ids=1,,3", null, 400, "bad_id"),
                bad("too many increments", "POST", "/v1/increments", batchOf(HttpFrontEnd.MAX_INCREMENTS + 1),
                        400, "too_many_increments"),
                bad("delta past MAX_DELTA", "POST", PROBE_INCREMENT, "{\"delta\": " + Long.MAX_VALUE + "}", 400, "bad_delta"),
                bad("body over 1 MiB", "POST", PROBE_INCREMENT,
                        "{\"delta\": 1" + " ".repeat((int) HttpFrontEnd.MAX_BODY_BYTES) + "}", 413, "body_too_large"),
                new BadRequest("body not declared as JSON", "POST", PROBE_INCREMENT, WRITER, "text/plain",
                        null, "{\"delta\": 1}", 415, "unsupported_media_type"),
                new BadRequest("form body", "POST", "/v1/increments", WRITER, "application/x-www-form-urlencoded",
                        null, "delta=1", 415, "unsupported_media_type"),
                bad("unknown path", "GET", "/v1/counter/downloads/42", null, 404, "not_found"),
                bad("unknown path below a known one", "POST", PROBE_INCREMENT + "/twice", null, 404, "not_found"),
                bad("wrong method on an increment", "GET", PROBE_INCREMENT, null, 405, "method_not_allowed"),
                bad("wrong method on a counter", "DELETE", PROBE_PATH, null, 405, "method_not_allowed"),
                bad("wrong method on the batch", "PUT", "/v1/increments", batchOf(1), 405, "method_not_allowed"),
                new BadRequest("no token", "POST", PROBE_INCREMENT, null, null, null, null, 401, "unauthorized"),
                new BadRequest("unknown token", "POST", PROBE_INCREMENT, "not-a-token", null, null, null, 401, "unauthorized"),
                new BadRequest("no token to read", "GET", PROBE_PATH, null, null, null, null, 401, "unauthorized"),
                new BadRequest("read token writing", "POST", "/v1/increments", READER, null, null, batchOf(1), 403, "forbidden"),
                badSet("set without a body", null, "bad_count"),
                badSet("set without a count", "{}", "bad_count"),
                badSet("count as a string", "{\"count\": \"5\"}", "bad_count"),
                badSet("count with a fraction", "{\"count\": 1.5}", "bad_count"),
                badSet("count null", "{\"count\": null}", "bad_count"),
                badSet("count 2^63", "{\"count\": 9223372036854775808}", "bad_count"),
                badSet("set with another field", "{\"count\": 1, \"delta\": 1}", "bad_body"),
                badSet("set body not an object", "[1]", "bad_body"),
                badSet("set of malformed JSON", "{\"count\": ", "malformed_json"),
                new BadRequest("read token setting", "PUT", PROBE_PATH, READER, null, null,
                        "{\"count\": 1}", 403, "forbidden"),
                new BadRequest("write token setting", "PUT", PROBE_PATH, WRITER, null, null,
                        "{\"count\": 1}", 403, "forbidden"),
                new BadRequest("no token to set", "PUT", PROBE_PATH, null, null, null,
                        "{\"count\": 1}", 401, "unauthorized"),
                new BadRequest("set body not declared as JSON", "PUT", PROBE_PATH, ADMIN, "text/plain",
                        null, "{\"count\": 1}", 415, "unsupported_media_type"),
                new BadRequest("idempotency key too long", "POST", PROBE_INCREMENT, WRITER, null, "k".repeat(129),
                        null, 400, "bad_idempotency_key"),
                new BadRequest("idempotency key empty", "POST", "/v1/increments", WRITER, null, "",
                        batchOf(1), 400, "bad_idempotency_key"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badRequests")
    void badRequest_isAnsweredAsDocumented_changesNothing_andTheServerKeepsServing(BadRequest bad) {
        long before = count("downloads", PROBE);
        ServiceClient.Call call = client.call(bad.method(), bad.path()).token(bad.token());
        if (bad.contentType() != null) {
            call.header("Content-Type", bad.contentType());
        }
        if (bad.key() != null) {
            call.header("Idempotency-Key", bad.key());
        }
        if (bad.body() != null) {
            call.body(bad.body());
        }

        Response response = call.send();

        assertThat(response.status()).as("%s", response).isEqualTo(bad.status());
        JsonNode error = response.json().get("error");
        assertThat(error.get("code").asText()).isEqualTo(bad.code());
        assertThat(error.get("message").asText()).isNotBlank();
        assertThat(count("downloads", PROBE)).isEqualTo(before);
        assertThat(client.get("/healthz").send().status()).isEqualTo(200);
    }
}
