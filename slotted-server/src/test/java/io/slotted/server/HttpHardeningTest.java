package io.slotted.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.slotted.WriteMode;
import io.slotted.db.H2TestDatabase;
import io.slotted.server.RawConnection.Response;
import io.slotted.server.http.HttpFrontEnd;
import io.slotted.server.http.HttpSettings;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The service under abuse at the HTTP level stays up, bounded and exact: each test is one attack
 * from issue 8, made for real over TCP against a service with test-sized limits. The database
 * plays no part in these, so they run on H2 only; the database faults are {@link
 * DatabaseFaultSuite}'s.
 */
class HttpHardeningTest {
    private static final long SEED = 8L;
    private static final String INCREMENT = "/v1/counters/downloads/7/increment";
    private static final Set<String> METHOD_TAGS =
            Set.of("GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH", "other");
    private static final Set<String> ROUTE_TAGS = Set.of("/v1/counters/{type}/{id}/increment",
            "/v1/counters/{type}/{id}", "/v1/counters/{type}", "/v1/increments", "/healthz",
            "/readyz", "/metrics", "unmatched");

    private final OpenedResources opened = new OpenedResources();
    private TestService service;
    private ServiceClient client;

    private void start(WriteMode mode, HttpSettings settings) {
        service = TestService.start(H2TestDatabase.instance(), mode, settings);
        opened.add(service);
        client = service.client();
    }

    private void start(HttpSettings settings) {
        start(WriteMode.GROUPED, settings);
    }

    @AfterEach
    void close() throws Exception {
        opened.close();
    }

    private <T extends AutoCloseable> T opened(T closeable) {
        return opened.add(closeable);
    }

    private long count(long id) {
        return client.get("/v1/counters/downloads/" + id).token(ServiceSuite.READER).send().json()
                .get("count").longValue();
    }

    @Test
    void randomMethodNames_addNoMetricSeries() throws Exception {
        start(HttpSettings.defaults());
        System.out.println("random method names from seed " + SEED);
        Random random = new Random(SEED);
        List<List<String>> batches = Stream.generate(() -> Stream.generate(() -> randomMethod(random))
                .limit(50).toList()).limit(60).toList();
        ExecutorService senders = Executors.newFixedThreadPool(3);
        try {
            List<Future<Integer>> notFound = new ArrayList<>();
            for (int sender = 0; sender < 3; sender++) {
                List<List<String>> mine = batches.subList(sender * 20, sender * 20 + 20);
                notFound.add(senders.submit(() -> pipeline(mine)));
            }
            for (Future<Integer> answered : notFound) {
                assertThat(answered.get(2, TimeUnit.MINUTES)).isEqualTo(20 * 50);
            }
        } finally {
            senders.shutdownNow();
        }

        String metrics = client.get("/metrics").send().text();

        List<String> series = metrics.lines()
                .filter(line -> line.startsWith("slotted_http_requests_seconds_count{")).toList();
        assertThat(series).as("one series per method, route and status class").hasSizeLessThan(40);
        assertThat(tags(series, "method")).isSubsetOf(METHOD_TAGS).contains("other");
        assertThat(tags(series, "route")).isSubsetOf(ROUTE_TAGS).contains("unmatched");
        assertThat(metrics.length()).as("the scrape's size").isLessThan(256 * 1024);
    }

