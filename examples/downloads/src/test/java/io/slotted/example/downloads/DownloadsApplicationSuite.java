package io.slotted.example.downloads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;

/** The example over real HTTP, as a user would drive it. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
abstract class DownloadsApplicationSuite {
    private static final Pattern LISTED = Pattern.compile("<li data-id=\"(\\d+)\">[^:]*: (\\d+)</li>");

    private final HttpClient http = HttpClient.newHttpClient();

    @LocalServerPort
    private int port;

    @Autowired
    private JdbcTemplate sql;

    @Test
    void downloads_concurrently_areCountedExactlyAndRankedByTheRolledUpColumn() throws Exception {
        // Repository r gets 6 - r downloads from each of 16 clients; 99 does not exist.
        Map<Long, Long> before = downloadRows();
        ExecutorService clients = Executors.newFixedThreadPool(16);
        List<Future<Map<Integer, Integer>>> done = new ArrayList<>();
        for (int client = 0; client < 16; client++) {
            done.add(clients.submit(() -> {
                Map<Integer, Integer> statuses = new LinkedHashMap<>();
                for (long repository = 1; repository <= 5; repository++) {
                    for (long i = 0; i < 6 - repository; i++) {
                        statuses.merge(post("/repositories/" + repository + "/downloads"), 1, Integer::sum);
                    }
                }
                statuses.merge(post("/repositories/99/downloads"), 1, Integer::sum);
                return statuses;
            }));
        }
        Map<Integer, Integer> statuses = new LinkedHashMap<>();
        for (Future<Map<Integer, Integer>> client : done) {
            client.get().forEach((status, n) -> statuses.merge(status, n, Integer::sum));
        }
        clients.shutdown();

        assertThat(statuses).containsOnly(Map.entry(201, 16 * 15), Map.entry(404, 16));
        Map<Long, Long> rows = downloadRows();
        for (long repository = 1; repository <= 5; repository++) {
            assertThat(rows.get(repository) - before.getOrDefault(repository, 0L))
                    .as("downloads recorded of repository %d", repository).isEqualTo(16 * (6 - repository));
        }
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                assertThat(listed(get("/"))).containsExactlyEntriesOf(rows));
    }

    @Test
    void download_answersTheCountIncludingItself() throws Exception {
        long before = sql.queryForObject("SELECT COUNT(*) FROM downloads WHERE repository_id = 3", Long.class);
        HttpResponse<String> response = send(HttpRequest.newBuilder(uri("/repositories/3/downloads"))
                .POST(HttpRequest.BodyPublishers.noBody()).build());
        assertThat(response.statusCode()).isEqualTo(201);
        assertThat(response.body()).contains("\"downloads\":" + (before + 1)).contains("\"repository\":3");
    }

    @Test
    void health_showsTheCountersUp() throws Exception {
        String health = get("/actuator/health");
        assertThat(health).containsPattern("\"slotted\":\\{\"details\":\\{[^}]*\"queueCapacity\":100000[^}]*\\},\"status\":\"UP\"\\}");
    }

    @Test
    void metrics_showTheIncrements() throws Exception {
        post("/repositories/1/downloads");
        assertThat(get("/actuator/metrics/slotted.increments.applied")).contains("\"name\":\"slotted.increments.applied\"");
        assertThat(get("/actuator/metrics/slotted.rollup.lag")).contains("\"baseUnit\":\"seconds\"");
    }

    /** Download rows per repository, most first, as the page ranks them. */
    private Map<Long, Long> downloadRows() {
        Map<Long, Long> rows = new LinkedHashMap<>();
        sql.query("SELECT r.id, COUNT(d.id) FROM repositories r LEFT JOIN downloads d ON d.repository_id = r.id"
                + " GROUP BY r.id ORDER BY 2 DESC, r.id", row -> {
                    rows.put(row.getLong(1), row.getLong(2));
                });
        return rows;
    }

    private static Map<Long, Long> listed(String page) {
        Map<Long, Long> listed = new LinkedHashMap<>();
        Matcher item = LISTED.matcher(page);
        while (item.find()) {
            listed.put(Long.parseLong(item.group(1)), Long.parseLong(item.group(2)));
        }
        return listed;
    }

    private int post(String path) throws Exception {
        return send(HttpRequest.newBuilder(uri(path)).POST(HttpRequest.BodyPublishers.noBody()).build())
                .statusCode();
    }

    private String get(String path) throws Exception {
        HttpResponse<String> response = send(HttpRequest.newBuilder(uri(path)).GET().build());
        assertThat(response.statusCode()).as("GET %s: %s", path, response.body()).isEqualTo(200);
        return response.body();
    }

    private HttpResponse<String> send(HttpRequest request) throws Exception {
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }
}
