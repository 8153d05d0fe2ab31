package io.slotted.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.slotted.SlottedCounters;
import io.slotted.db.TestDatabase;
import io.slotted.spring.boot.app.DownloadsApplication;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A real Spring Boot application — Tomcat, HikariCP, {@code @Transactional} — counting through the
 * starter on a real database server.
 */
abstract class SpringApplicationSuite {
    private static final int REPOSITORIES = 4;

    private final TestDatabase database = database();
    private final String table = "boot_" + Long.toHexString(new Random().nextLong() & 0xffffffffL);
    private final HttpClient http = HttpClient.newHttpClient();

    /** The database server this suite runs on. */
    protected abstract TestDatabase database();

    /** The DDL of the downloads table: an auto-generated id and the repository's id. */
    protected abstract String downloadsTableDdl(String name);

    @BeforeEach
    void createDownloadsTable() {
        database.execute(downloadsTableDdl(table + "_downloads"));
    }

    @AfterEach
    void dropTables() {
        database.dropTable(table + "_downloads");
        database.dropCounterTables(table);
    }

    @Test
    void transactionalRequests_halfFailingAfterCounting_countExactlyTheCommittedRows() throws Exception {
        try (ConfigurableApplicationContext app = start("slotted.join-transactions=true")) {
            int port = ((WebServerApplicationContext) app).getWebServer().getPort();
            int clients = 32;
            int requestsEach = 16;
            ExecutorService pool = Executors.newFixedThreadPool(clients);
            CountDownLatch go = new CountDownLatch(1);
            Map<Integer, AtomicLong> byStatus = new ConcurrentHashMap<>();
            List<Future<?>> done = new ArrayList<>();
            for (int client = 0; client < clients; client++) {
                boolean failing = client % 2 == 1;
                int first = client;
                done.add(pool.submit(() -> {
                    go.await();
                    for (int i = 0; i < requestsEach; i++) {
                        long repository = (first + i) % REPOSITORIES;
                        int status = post(port, "/repositories/" + repository + "/downloads?fail=" + failing);
                        byStatus.computeIfAbsent(status, s -> new AtomicLong()).incrementAndGet();
                    }
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> client : done) {
                client.get();
            }
            pool.shutdown();

            int half = clients / 2 * requestsEach;
            assertThat(byStatus).containsOnlyKeys(201, 500);
            assertThat(byStatus.get(201)).hasValue(half);
            assertThat(byStatus.get(500)).hasValue(half);
            SlottedCounters counters = app.getBean(SlottedCounters.class);
            long counted = 0;
            for (long repository = 0; repository < REPOSITORIES; repository++) {
                long rows = queryLong("SELECT COUNT(*) FROM " + table + "_downloads WHERE repository_id = ?",
                        repository);
                assertThat(counters.get(DownloadsApplication.DOWNLOADS, repository))
                        .as("downloads of repository %d", repository).isEqualTo(rows);
                counted += rows;
            }
            assertThat(counted).isEqualTo(half);
        }
    }

    @Test
    void shutdown_underLoad_losesNoAcceptedIncrement() throws Exception {
        ConfigurableApplicationContext app = start("slotted.join-transactions=false");
        SlottedCounters counters = app.getBean(SlottedCounters.class);
        int writers = 16;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        AtomicLong accepted = new AtomicLong();
        AtomicBoolean closed = new AtomicBoolean();
        List<CompletableFuture<Void>> pending = new ArrayList<>();
        List<Future<?>> done = new ArrayList<>();
        for (int writer = 0; writer < writers; writer++) {
            long delta = writer + 1;
            boolean async = writer % 2 == 0;
            done.add(pool.submit(() -> {
                List<CompletableFuture<Void>> mine = new ArrayList<>();
                for (long i = 0; ; i++) {
                    long repository = i % REPOSITORIES;
                    try {
                        if (async) {
                            mine.add(counters.addAsync(DownloadsApplication.DOWNLOADS, repository, delta));
                        } else {
                            counters.add(DownloadsApplication.DOWNLOADS, repository, delta);
                        }
                        accepted.addAndGet(delta);
                    } catch (IllegalStateException e) {
                        assertThat(closed).as("refused only once closing: " + e.getMessage()).isTrue();
                        break;
                    }
                }
                synchronized (pending) {
                    pending.addAll(mine);
                }
                return null;
            }));
        }
        while (counters.stats().incrementsApplied() < 20_000) {
            Thread.onSpinWait();
        }

        closed.set(true);
        app.close();

        for (Future<?> writer : done) {
            writer.get();
        }
        pool.shutdown();
        for (CompletableFuture<Void> increment : pending) {
            increment.get(); // every accepted increment was written before close returned
        }
        long written = 0;
        for (long repository = 0; repository < REPOSITORIES; repository++) {
            written += queryLong("SELECT COALESCE(SUM(count), 0) FROM " + table
                    + " WHERE record_type = " + DownloadsApplication.DOWNLOADS + " AND record_id = ?", repository);
        }
        assertThat(written).isEqualTo(accepted.get());
    }

    private ConfigurableApplicationContext start(String... properties) {
        return new SpringApplicationBuilder(DownloadsApplication.class)
                .properties("spring.datasource.url=" + database.jdbcUrl(),
                        "spring.datasource.hikari.maximum-pool-size=12",
                        "server.port=0",
                        "server.address=127.0.0.1",
                        "server.shutdown=graceful",
                        "spring.main.banner-mode=off",
                        "slotted.table=" + table)
                .properties(properties)
                .run();
    }

    private int post(int port, String path) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .POST(HttpRequest.BodyPublishers.noBody()).build();
        return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private long queryLong(String sql, long parameter) throws Exception {
        try (Connection connection = database.dataSource().getConnection();
                PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setLong(1, parameter);
            try (ResultSet row = statement.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        }
    }
}