    private static String randomMethod(Random random) {
        int length = 40 + random.nextInt(21);
        StringBuilder method = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            method.append((char) ('A' + random.nextInt(26)));
        }
        return method.toString();
    }

    /** Sends each batch pipelined on one connection, then reads its answers; counts the 404s. */
    private int pipeline(List<List<String>> batches) {
        int notFound = 0;
        try (RawConnection connection = new RawConnection(service.port(), Duration.ofSeconds(30))) {
            for (List<String> methods : batches) {
                connection.send(methods.stream().map(m -> m + " /x HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                        .collect(Collectors.joining()));
                for (int i = 0; i < methods.size(); i++) {
                    Response response = connection.read();
                    notFound += response.status() == 404 && response.body().contains("\"not_found\"") ? 1 : 0;
                }
            }
        }
        return notFound;
    }

    private static Set<String> tags(List<String> series, String tag) {
        Matcher value = Pattern.compile(tag + "=\"([^\"]*)\"").matcher(String.join("\n", series));
        Set<String> values = new TreeSet<>();
        while (value.find()) {
            values.add(value.group(1));
        }
        return values;
    }

    @Test
    void batchOverTheItemLimit_isRefusedAtTheFirstItemTooMany_beforeTheRestIsParsed() {
        start(HttpSettings.defaults());
        String item = "{\"type\":\"downloads\",\"id\":9,\"delta\":1},";
        // After the first item too many the body is no longer JSON: a parser that reads the whole
        // body before checking the limit answers malformed_json; a streaming one never gets there.
        String body = "{\"increments\":[" + item.repeat(HttpFrontEnd.MAX_INCREMENTS + 1) + "{{{ not JSON";

        ServiceClient.Response response = client.post("/v1/increments").token(ServiceSuite.WRITER)
                .body(body).send();

        assertThat(response.status()).as("%s", response).isEqualTo(400);
        assertThat(response.errorCode()).isEqualTo("too_many_increments");
        assertThat(count(9)).isZero();
    }

    @Test
    void concurrentMegabyteBombs_areEachRefusedWith400() throws Exception {
        start(HttpSettings.defaults());
        String empties = "{\"increments\":[" + "{},".repeat(349_000) + "{}]}";
        String items = "{\"increments\":[" + "{\"type\":1,\"id\":5},".repeat(58_000) + "{\"type\":1,\"id\":5}]}";
        assertThat(empties.length()).isLessThan((int) HttpFrontEnd.MAX_BODY_BYTES);
        assertThat(items.length()).isLessThan((int) HttpFrontEnd.MAX_BODY_BYTES);
        ExecutorService bombers = Executors.newFixedThreadPool(16);
        try {
            List<Future<ServiceClient.Response>> answers = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                String body = i % 2 == 0 ? empties : items;
                answers.add(bombers.submit(() -> client.post("/v1/increments").token(ServiceSuite.WRITER)
                        .body(body).send()));
            }
            for (int i = 0; i < answers.size(); i++) {
                ServiceClient.Response response = answers.get(i).get(2, TimeUnit.MINUTES);
                assertThat(response.status()).as("%s", response).isEqualTo(400);
                assertThat(response.errorCode()).isIn("bad_type", "too_many_increments");
            }
        } finally {
            bombers.shutdownNow();
        }
        assertThat(count(5)).isZero();
    }

    @Test
    void slowBodies_areAnswered408_whileHealthAndOtherClientsAreServed() throws Exception {
        int workers = 2;
        start(HttpSettings.defaults().withWorkers(workers, 2).withBodyDeadline(Duration.ofSeconds(2)));
        ScheduledExecutorService trickle = Executors.newScheduledThreadPool(1);
        ExecutorService readers = Executors.newCachedThreadPool();
        try {
            List<Future<Response>> slow = new ArrayList<>();
            for (int i = 0; i < 4 * workers; i++) {
                RawConnection connection = opened(new RawConnection(service.port(), Duration.ofSeconds(60)));
                connection.send("POST " + INCREMENT + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                        + ServiceSuite.WRITER + "\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n");
                trickle.scheduleAtFixedRate(() -> connection.send(" "), 0, 1, TimeUnit.SECONDS);
                slow.add(readers.submit(connection::read));
            }
            long before = count(7);

            List<Long> healthMillis = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                long start = System.nanoTime();
                assertThat(client.get("/healthz").send().status()).isEqualTo(200);
                healthMillis.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
                assertThat(client.post(INCREMENT).token(ServiceSuite.WRITER).send().status()).isEqualTo(200);
            }

            assertThat(healthMillis.stream().sorted().toList().get(healthMillis.size() / 2))
                    .as("median /healthz in ms of %s", healthMillis).isLessThan(100);
            for (Future<Response> answer : slow) {
                Response response = answer.get(30, TimeUnit.SECONDS);
                assertThat(response.status()).as("%s", response).isEqualTo(408);
                assertThat(response.body()).contains("\"code\":\"body_timeout\"");
            }
            assertThat(count(7)).isEqualTo(before + 10);
        } finally {
            trickle.shutdownNow();
            readers.shutdownNow();
        }
    }

    @Test
    void connectionsBeyondTheLimit_waitToBeAccepted_whileAKeptAliveClientIsServed() throws Exception {
        int limit = 4;
        start(HttpSettings.defaults().withConnections(limit, Duration.ofSeconds(30)));
        String health = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
        RawConnection kept = opened(new RawConnection(service.port(), Duration.ofSeconds(30)));
        assertThat(kept.send(health).read().status()).isEqualTo(200);
        ExecutorService readers = Executors.newCachedThreadPool();
        try {
            List<RawConnection> flood = new ArrayList<>();
            List<Future<Response>> answers = new ArrayList<>();
            for (int i = 0; i < 4 * limit; i++) {
                RawConnection connection = opened(new RawConnection(service.port(), Duration.ofSeconds(3)));
                flood.add(connection.send(health));
                answers.add(readers.submit(connection::read));
            }
            int answered = 0;
            for (Future<Response> answer : answers) {
                try {
                    answered += answer.get(30, TimeUnit.SECONDS).status() == 200 ? 1 : 0;
                } catch (ExecutionException waiting) {
                    // Not accepted within the read timeout: it waits behind the limit.
                }
            }

            assertThat(answered).as("answered beyond the kept-alive connection").isLessThanOrEqualTo(limit - 1);
            assertThat(kept.send(health).read().status()).as("the kept-alive client").isEqualTo(200);
            flood.forEach(RawConnection::close);
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(
                    RawConnection.exchange(service.port(), health.replace("\r\n\r\n", "\r\nConnection: close\r\n\r\n"))
                            .status()).isEqualTo(200));
        } finally {
            readers.shutdownNow();
        }
    }

    @Test
    void unknownCharset_is415_andNeverA5xx() {
        start(HttpSettings.defaults());

        ServiceClient.Response bogus = client.post(INCREMENT).token(ServiceSuite.WRITER)
                .header("Content-Type", "application/json; charset=bogus").body("{\"delta\": 1}").send();
        ServiceClient.Response utf16 = client.post(INCREMENT).token(ServiceSuite.WRITER)
                .header("Content-Type", "application/json; charset=utf-16")
                .body("{\"delta\": 1}".getBytes(StandardCharsets.UTF_16)).send();
        ServiceClient.Response quotedUtf8 = client.post(INCREMENT).token(ServiceSuite.WRITER)
                .header("Content-Type", "application/json; charset=\"UTF-8\"").body("{\"delta\": 1}").send();

        assertThat(bogus.status()).as("%s", bogus).isEqualTo(415);
        assertThat(bogus.errorCode()).isEqualTo("unsupported_media_type");
        assertThat(bogus.json().at("/error/message").asText()).contains("bogus");
        assertThat(utf16.status()).as("%s", utf16).isEqualTo(415);
        assertThat(quotedUtf8.status()).as("%s", quotedUtf8).isEqualTo(200);
        assertThat(count(7)).isEqualTo(1);
    }

    @Test
    void bodiesNotInUtf8_are400() {
        start(HttpSettings.defaults());
        byte[] invalid = "{\"increments\": [{\"type\": \"downloads\u00e9\", \"id\": 7}]}"
                .getBytes(StandardCharsets.ISO_8859_1);

        ServiceClient.Response utf16 = client.post(INCREMENT).token(ServiceSuite.WRITER)
                .body("{\"delta\": 1}".getBytes(StandardCharsets.UTF_16)).send();
        ServiceClient.Response utf32 = client.post(INCREMENT).token(ServiceSuite.WRITER)
                .body("{\"delta\": 1}".getBytes(Charset.forName("UTF-32BE"))).send();
        ServiceClient.Response notUtf8 = client.post("/v1/increments").token(ServiceSuite.WRITER)
                .body(invalid).send();

        for (ServiceClient.Response response : List.of(utf16, utf32, notUtf8)) {
            assertThat(response.status()).as("%s", response).isEqualTo(400);
            assertThat(response.errorCode()).isEqualTo("malformed_json");
        }
        assertThat(count(7)).isZero();
    }

    @Test
    void transferCodingsOtherThanPlainChunked_andChunkedOnHttp10_are400() {
        start(HttpSettings.defaults());
        String headers = " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + ServiceSuite.WRITER
                + "\r\nContent-Type: application/json\r\nConnection: close\r\n";
        String chunkedBody = "\r\nc\r\n{\"delta\": 1}\r\n0\r\n\r\n";

        Response gzipChunked = RawConnection.exchange(service.port(), "POST " + INCREMENT + headers
                + "Transfer-Encoding: gzip, chunked\r\n" + chunkedBody);
        Response twoHeaders = RawConnection.exchange(service.port(), "POST " + INCREMENT + headers
                + "Transfer-Encoding: identity\r\nTransfer-Encoding: chunked\r\n" + chunkedBody);
        Response http10 = RawConnection.exchange(service.port(), "POST " + INCREMENT
                + headers.replace("HTTP/1.1", "HTTP/1.0") + "Transfer-Encoding: chunked\r\n" + chunkedBody);
        Response plainChunked = RawConnection.exchange(service.port(), "POST " + INCREMENT + headers
                + "Transfer-Encoding: chunked\r\n" + chunkedBody);

        for (Response response : List.of(gzipChunked, twoHeaders, http10)) {
            assertThat(response.status()).as("%s", response).isEqualTo(400);
            assertThat(response.body()).contains("\"code\":\"bad_transfer_encoding\"");
        }
        assertThat(plainChunked.status()).as("%s", plainChunked).isEqualTo(200);
        assertThat(count(7)).isEqualTo(1);
    }

    @Test
    void aThousandIdsOfTwentyCharacters_areReadInOneRequest() {
        start(HttpSettings.defaults());
        String twenty = LongStream.range(0, HttpFrontEnd.MAX_IDS).mapToObj(i -> Long.toString(-1_000_000_000_000_000_000L - i))
                .collect(Collectors.joining(","));
        String nineteen = LongStream.range(0, HttpFrontEnd.MAX_IDS).mapToObj(i -> Long.toString(Long.MAX_VALUE - i))
                .collect(Collectors.joining(","));
        assertThat(twenty.split(",")[HttpFrontEnd.MAX_IDS - 1]).hasSize(20);

        for (String ids : List.of(twenty, nineteen)) {
            ServiceClient.Response response = client.get("/v1/counters/downloads?ids=" + ids)
                    .token(ServiceSuite.READER).send();

            assertThat(response.status()).as("%s", response).isEqualTo(200);
            assertThat(response.json().get("counts").size()).isEqualTo(HttpFrontEnd.MAX_IDS);
        }
    }

    @Test
    void head_authenticatesAndValidatesLikeGet() {
        start(HttpSettings.defaults());

        int noToken = client.call("HEAD", "/v1/counters/BADTYPE/abc").send().status();
        int badType = client.call("HEAD", "/v1/counters/BADTYPE/abc").token(ServiceSuite.READER).send().status();
        int badIds = client.call("HEAD", "/v1/counters/downloads?ids=1,,2").token(ServiceSuite.READER).send().status();
        int good = client.call("HEAD", "/v1/counters/downloads/7").token(ServiceSuite.READER).send().status();

        assertThat(noToken).isEqualTo(client.get("/v1/counters/BADTYPE/abc").send().status()).isEqualTo(401);
        assertThat(badType).isEqualTo(400);
        assertThat(badIds).isEqualTo(400);
        assertThat(good).isEqualTo(200);
    }

    @Test
    void optionsForTheServerAsAWhole_isAnsweredInTheJsonErrorShape() {
        start(HttpSettings.defaults());

        Response star = RawConnection.exchange(service.port(),
                "OPTIONS * HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");
        Response path = RawConnection.exchange(service.port(),
                "OPTIONS /v1/increments HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n");

        assertThat(star.head()).as("%s", star).containsIgnoringCase("Content-Type: application/json");
        assertThat(star.body()).startsWith("{\"error\":{\"code\":\"").contains("\"message\":\"");
        assertThat(star.status()).isBetween(400, 499);
        assertThat(path.status()).isEqualTo(405);
        assertThat(path.body()).contains("\"code\":\"method_not_allowed\"");
    }

    @Test
    void bufferedMode_answersIncrements202NotDurable_andKeyedOnesAndBatches200Durable() {
        start(WriteMode.BUFFERED, HttpSettings.defaults());

        ServiceClient.Response buffered = client.post(INCREMENT).token(ServiceSuite.WRITER).send();
        ServiceClient.Response keyed = client.post(INCREMENT).token(ServiceSuite.WRITER)
                .header("Idempotency-Key", "buffered-1").send();
        ServiceClient.Response batch = client.post("/v1/increments").token(ServiceSuite.WRITER)
                .body("{\"increments\": [{\"type\": \"downloads\", \"id\": 7}]}").send();

        assertThat(buffered.status()).isEqualTo(202);
        assertThat(buffered.text()).isEqualTo(
                "{\"type\":\"downloads\",\"id\":7,\"delta\":1,\"replayed\":false,\"durable\":false}");
        assertThat(keyed.status()).isEqualTo(200);
        assertThat(keyed.json().get("durable").booleanValue()).isTrue();
        assertThat(batch.status()).isEqualTo(200);
        assertThat(batch.text()).isEqualTo("{\"applied\":1,\"durable\":true}");
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(count(7)).isEqualTo(3));
    }
}
