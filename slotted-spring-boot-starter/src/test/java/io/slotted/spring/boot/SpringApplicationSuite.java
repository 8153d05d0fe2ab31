package io.slotted.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
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
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
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
            assertThat(countedRowsEqualCounters(app)).isEqualTo(half);
        }
    }

    /**
     * What a new user writes: {@code @Transactional} methods that insert a row and count it, 64
     * requests at once, on HikariCP's default pool of 10. Every request completes — none waits
     * for the pool's connection timeout — and each repository's count equals its rows, with the
     * increment joining the transaction or going through group commit.
     */
    @ParameterizedTest(name = "join-transactions={0}")
    @ValueSource(booleans = {false, true})
    void sixtyFourTransactionalRequests_onTheDefaultPool_allCompleteAndCountExactly(boolean join) throws Exception {
        try (ConfigurableApplicationContext app = start("slotted.join-transactions=" + join)) {
            HikariDataSource pool = app.getBean(HikariDataSource.class);
            assertThat(pool.getMaximumPoolSize()).as("HikariCP's default size").isEqualTo(10);
            assertThat(app.getBean(SlottedConnections.class).ownPool()).isTrue();
            int port = ((WebServerApplicationContext) app).getWebServer().getPort();
            int clients = 64;
            int requestsEach = 10;
            ExecutorService threads = Executors.newFixedThreadPool(clients);
            CountDownLatch go = new CountDownLatch(1);
            Queue<Long> latencies = new ConcurrentLinkedQueue<>();
            Map<Integer, AtomicLong> byStatus = new ConcurrentHashMap<>();
            List<Future<?>> done = new ArrayList<>();
            for (int client = 0; client < clients; client++) {
                int first = client;
                done.add(threads.submit(() -> {
                    go.await();
                    for (int i = 0; i < requestsEach; i++) {
                        long started = System.nanoTime();
                        int status = post(port, "/repositories/" + (first + i) % REPOSITORIES + "/downloads");
                        latencies.add(System.nanoTime() - started);
                        byStatus.computeIfAbsent(status, s -> new AtomicLong()).incrementAndGet();
                    }
                    return null;
                }));
            }
            long started = System.nanoTime();
            go.countDown();
            for (Future<?> client : done) {
                client.get();
            }
            long elapsed = System.nanoTime() - started;
            threads.shutdown();

            assertThat(byStatus).containsOnlyKeys(201);
            assertThat(countedRowsEqualCounters(app)).isEqualTo((long) clients * requestsEach);
            long[] sorted = latencies.stream().mapToLong(Long::longValue).sorted().toArray();
            long p99 = sorted[sorted.length * 99 / 100];
            System.out.printf("%s, join-transactions=%s: %d requests from %d clients on a pool of 10 in %.1f s;"
                    + " p50 %.1f ms, p99 %.1f ms, max %.1f ms%n", database, join, sorted.length, clients,
                    elapsed / 1e9, sorted[sorted.length / 2] / 1e6, p99 / 1e6, sorted[sorted.length - 1] / 1e6);
            // A request that had waited for the pool would have failed after its 30 s timeout;
            // a third of it leaves room for a slow machine and none for such a wait.
            assertThat(Duration.ofNanos(p99)).isLessThan(Duration.ofMillis(pool.getConnectionTimeout() / 3));
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

    /** Checks each repository's count against its rows; returns the rows of all. */
    private long countedRowsEqualCounters(ConfigurableApplicationContext app) throws Exception {
        SlottedCounters counters = app.getBean(SlottedCounters.class);
        long counted = 0;
        for (long repository = 0; repository < REPOSITORIES; repository++) {
            long rows = queryLong("SELECT COUNT(*) FROM " + table + "_downloads WHERE repository_id = ?",
                    repository);
            assertThat(counters.get(DownloadsApplication.DOWNLOADS, repository))
                    .as("downloads of repository %d", repository).isEqualTo(rows);
            counted += rows;
        }
        return counted;
    }

    private ConfigurableApplicationContext start(String... properties) {
        return new SpringApplicationBuilder(DownloadsApplication.class)
                .properties("spring.datasource.url=" + database.jdbcUrl(),
                        "server.port=0",
                        "server.address=127.0.0.1",
                        "server.shutdown=graceful",
                        "spring.main.banner-mode=off",
                        "spring.flyway.enabled=false", // the tables are migrate()'s here: SchemaToolsSuite runs the tools
                        "spring.liquibase.enabled=false",
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
