package io.slotted.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.slotted.BucketUnit;
import io.slotted.Limits;
import io.slotted.TimeBuckets;
import io.slotted.WriteMode;
import io.slotted.db.H2TestDatabase;
import io.slotted.server.http.HttpSettings;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The live page in a real browser: headless Chromium (Debian's {@code chromium}), driven by
 * playwright-core from {@code src/test/node/live-page.js}, against a service on H2 under load from
 * writers over HTTP. The page must refuse to show anything without a token, show the rates moving
 * once the token is entered, and show the counter types and the top counters exactly as SQL reads
 * them from the service's tables; it must fit a phone's width, and show its static parts without
 * JavaScript. The screenshot it takes is kept in {@code target/live-page/}, and is the one the
 * README shows.
 */
class LivePageBrowserTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path OUT = Path.of("target", "live-page");
    private static final int DOWNLOADS = 1;
    private static final int STOCK = 9;
    private static final int IDS = 40;
    private static final int WRITERS = 4;
    private static final long SEED = 33;
    private static final Duration STEP = Duration.ofSeconds(60);

    private final H2TestDatabase db = H2TestDatabase.instance();
    private final OpenedResources opened = new OpenedResources();

    @BeforeAll
    static void installPlaywright() throws InterruptedException {
        NodeClients.install();
    }

    @AfterEach
    void close() throws Exception {
        opened.close();
    }

    @Test
    void thePage_refusesWithoutAToken_thenShowsRatesMoving_andTypesAndTopCountersAsSqlReadsThem() throws Exception {
        TestService service = opened.add(TestService.start(db, WriteMode.GROUPED, HttpSettings.defaults(),
                counters -> counters.withBuckets(Map.of(DOWNLOADS, new TimeBuckets(BucketUnit.HOUR, Duration.ofDays(30))))
                        .withLimits(Map.of(STOCK, Limits.atLeast(0)))));
        assertThat(service.client().get("/v1/live").send().status()).as("the data without a token").isEqualTo(401);
        // Stock to sell: the first write of the type records its limits in the type registry.
        assertThat(service.client().post("/v1/counters/" + STOCK + "/1/increment").token(ServiceSuite.WRITER)
                .body("{\"delta\": 5}").send().status()).isEqualTo(200);
        Files.createDirectories(OUT);
        System.out.printf("seed %d%n", SEED);

        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicLong acknowledged = new AtomicLong();
        ExecutorService writers = Executors.newFixedThreadPool(WRITERS);
        List<Future<?>> load = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
            Random random = new Random(SEED + w);
            ServiceClient client = service.client();
            load.add(writers.submit(() -> write(client, random, writing, acknowledged)));
        }
        Process node = new ProcessBuilder("node", NodeClients.DIRECTORY.resolve("live-page.js").toString(),
                "http://127.0.0.1:" + service.port(), ServiceSuite.READER, OUT.toAbsolutePath().toString())
                .redirectError(OUT.resolve("node-stderr.log").toFile()).start();
        try (BufferedReader steps = new BufferedReader(new InputStreamReader(node.getInputStream(), StandardCharsets.UTF_8));
                Writer next = node.outputWriter(StandardCharsets.UTF_8)) {
            JsonNode refused = step(steps, node, "refused");
            assertThat(refused.path("liveStatuses").toString()).as("what /v1/live answered the page").contains("401");
            assertThat(refused.path("formVisible").asBoolean()).as("the token form shows").isTrue();
            assertThat(refused.path("rate").asText()).as("no figure shown without a token").isEqualTo("—");

            JsonNode rates = step(steps, node, "rates");
            List<Long> shown = new ArrayList<>();
            rates.path("rates").forEach(rate -> shown.add(Long.parseLong(rate.asText().replace(",", ""))));
            assertThat(shown).as("increments per second, once a second under load").hasSize(8)
                    .anyMatch(rate -> rate > 0);
            assertThat(new TreeSet<>(shown)).as("the rates move").hasSizeGreaterThan(1);
            assertThat(rates.path("charts").asInt()).as("uPlot's charts").isEqualTo(3);
            assertThat(rates.path("url").asText()).as("the token is never in the URL").doesNotContain(ServiceSuite.READER);

            writing.set(false);
            for (Future<?> writer : load) {
                writer.get(1, TimeUnit.MINUTES);
            }
            Instant stopped = Instant.now();
            next.write(stopped + "\n");
            next.flush();
            JsonNode read = step(steps, node, "read");
            assertThat(read.path("consoleErrors")).as("errors in the browser's console").isEmpty();
            assertThat(read.path("doctor").asText()).as("the doctor on demand, refused to a read token")
                    .contains("The doctor answered 403").contains("admin");
            assertTypes(service, read.path("types"));
            assertTop(service, read.path("top"), acknowledged.get());
            assertThat(read.path("phoneWidths").path("page").asInt()).as("no sideways scrolling on a phone")
                    .isLessThanOrEqualTo(read.path("phoneWidths").path("viewport").asInt());
            assertThat(read.path("noScript").path("headings").toString()).as("the static parts without JavaScript")
                    .contains("Counter types", "Top counters of the last hour", "Doctor");
            assertThat(read.path("noScript").path("notice").asText()).contains("/v1/live", "/metrics");
            assertThat(OUT.resolve("live-page.png")).as("the screenshot, kept as a test artifact").isNotEmptyFile();
        } finally {
            writing.set(false);
            writers.shutdownNow();
            node.destroyForcibly();
        }
        assertThat(node.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }

    /** Increments of 1 to 3 on ids chosen with a skew, until told to stop; counts what was acknowledged. */
    private static Void write(ServiceClient client, Random random, AtomicBoolean writing, AtomicLong acknowledged) {
        while (writing.get()) {
            long id = (long) Math.floor(IDS * Math.pow(random.nextDouble(), 2));
            int delta = 1 + random.nextInt(3);
            ServiceClient.Response response = client.post("/v1/counters/downloads/" + id + "/increment")
                    .token(ServiceSuite.WRITER).body("{\"delta\": " + delta + "}").send();
            assertThat(response.status()).as("%s", response).isEqualTo(200);
            acknowledged.addAndGet(delta);
        }
        return null;
    }

    /** The next line node prints, which must be the step named; its failure, with node's log, if not. */
    private static JsonNode step(BufferedReader steps, Process node, String name) throws Exception {
        ExecutorService reader = Executors.newSingleThreadExecutor();
        try {
            String line = reader.submit(steps::readLine).get(STEP.toSeconds(), TimeUnit.SECONDS);
            if (line == null) {
                node.waitFor(10, TimeUnit.SECONDS);
                throw new AssertionError("live-page.js ended before the step '" + name + "' (exit "
                        + (node.isAlive() ? "none yet" : node.exitValue()) + "); Chromium comes from Debian's"
                        + " chromium package, playwright-core from npm ci in src/test/node:\n"
                        + Files.readString(OUT.resolve("node-stderr.log")));
            }
            JsonNode step = JSON.readTree(line);
            assertThat(step.path("step").asText()).as("%s", line).isEqualTo(name);
            return step;
        } finally {
            reader.shutdownNow();
        }
    }

    /** Every type the service knows, with its slots and limits as the type registry's rows say. */
    private void assertTypes(TestService service, JsonNode shown) throws SQLException {
        Map<Integer, List<String>> rows = new LinkedHashMap<>();
        shown.forEach(row -> rows.put(row.path("type").asInt(), cells(row.path("cells"))));
        TreeSet<Integer> expected = new TreeSet<>(List.of(DOWNLOADS, 2, STOCK));
        Map<Integer, Long> minimums = new LinkedHashMap<>();
        try (Connection connection = db.dataSource().getConnection();
                PreparedStatement select = connection.prepareStatement(
                        "SELECT record_type, lower_bound FROM " + service.table() + "_types");
                ResultSet registered = select.executeQuery()) {
            while (registered.next()) {
                expected.add(registered.getInt(1));
                minimums.put(registered.getInt(1), registered.getLong(2));
            }
        }
        assertThat(rows.keySet()).as("the types shown").containsExactlyElementsOf(expected);
        assertThat(rows.get(DOWNLOADS)).containsExactly("1", "downloads", "16", "—", "—", "—", "hour:30d");
        assertThat(rows.get(2)).containsExactly("2", "views", "16", "—", "—", "—", "—");
        assertThat(minimums).as("the registry's row of the stock type").containsEntry(STOCK, 0L);
        assertThat(rows.get(STOCK)).containsExactly("9", "—", "16", minimums.get(STOCK) + " .. ", "—", "—", "—");
    }

    /** The top counters shown are the top of SQL's sums over the same buckets, and every increment is in them. */
    private void assertTop(TestService service, JsonNode shown, long acknowledged) throws SQLException {
        assertThat(shown).hasSize(1);
        JsonNode top = shown.get(0);
        assertThat(top.path("type").asInt()).isEqualTo(DOWNLOADS);
        long from = Instant.parse(top.path("from").asText()).getEpochSecond();
        Map<String, String> sums = new LinkedHashMap<>();
        long total = 0;
        try (Connection connection = db.dataSource().getConnection();
                PreparedStatement select = connection.prepareStatement("SELECT record_id, SUM(n) FROM"
                        + " (SELECT record_id, count AS n FROM " + service.table() + "_buckets"
                        + " WHERE record_type = ? AND bucket_start >= ?"
                        + " UNION ALL SELECT record_id, count AS n FROM " + service.table()
                        + " WHERE record_type = ? AND slot <= ?) b"
                        + " GROUP BY record_id ORDER BY SUM(n) DESC, record_id")) {
            select.setInt(1, DOWNLOADS);
            select.setLong(2, from);
            select.setInt(3, DOWNLOADS);
            // The hours' increments not yet moved into the bucket table: pending rows of the
            // counter table, slot -2^20 - (hour number × 16 + share) (docs/time-buckets.md).
            select.setLong(4, -(1L << 20) - from / 3600 * 16);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    if (sums.size() < 10) {
                        sums.put(Long.toString(rows.getLong(1)), Long.toString(rows.getLong(2)));
                    }
                    total += rows.getLong(2);
                }
            }
        }
        Map<String, String> page = new LinkedHashMap<>();
        top.path("counters").forEach(c -> page.put(c.path("id").asText(), c.path("count").asText()));
        assertThat(page).as("the top counters, in order").containsExactlyEntriesOf(sums);
        assertThat(total).as("SQL's sum of the window's buckets: every acknowledged increment, once")
                .isEqualTo(acknowledged);
    }

    private static List<String> cells(JsonNode cells) {
        List<String> texts = new ArrayList<>();
        cells.forEach(cell -> texts.add(cell.asText()));
        return texts;
    }
}
