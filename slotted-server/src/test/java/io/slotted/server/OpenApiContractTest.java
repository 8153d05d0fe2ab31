package io.slotted.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import io.slotted.BucketUnit;
import io.slotted.Limits;
import io.slotted.OwnerColumn;
import io.slotted.OwnerMode;
import io.slotted.SlottedCounters;
import io.slotted.TimeBuckets;
import io.slotted.Window;
import io.slotted.WriteMode;
import io.slotted.db.H2TestDatabase;
import io.slotted.server.config.CounterSettings;
import io.slotted.server.config.NameBounds;
import io.slotted.server.http.HttpFrontEnd;
import io.slotted.server.http.HttpSettings;
import io.slotted.server.http.error.ErrorCode;
import io.slotted.server.http.response.OpenApiDocument;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * {@code /openapi.json} and the server held together, so that neither can change without the
 * other: the document is served, is OpenAPI 3.1 and its schemas are sound JSON Schema 2020-12; the
 * routes Javalin serves are exactly the documented operations; every answer to a table of real
 * requests is a status the document lists for the operation, with a code it lists for that status
 * and a body that fits its schema; and the table produces every status the document lists, for
 * every operation.
 *
 * <p>Everything runs on H2 over real TCP, each request on a connection of its own. Most requests go
 * to one service; some answers need a service of their own: 408 and the 503s of a locked database
 * need short deadlines, 202 needs {@code --mode buffered}, and 503 {@code service_unavailable}
 * needs a service that stops while requests arrive. The one documented status no request makes
 * on purpose is 500, a failure of the server's own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OpenApiContractTest {
    /** Documented statuses no request can produce on purpose: a failure of the server's own. */
    private static final Set<Integer> NOT_PRODUCED = Set.of(500);
    private static final String READER = ServiceSuite.READER;
    private static final String WRITER = ServiceSuite.WRITER;
    private static final String ADMIN = ServiceSuite.ADMIN;
    /** A type with hour buckets whose sums the test pushes past 64 bits, by number. */
    private static final int POISONED_TYPE = 7;
    /** A type the test binds to an {@code INT} owner column, by number. */
    private static final int SMALL_COLUMN_TYPE = 4;
    private static final TimeBuckets HOURS = new TimeBuckets(BucketUnit.HOUR, Duration.ofDays(30));
    /** Type names the service may hold: its two pinned ones and {@code uploads}, so {@code extras} is one too many. */
    private static final int TYPE_NAMES = 3;
    /** A type without time buckets, by number. */
    private static final int UNBUCKETED_TYPE = 2;
    /** A type kept at 0 or above, as stock is, by number. */
    private static final int STOCK_TYPE = 9;
    /** A type with a quota of 1 a day, by number. */
    private static final int QUOTA_TYPE = 10;
    /** A type whose counters may expire, by number. */
    private static final int EXPIRING_TYPE = 12;
    private static final UnaryOperator<CounterSettings> WITH_BUCKETS =
            counters -> counters.withBuckets(Map.of(1, HOURS, POISONED_TYPE, HOURS))
                    .withNameBounds(new NameBounds(NameBounds.DEFAULTS.newIdsPerSecond(), TYPE_NAMES))
                    .withLimits(Map.of(STOCK_TYPE, Limits.atLeast(0), QUOTA_TYPE, Limits.atMost(1).per(Window.DAY)))
                    .withExpiring(Set.of(EXPIRING_TYPE));
    /** Past the 32 KiB a request head may take. */
    private static final String OVER_THE_HEAD_LIMIT = "a".repeat(HttpFrontEnd.MAX_REQUEST_HEAD_BYTES + 1024);
    private static final String OVER_THE_BODY_LIMIT = " ".repeat((int) HttpFrontEnd.MAX_BODY_BYTES);
    private static final String INCREMENT = "/v1/counters/downloads/1/increment";
    private static final String COUNTER = "/v1/counters/downloads/2";
    private static final String BATCH = "/v1/increments";
    /** The expiry of a counter the test gives a count before any request, so that it can take one. */
    private static final String EXPIRY = "/v1/counters/" + EXPIRING_TYPE + "/5/expiry";
    /** An id over the 512 bytes an id may have. */
    private static final String ID_TOO_LONG = "x".repeat(513);
    private static final String KEY = "Idempotency-Key";
    /** A request that keeps its connection open. */
    private static final String HEALTH = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";

    private final H2TestDatabase db = H2TestDatabase.instance();
    private final OpenedResources opened = new OpenedResources();
    private final String window = window();
    private String document;
    private OpenApiContract contract;
    private TestService service;

    @BeforeAll
    void startService() throws IOException {
        try (InputStream in = OpenApiDocument.class.getResourceAsStream(OpenApiDocument.RESOURCE)) {
            assertThat(in).as("%s on the classpath", OpenApiDocument.RESOURCE).isNotNull();
            document = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        contract = OpenApiContract.parse(document);
        service = opened.add(TestService.start(db, WriteMode.GROUPED, HttpSettings.defaults(), WITH_BUCKETS));
        service.store().counters().add(EXPIRING_TYPE, 5, 3);
    }

    @AfterAll
    void close() throws Exception {
        opened.close();
    }

    /** A window around now, within the retention of hour buckets. */
    private static String window() {
        Instant hour = Instant.now().truncatedTo(ChronoUnit.HOURS);
        return "from=" + hour.minus(2, ChronoUnit.HOURS) + "&to=" + hour.plus(2, ChronoUnit.HOURS);
    }

    @Test
    void servedDocument_isTheOneInTheJar_asJson_andOpenApi31() {
        RawConnection.Response served = RawConnection.exchange(service.port(),
                WireRequest.of("the document", "GET", "/openapi.json").wire());

        assertThat(served.status()).as("%s", served.head()).isEqualTo(200);
        assertThat(served.header("Content-Type")).isEqualTo("application/json");
        assertThat(served.body()).isEqualTo(document);
        assertThat(contract.version()).matches("3\\.1\\.\\d+");
    }

    @Test
    void everySchemaOfTheDocument_isJsonSchema202012_withOnlyKnownKeywords_andRefsThatResolve() {
        List<String> pointers = contract.schemaPointers();
        SoftAssertions softly = new SoftAssertions();

        for (String pointer : pointers) {
            softly.assertThat(contract.schemaProblems(pointer)).as(pointer).isEmpty();
        }

        softly.assertThat(pointers).as("schemas found").hasSizeGreaterThan(50);
        softly.assertAll();
    }

    @Test
    void errorCodes_areExactlyTheServers_andEachAnswerListsOnlyCodesOfItsStatus() {
        Map<String, Integer> server = Arrays.stream(ErrorCode.values()).collect(Collectors.toMap(
                code -> code.name().toLowerCase(Locale.ROOT), ErrorCode::status));
        SoftAssertions softly = new SoftAssertions();

        softly.assertThat(contract.errorCodes()).containsExactlyInAnyOrderElementsOf(server.keySet());
        contract.codesByAnswer().forEach((answer, codes) -> {
            for (String code : codes) {
                softly.assertThat(server.get(code)).as("%s lists %s", answer, code)
                        .isEqualTo(OpenApiContract.statusOf(answer));
            }
        });
        softly.assertAll();
    }

    @Test
    void routesJavalinServes_areExactlyTheDocumentedOperations() {
        SortedSet<String> routes = service.routes();

        assertThat(routes).as("routes Javalin serves").contains("GET /openapi.json", "HEAD /openapi.json");
        assertThat(contract.operationKeys()).as("operations of the document").isEqualTo(routes);
    }

    @Test
    void everyAnswer_isDocumented_andEveryDocumentedAnswerIsProduced() throws Exception {
        List<WireRequest> samples = samples();
        assertThat(samples.stream().map(s -> contract.operationOf(s.method(), s.target()).key()))
                .as("one sample request per documented operation").containsExactlyInAnyOrderElementsOf(
                        contract.operationKeys());
        List<Exchange> exchanges = new ArrayList<>();

        exchanges.addAll(send(service, samples));
        exchanges.addAll(send(service, table()));
        exchanges.addAll(send(service, protocolErrors(samples)));
        exchanges.addAll(readsPastTheRange());
        exchanges.addAll(setPastAnIntColumn());
        // The doctor runs one at a time, and the run a GET started may not have let go when its
        // HEAD arrives right after the answer: a HEAD run is asked until it gets its turn.
        exchanges.add(untilAnswered(service, get("a doctor run, alone", "/v1/doctor?watch=0s", ADMIN)
                .method("HEAD"), 200));
        exchanges.addAll(doctorWhileAnotherRuns());
        exchanges.addAll(bufferedIncrement());
        TestService quick = opened.add(TestService.start(db, WriteMode.GROUPED, HttpSettings.defaults()
                .withBodyDeadline(Duration.ofSeconds(1))
                .withReadiness(Duration.ofMillis(200), Duration.ofSeconds(1)), WITH_BUCKETS,
                Duration.ofSeconds(1)));
        exchanges.addAll(slowBodies(quick));
        exchanges.addAll(lockedDatabase(quick));
        exchanges.addAll(droppedTable(quick));
        exchanges.addAll(whileStopping(samples));
        exchanges.addAll(heldBack(samples));

        SoftAssertions softly = new SoftAssertions();
        for (Exchange exchange : exchanges) {
            softly.assertThat(exchange.problems(contract)).as("%s", exchange).isEmpty();
        }
        softly.assertThat(notProduced(exchanges)).as("documented answers that no request produced").isEmpty();
        softly.assertAll();
        System.out.printf("%d requests; codes listed but not produced (a status needs one request, not"
                + " every code): %s%n", exchanges.size(), codesNotProduced(exchanges));
    }

    private SortedSet<String> notProduced(List<Exchange> exchanges) {
        SortedSet<String> missing = new TreeSet<>(contract.documentedAnswers());
        exchanges.forEach(exchange -> missing.remove(exchange.answerKey(contract)));
        missing.removeIf(answer -> NOT_PRODUCED.contains(OpenApiContract.statusOf(answer)));
        return missing;
    }

    private SortedSet<String> codesNotProduced(List<Exchange> exchanges) {
        SortedSet<String> listed = new TreeSet<>();
        contract.codesByAnswer().forEach((answer, codes) -> codes.forEach(
                code -> listed.add(answer + " " + code)));
        for (Exchange exchange : exchanges) {
            listed.remove(exchange.answerKey(contract) + " " + OpenApiContract.errorCode(exchange.answer()));
        }
        return listed;
    }

    /** A request and what came back. */
    private record Exchange(WireRequest request, RawConnection.Response answer) {
        List<String> problems(OpenApiContract contract) {
            List<String> problems = new ArrayList<>(
                    contract.problems(request.method(), request.target(), answer));
            if (answer.status() / 100 == 2) {
                // The server took the body: the document must take it too.
                problems.addAll(contract.requestProblems(request.method(), request.target(), request.body()));
            }
            return problems;
        }

        String answerKey(OpenApiContract contract) {
            return contract.answerKey(request.method(), request.target(), answer.status());
        }

        @Override
        public String toString() {
            String body = answer.body().length() <= 300 ? answer.body()
                    : answer.body().substring(0, 300) + "…";
            return request + " -> " + answer.status() + " " + body;
        }
    }

    private static List<Exchange> send(TestService to, List<WireRequest> requests) {
        List<Exchange> exchanges = new ArrayList<>();
        for (WireRequest request : requests) {
            exchanges.add(new Exchange(request, RawConnection.exchange(to.port(), request.wire())));
        }
        return exchanges;
    }

    private static WireRequest get(String name, String target, String token) {
        return WireRequest.of(name, "GET", target).token(token);
    }

    private static WireRequest post(String name, String target, String token) {
        return WireRequest.of(name, "POST", target).token(token);
    }

    private static WireRequest put(String name, String target, String token) {
        return WireRequest.of(name, "PUT", target).token(token);
    }

    /** The request and, for a {@code GET}, the same as {@code HEAD}. */
    private static Stream<WireRequest> andHead(WireRequest request) {
        return request.method().equals("GET") ? Stream.of(request, request.method("HEAD"))
                : Stream.of(request);
    }

    private static List<WireRequest> withHeads(WireRequest... requests) {
        return Stream.of(requests).flatMap(OpenApiContractTest::andHead).toList();
    }

    /** One request that succeeds for every operation: the 200s, and the base of the protocol errors. */
    private List<WireRequest> samples() {
        return withHeads(
                post("an increment", INCREMENT, WRITER).json("{\"delta\": 5}"),
                get("a read", "/v1/counters/downloads/1", READER),
                put("a set", COUNTER, ADMIN).json("{\"count\": 1000}"),
                put("an expiry", EXPIRY, WRITER).json("{\"in\": \"PT1H\"}"),
                WireRequest.of("an expiry taken away", "DELETE", EXPIRY).token(WRITER),
                get("a read of several", "/v1/counters/downloads?ids=1,2,3", READER),
                post("a batch", BATCH, WRITER).json("{\"increments\": [{\"type\": \"downloads\","
                        + " \"id\": 3}, {\"type\": 2, \"id\": 3, \"delta\": -2}]}"),
                get("a series", "/v1/counters/downloads/1/series?" + window, READER),
                get("a top", "/v1/counters/downloads/top?" + window + "&n=5", READER),
                get("a doctor run", "/v1/doctor?watch=0s", ADMIN),
                get("the live report", "/v1/live", READER),
                get("the live page", "/", null),
                get("a file of the live page", "/page/live.js", null),
                get("health", "/healthz", null),
                get("readiness", "/readyz", null),
                get("metrics", "/metrics", null),
                get("the document", "/openapi.json", null));
    }

    /** The answers of the handlers: their 2xx, 4xx and 422s, and requests that reach no operation. */
    private List<WireRequest> table() {
        String keyed = "/v1/counters/downloads/10/increment";
        // A type without time buckets: a bucketed type's increments land first in pending rows with
        // room of their own (docs/library.md, "The range of a count").
        String edge = "/v1/counters/" + UNBUCKETED_TYPE + "/11/increment";
        long full = service.store().counters().config().slots(UNBUCKETED_TYPE) * SlottedCounters.MAX_DELTA;
        String batch = "{\"increments\": [{\"type\": \"downloads\", \"id\": 12}]}";
        String thousandAndOne = Stream.iterate(0, i -> i + 1).limit(HttpFrontEnd.MAX_IDS + 1)
                .map(String::valueOf).collect(Collectors.joining(","));
        String tooManyIncrements = "{\"increments\": ["
                + "{\"type\": 1, \"id\": 12},".repeat(HttpFrontEnd.MAX_INCREMENTS) + "{\"type\": 1, \"id\": 12}]}";
        return Stream.of(
                post("an increment of 0", INCREMENT, WRITER).json("{\"delta\": 0}"),
                post("an increment of malformed JSON", INCREMENT, WRITER).json("{\"delta\": "),
                post("an increment of a bad id", "/v1/counters/downloads/" + ID_TOO_LONG + "/increment", WRITER),
                post("an increment of a string id", "/v1/counters/downloads/post:8f3a/increment", WRITER),
                post("an increment of a malformed type", "/v1/counters/Down-loads/1/increment", WRITER),
                post("an increment with a bad key", INCREMENT, WRITER).header(KEY, "k".repeat(129)),
                post("an increment with a read token", INCREMENT, READER),
                post("an increment with an unknown token", INCREMENT, "not-a-token"),
                post("an increment of a new type name", "/v1/counters/uploads/1/increment", WRITER),
                post("an increment of one type name too many", "/v1/counters/extras/1/increment", WRITER),
                post("a keyed increment", keyed, WRITER).header(KEY, "contract-1").json("{\"delta\": 2}"),
                post("its replay", keyed, WRITER).header(KEY, "contract-1").json("{\"delta\": 2}"),
                post("its key reused", keyed, WRITER).header(KEY, "contract-1").json("{\"delta\": 3}"),
                post("a sale of stock there is none of", "/v1/counters/" + STOCK_TYPE + "/1/increment", WRITER)
                        .json("{\"delta\": -1}"),
                post("a batch with a sale of stock there is none of", BATCH, WRITER).json("{\"increments\":"
                        + " [{\"type\": 1, \"id\": 12}, {\"type\": " + STOCK_TYPE + ", \"id\": 1, \"delta\": -1}]}"),
                post("an increment past its quota", "/v1/counters/" + QUOTA_TYPE + "/1/increment", WRITER)
                        .json("{\"delta\": 2}"),
                post("a batch with an increment past its quota", BATCH, WRITER).json("{\"increments\":"
                        + " [{\"type\": 1, \"id\": 13}, {\"type\": " + QUOTA_TYPE + ", \"id\": 1, \"delta\": 2}]}"),
                post("an increment over 1 MiB", INCREMENT, WRITER).json("{\"delta\": 1" + OVER_THE_BODY_LIMIT + "}"),
                post("an increment as text", INCREMENT, WRITER).body("text/plain", "{\"delta\": 1}"),
                post("an increment past MAX_DELTA", edge, WRITER).json("{\"delta\": " + Long.MAX_VALUE + "}"),
                put("a set to the edge", "/v1/counters/" + UNBUCKETED_TYPE + "/11", ADMIN)
                        .json("{\"count\": " + full + "}"),
                post("an increment past the edge", edge, WRITER).json("{\"delta\": 1}"),
                get("a read of a bad id", "/v1/counters/downloads/" + ID_TOO_LONG, READER),
                get("a read of a string id", "/v1/counters/downloads/post%3A8f3a", READER),
                get("a read of a type never used", "/v1/counters/downlods/1", READER),
                put("a set without a count", COUNTER, ADMIN).json("{}"),
                put("a set with a write token", COUNTER, WRITER).json("{\"count\": 1}"),
                put("a set of a new type name", "/v1/counters/uploads/2", ADMIN).json("{\"count\": 1}"),
                put("a set of one type name too many", "/v1/counters/extras/2", ADMIN).json("{\"count\": 1}"),
                put("a set over 1 MiB", COUNTER, ADMIN).json("{\"count\": 1" + OVER_THE_BODY_LIMIT + "}"),
                put("a set as text", COUNTER, ADMIN).body("text/plain", "{\"count\": 1}"),
                get("a read of too many ids", "/v1/counters/downloads?ids=" + thousandAndOne, READER),
                get("a read of no ids", "/v1/counters/downloads", READER),
                get("a read of several of a type never used", "/v1/counters/downlods?ids=1,alice", READER),
                post("a batch of malformed JSON", BATCH, WRITER).json("{\"increments\": ["),
                post("a batch of too many", BATCH, WRITER).json(tooManyIncrements),
                post("a batch with a read token", BATCH, READER).json(batch),
                post("a batch of a new type name", BATCH, WRITER).json(batch.replace("downloads", "uploads")),
                post("a batch of one type name too many", BATCH, WRITER).json(batch.replace("downloads", "extras")),
                post("a keyed batch", BATCH, WRITER).header(KEY, "contract-2").json(batch),
                post("its replay", BATCH, WRITER).header(KEY, "contract-2").json(batch),
                post("its key reused", BATCH, WRITER).header(KEY, "contract-2")
                        .json(batch.replace("12", "13")),
                post("a batch over 1 MiB", BATCH, WRITER).json(batch + OVER_THE_BODY_LIMIT),
                post("a batch as text", BATCH, WRITER).body("text/plain", batch),
                post("a batch past the edge", BATCH, WRITER)
                        .json("{\"increments\": [{\"type\": " + UNBUCKETED_TYPE + ", \"id\": 11}]}"),
                get("a series without buckets", "/v1/counters/views/1/series?" + window, READER),
                get("a series of an unknown type", "/v1/counters/downlods/1/series?" + window, READER),
                get("a series without from", "/v1/counters/downloads/1/series?to=2026-11-22", READER),
                get("a top of n=0", "/v1/counters/downloads/top?" + window + "&n=0", READER),
                get("a top without buckets", "/v1/counters/views/top?" + window, READER),
                get("a top of an unknown type", "/v1/counters/downlods/top?" + window, READER),
                get("a doctor run of a bad window", "/v1/doctor?watch=2h", ADMIN),
                get("a doctor run with a write token", "/v1/doctor", WRITER),
                get("the live report without a token", "/v1/live", null),
                get("a file the live page does not have", "/page/secrets.txt", null),
                get("a read of a path Jetty cannot decode", "/v1/counters/downloads/%zz", READER),
                get("a read of a malformed type", "/v1/counters/Down-loads/1", READER),
                post("an increment of an array", INCREMENT, WRITER).json("[1]"),
                put("a set of a bad id", "/v1/counters/downloads/" + ID_TOO_LONG, ADMIN).json("{\"count\": 1}"),
                put("a set of a malformed type", "/v1/counters/Down-loads/2", ADMIN).json("{\"count\": 1}"),
                put("a set with another field", COUNTER, ADMIN).json("{\"count\": 1, \"delta\": 1}"),
                put("a set of malformed JSON", COUNTER, ADMIN).json("{\"count\": "),
                get("a read of several with a bad id", "/v1/counters/downloads?ids=1,,2", READER),
                get("a read of several of a malformed type", "/v1/counters/Down-loads?ids=1", READER),
                post("a batch of a delta 0", BATCH, WRITER).json(batch.replace("12}", "12, \"delta\": 0}")),
                post("a batch of an id as a string", BATCH, WRITER).json(batch.replace("12", "\"twelve\"")),
                post("a batch of an id as an object", BATCH, WRITER).json(batch.replace("12", "{}")),
                post("a batch without increments", BATCH, WRITER).json("{}"),
                post("a batch with a bad key", BATCH, WRITER).header(KEY, "k".repeat(129))
                        .json(batch),
                post("a batch of a malformed type", BATCH, WRITER).json(batch.replace("downloads", "Down-loads")),
                get("a series of a bad id", "/v1/counters/downloads/" + ID_TOO_LONG + "/series?" + window, READER),
                get("a series of a string id never used", "/v1/counters/downloads/nobody/series?" + window, READER),
                get("a series of a malformed type", "/v1/counters/Down-loads/1/series?" + window, READER),
                get("a top before the buckets kept", "/v1/counters/downloads/top?from=2000-01-01&to=2000-01-02",
                        READER),
                get("a top of a malformed type", "/v1/counters/Down-loads/top?" + window, READER),
                get("a header Jetty cannot parse", "/nowhere", null).header("Bad Header", "x"),
                get("an unknown path", "/v1/counter/downloads/1", READER),
                WireRequest.of("OPTIONS for the server as a whole", "OPTIONS", "*"),
                WireRequest.of("a counter deleted", "DELETE", "/v1/counters/downloads/1").token(ADMIN),
                get("an increment read", INCREMENT, READER),
                put("an expiry at a time", EXPIRY, WRITER).json("{\"at\": \"2099-01-01T00:00:00Z\"}"),
                get("a read of a counter that expires", "/v1/counters/" + EXPIRING_TYPE + "/5", READER),
                put("an expiry of a counter that reads 0", "/v1/counters/" + EXPIRING_TYPE + "/6/expiry", WRITER)
                        .json("{\"in\": \"PT1H\"}"),
                put("an expiry of a type that does not expire", "/v1/counters/downloads/1/expiry", WRITER)
                        .json("{\"in\": \"PT1H\"}"),
                WireRequest.of("an expiry taken from a type that does not expire", "DELETE",
                        "/v1/counters/downloads/1/expiry").token(WRITER),
                put("an expiry without a time", EXPIRY, WRITER).json("{}"),
                put("an expiry with both times", EXPIRY, WRITER).json("{\"in\": \"PT1H\", \"at\": \"2099-01-01T00:00:00Z\"}"),
                put("an expiry of an unparseable duration", EXPIRY, WRITER).json("{\"in\": \"an hour\"}"),
                put("an expiry with another field", EXPIRY, WRITER).json("{\"in\": \"PT1H\", \"count\": 1}"),
                put("an expiry of malformed JSON", EXPIRY, WRITER).json("{\"in\": "),
                put("an expiry with a read token", EXPIRY, READER).json("{\"in\": \"PT1H\"}"),
                put("an expiry over 1 MiB", EXPIRY, WRITER).json("{\"in\": \"PT1H\"" + OVER_THE_BODY_LIMIT + "}"),
                put("an expiry as text", EXPIRY, WRITER).body("text/plain", "{\"in\": \"PT1H\"}"),
                put("an expiry of a bad id", "/v1/counters/" + EXPIRING_TYPE + "/" + ID_TOO_LONG + "/expiry", WRITER)
                        .json("{\"in\": \"PT1H\"}"),
                put("an expiry of a malformed type", "/v1/counters/Down-loads/1/expiry", WRITER)
                        .json("{\"in\": \"PT1H\"}"),
                WireRequest.of("an expiry taken away with a read token", "DELETE", EXPIRY).token(READER),
                WireRequest.of("an expiry taken from a bad id", "DELETE", "/v1/counters/" + EXPIRING_TYPE + "/"
                        + ID_TOO_LONG + "/expiry").token(WRITER))
                .flatMap(OpenApiContractTest::andHead).toList();
    }

    /**
     * What the HTTP server refuses before any handler, for every operation and for a path that has
     * none: no token (where one is needed), a transfer coding it does not take, a request line or
     * headers over the limit.
     */
    private static List<WireRequest> protocolErrors(List<WireRequest> samples) {
        List<WireRequest> bases = new ArrayList<>(samples);
        bases.add(get("an unknown path", "/nowhere", null));
        List<WireRequest> refused = new ArrayList<>();
        for (WireRequest base : bases) {
            if (base.hasToken()) {
                refused.add(base.withoutToken().named(base.name() + " without a token"));
            }
            refused.add(base.inCoding("gzip, chunked").named(base.name() + " in gzip"));
            refused.add(base.target(base.target() + (base.target().contains("?") ? "&" : "?") + "pad="
                    + OVER_THE_HEAD_LIMIT).named(base.name() + " with a long URI"));
            refused.add(base.header("X-Pad", OVER_THE_HEAD_LIMIT).named(base.name() + " with long headers"));
        }
        return refused;
    }

    /** Reads of counters and buckets whose sums are past 64 bits, written there under the service. */
    private List<Exchange> readsPastTheRange() {
        long hour = Instant.now().truncatedTo(ChronoUnit.HOURS).getEpochSecond();
        db.execute("INSERT INTO " + service.table() + " (record_type, record_id, slot, count) VALUES"
                + " (1, 777, 0, " + Long.MAX_VALUE + "), (1, 777, 1, 10)");
        db.execute("INSERT INTO " + service.table() + "_buckets (record_type, bucket_start, record_id, slot,"
                + " count) VALUES (" + POISONED_TYPE + ", " + hour + ", 778, 0, " + Long.MAX_VALUE + "), ("
                + POISONED_TYPE + ", " + hour + ", 778, 1, 10)");
        return send(service, withHeads(
                get("a read of a total past 64 bits", "/v1/counters/downloads/777", READER),
                get("a read of several, one past 64 bits", "/v1/counters/downloads?ids=1,777", READER),
                get("a series past 64 bits", "/v1/counters/" + POISONED_TYPE + "/778/series?" + window, READER),
                get("a top past 64 bits", "/v1/counters/" + POISONED_TYPE + "/top?" + window, READER)));
    }

    /** A set of a count the {@code INT} owner column of a bound type cannot hold. */
    private List<Exchange> setPastAnIntColumn() {
        String owner = service.table() + "_small";
        String counter = "/v1/counters/" + SMALL_COLUMN_TYPE + "/7";
        db.execute("CREATE TABLE " + owner + " (id BIGINT PRIMARY KEY, n INT DEFAULT 0 NOT NULL)");
        db.execute("INSERT INTO " + owner + " (id, n) VALUES (7, 7)");
        try (SlottedCounters elsewhere = SlottedCounters.builder(db.dataSource()).table(service.table())
                .build()) {
            elsewhere.owners().adopt(SMALL_COLUMN_TYPE, OwnerColumn.parse(owner + ".id.n"), OwnerMode.FOLD);
            try {
                // The service follows the binding within about a second: reads then add the column.
                await().atMost(Duration.ofSeconds(30)).until(() -> RawConnection.exchange(service.port(),
                        get("a read", counter, READER).wire()).body().contains("\"count\":7"));
                return send(service, List.of(put("a set past an INT column", counter, ADMIN)
                        .json("{\"count\": 3000000000}")));
            } finally {
                elsewhere.owners().release(SMALL_COLUMN_TYPE);
            }
        } finally {
            db.dropTable(owner);
        }
    }

    /**
     * Doctor runs, GET and HEAD, while another holds the one run at a time: the first waits for a
     * connection of the service's pool, which the test has borrowed in full.
     */
    private List<Exchange> doctorWhileAnotherRuns() throws Exception {
        HikariDataSource pool = service.store().pool();
        List<Connection> borrowed = new ArrayList<>();
        ExecutorService runner = Executors.newSingleThreadExecutor();
        try {
            for (int i = 0; i < TestService.POOL_SIZE; i++) {
                borrowed.add(pool.getConnection());
            }
            Future<List<Exchange>> first = runner.submit(() -> send(service,
                    List.of(get("a doctor run waiting for a connection", "/v1/doctor?watch=0s", ADMIN))));
            await().atMost(Duration.ofSeconds(30)).until(
                    () -> pool.getHikariPoolMXBean().getThreadsAwaitingConnection() > 0);
            List<Exchange> exchanges = new ArrayList<>(send(service,
                    withHeads(get("a doctor run meanwhile", "/v1/doctor?watch=0s", ADMIN))));
            closeAll(borrowed);
            exchanges.addAll(first.get(1, TimeUnit.MINUTES));
            return exchanges;
        } finally {
            closeAll(borrowed);
            runner.shutdownNow();
        }
    }

    private static void closeAll(List<Connection> connections) throws SQLException {
        for (Connection connection : connections) {
            connection.close();
        }
        connections.clear();
    }

    /** Sends the request until it is answered with the status, as the state it waits for comes. */
    private static Exchange untilAnswered(TestService to, WireRequest request, int status) {
        AtomicReference<Exchange> last = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            last.set(send(to, List.of(request)).get(0));
            return last.get().answer().status() == status;
        });
        return last.get();
    }

    /**
     * Every request with a token, from an address that has just presented a burst of wrong
     * tokens: each is answered 429 {@code auth_held_back} without its token being checked. A
     * service of its own, so no other request meets the held-back address.
     */
    private List<Exchange> heldBack(List<WireRequest> samples) {
        List<Exchange> exchanges = new ArrayList<>();
        try (TestService guarded = TestService.start(db, WriteMode.GROUPED, HttpSettings.defaults(),
                WITH_BUCKETS)) {
            WireRequest guess = get("a wrong token", "/v1/counters/downloads/1", "a-wrong-token");
            exchanges.add(untilAnswered(guarded, guess, 429));
            for (WireRequest sample : samples) {
                if (sample.hasToken()) {
                    // One attempt a second is checked again: ask until this one is held back.
                    exchanges.add(untilAnswered(guarded, sample.withoutToken().token("a-wrong-token")
                            .named(sample.name() + " from a held-back address"), 429));
                }
            }
        }
        return exchanges;
    }

    /** An increment without a key in {@code --mode buffered}: accepted, not yet durable. */
    private List<Exchange> bufferedIncrement() {
        try (TestService buffered = TestService.start(db, WriteMode.BUFFERED, HttpSettings.defaults())) {
            return send(buffered, List.of(post("a buffered increment", INCREMENT, WRITER)));
        }
    }

    /** Bodies that stop arriving halfway, answered once the (short) body deadline has passed. */
    private static List<Exchange> slowBodies(TestService quick) {
        List<Exchange> exchanges = new ArrayList<>();
        for (WireRequest request : List.of(
                post("an increment whose body stops", INCREMENT, WRITER).json("{\"delta\": 1}"),
                put("a set whose body stops", COUNTER, ADMIN).json("{\"count\": 1}"),
                put("an expiry whose body stops", EXPIRY, WRITER).json("{\"in\": \"PT1H\"}"),
                post("a batch whose body stops", BATCH, WRITER).json("{\"increments\": []}"))) {
            try (RawConnection connection = new RawConnection(quick.port(), Duration.ofSeconds(30))) {
                connection.send(request.head() + request.body().substring(0, 4));
                exchanges.add(new Exchange(request, connection.read()));
            }
        }
        return exchanges;
    }

    /**
     * Every counter operation and readiness while another session holds the whole database
     * ({@code SET EXCLUSIVE 1}, H2's nearest to a table lock): answered 503 at the (short) request
     * deadline, readiness as soon as its probe has waited too long.
     */
    private List<Exchange> lockedDatabase(TestService quick) throws Exception {
        List<WireRequest> waiting = withHeads(
                post("an increment under a lock", INCREMENT, WRITER),
                post("a keyed increment under a lock", INCREMENT, WRITER).header(KEY, "locked-1"),
                get("a read under a lock", "/v1/counters/downloads/1", READER),
                put("a set under a lock", COUNTER, ADMIN).json("{\"count\": 1}"),
                put("an expiry under a lock", EXPIRY, WRITER).json("{\"in\": \"PT1H\"}"),
                WireRequest.of("an expiry taken away under a lock", "DELETE", EXPIRY).token(WRITER),
                get("a read of several under a lock", "/v1/counters/downloads?ids=1,2", READER),
                post("a batch under a lock", BATCH, WRITER).json("{\"increments\": [{\"type\": 1, \"id\": 1}]}"),
                get("a series under a lock", "/v1/counters/downloads/1/series?" + window, READER),
                get("a top under a lock", "/v1/counters/downloads/top?" + window, READER));
        ExecutorService clients = Executors.newFixedThreadPool(waiting.size());
        try (Connection lock = db.dataSource().getConnection()) {
            lock.setAutoCommit(false);
            execute(lock, "SET EXCLUSIVE 1");
            try {
                List<Future<Exchange>> answers = new ArrayList<>();
                for (WireRequest request : waiting) {
                    answers.add(clients.submit(() -> send(quick, List.of(request)).get(0)));
                }
                List<Exchange> exchanges = new ArrayList<>();
                for (WireRequest ready : withHeads(get("readiness under a lock", "/readyz", null))) {
                    exchanges.add(untilAnswered(quick, ready, 503));
                }
                for (Future<Exchange> answer : answers) {
                    exchanges.add(answer.get(1, TimeUnit.MINUTES));
                }
                return exchanges;
            } finally {
                execute(lock, "SET EXCLUSIVE 0");
                lock.rollback();
            }
        } finally {
            clients.shutdownNow();
        }
    }

    /** Counter operations and readiness while the counter tables are gone, until migrated again. */
    private List<Exchange> droppedTable(TestService quick) {
        db.dropCounterTables(quick.table());
        try {
            List<Exchange> exchanges = new ArrayList<>();
            for (WireRequest ready : withHeads(get("readiness without a table", "/readyz", null))) {
                exchanges.add(untilAnswered(quick, ready, 503));
            }
            exchanges.addAll(send(quick, withHeads(
                    post("an increment without a table", INCREMENT, WRITER),
                    get("a read without a table", "/v1/counters/downloads/1", READER),
                    put("a set without a table", COUNTER, ADMIN).json("{\"count\": 1}"),
                    put("an expiry without a table", EXPIRY, WRITER).json("{\"in\": \"PT1H\"}"),
                    WireRequest.of("an expiry taken away without a table", "DELETE", EXPIRY).token(WRITER),
                    get("a read of several without a table", "/v1/counters/downloads?ids=1,2", READER),
                    post("a batch without a table", BATCH, WRITER)
                            .json("{\"increments\": [{\"type\": 1, \"id\": 1}]}"),
                    get("a series without a table", "/v1/counters/downloads/1/series?" + window, READER),
                    get("a top without a table", "/v1/counters/downloads/top?" + window, READER))));
            return exchanges;
        } finally {
            quick.store().counters().migrate();
        }
    }

    private static void execute(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    /**
     * Every sample, and a path with no operation, sent while the service stops: on connections it
     * accepted before, while a request whose body is still arriving keeps the stop waiting.
     */
    private List<Exchange> whileStopping(List<WireRequest> samples) throws Exception {
        TestService stopping = opened.add(TestService.start(db, WriteMode.GROUPED,
                HttpSettings.defaults().withBodyDeadline(Duration.ofMinutes(1)), WITH_BUCKETS));
        List<WireRequest> requests = new ArrayList<>(samples);
        requests.add(get("an unknown path", "/nowhere", null));
        List<RawConnection> connections = new ArrayList<>();
        for (int i = 0; i <= requests.size(); i++) {
            connections.add(keptAlive(stopping));
        }
        RawConnection probe = connections.remove(requests.size());
        WireRequest inFlight = post("an increment in flight", INCREMENT, WRITER).json("{\"delta\": 1}");
        RawConnection held = opened.add(new RawConnection(stopping.port(), Duration.ofSeconds(60)));
        held.send(inFlight.head() + "{");
        ExecutorService stopper = Executors.newSingleThreadExecutor();
        try {
            Future<?> stopped = stopper.submit(stopping::stop);
            await().atMost(Duration.ofSeconds(30)).until(() -> probe.send(HEALTH).read().status() == 503);
            List<Exchange> exchanges = new ArrayList<>();
            for (int i = 0; i < requests.size(); i++) {
                WireRequest request = requests.get(i);
                RawConnection connection = connections.get(i).send(request.wire());
                exchanges.add(new Exchange(request, request.method().equals("HEAD")
                        ? connection.readHeadOnly() : connection.read()));
            }
            held.send(inFlight.body().substring(1));
            exchanges.add(new Exchange(inFlight, held.read()));
            stopped.get(1, TimeUnit.MINUTES);
            return exchanges;
        } finally {
            stopper.shutdownNow();
        }
    }

    /** A connection the service has accepted and answered on, left open for the next request. */
    private RawConnection keptAlive(TestService to) {
        RawConnection connection = opened.add(new RawConnection(to.port(), Duration.ofSeconds(30)));
        assertThat(connection.send(HEALTH).read().status()).isEqualTo(200);
        return connection;
    }
}
