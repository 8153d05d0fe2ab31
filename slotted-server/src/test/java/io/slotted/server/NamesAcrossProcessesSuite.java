package io.slotted.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import io.slotted.db.TestDatabase;
import io.slotted.server.cli.Main;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;

/**
 * Two {@code slotted serve} processes, each with its own name cache, meeting the same thousand new
 * keys (twenty type names nobody configured, fifty string ids each) at the same moment: every
 * name gets one number, every count lands, and a service started again later finds every mapping.
 * The services run in a database of their own, made and dropped by the test, so their default
 * tables meet nothing else: on every database server.
 */
@ParameterizedClass(name = "[{arguments}]")
@MethodSource("io.slotted.db.TestDatabases#servers")
class NamesAcrossProcessesSuite {
    private static final int TYPES = 20;
    private static final int IDS_PER_TYPE = 50;
    /** How long a client waits for an answer: two services start on two cores, their JIT still cold. */
    private static final int TIMEOUT_MILLIS = 60_000;
    private static final Pattern RESP_LISTENING = Pattern.compile("listening for the Redis protocol on [^ ]+:(\\d+)\\R");

    private final TestDatabase db;
    private final List<Process> services = new ArrayList<>();
    private String database;
    private String url;

    NamesAcrossProcessesSuite(TestDatabase db) {
        this.db = db;
    }

    @BeforeEach
    void ownDatabase() throws SQLException {
        // Two services take 18 connections each; the tests' shared pool gives back what it holds idle.
        if (db.dataSource() instanceof HikariDataSource shared) {
            shared.getHikariPoolMXBean().softEvictConnections();
        }
        database = "slotted_names_" + ProcessHandle.current().pid();
        execute("DROP DATABASE IF EXISTS " + database);
        execute("CREATE DATABASE " + database);
        url = db.jdbcUrl().replaceFirst("(//[^/]+/)[^?]*", "$1" + database);
    }

    @AfterEach
    void stopAndDrop() throws Exception {
        for (Process service : services) {
            service.destroy();
            service.waitFor(60, TimeUnit.SECONDS);
        }
        execute("DROP DATABASE IF EXISTS " + database);
    }

    @Test
    void twoServicesMeetingTheSameThousandNewKeysAtOnce_giveEachNameOneNumber_andARestartKeepsThem()
            throws Exception {
        List<String> keys = new ArrayList<>();
        for (int t = 0; t < TYPES; t++) {
            for (int i = 0; i < IDS_PER_TYPE; i++) {
                keys.add("type" + t + ":user " + i + " ✓");
            }
        }
        int first = serve("first");
        int second = serve("second");

        ExecutorService clients = Executors.newFixedThreadPool(2);
        try {
            Future<List<Long>> a = clients.submit(incrementEach(first, keys, 1));
            Future<List<Long>> b = clients.submit(incrementEach(second, keys, 2));
            assertThat(a.get(3, TimeUnit.MINUTES)).hasSize(keys.size()).allMatch(total -> total >= 1);
            assertThat(b.get(3, TimeUnit.MINUTES)).hasSize(keys.size()).allMatch(total -> total >= 1);
        } finally {
            clients.shutdownNow();
        }

        assertThat(namesRecorded()).isEqualTo(TYPES + TYPES * IDS_PER_TYPE);
        try (Jedis jedis = new Jedis("127.0.0.1", first, TIMEOUT_MILLIS);
                Jedis other = new Jedis("127.0.0.1", second, TIMEOUT_MILLIS)) {
            for (String key : keys) {
                assertThat(jedis.get(key)).as(key).isEqualTo("2");
                assertThat(other.get(key)).as(key).isEqualTo("2");
            }
        }
        assertThat(totalsByName()).hasSize(keys.size()).allSatisfy((key, total) -> assertThat(total).isEqualTo(2));

        stopAll();
        int again = serve("again");
        try (Jedis jedis = new Jedis("127.0.0.1", again, TIMEOUT_MILLIS)) {
            for (String key : keys) {
                assertThat(jedis.get(key)).as(key).isEqualTo("2");
            }
            assertThat(jedis.incr(keys.get(0))).isEqualTo(3);
        }
        assertThat(namesRecorded()).isEqualTo(TYPES + TYPES * IDS_PER_TYPE);
    }

    /** One client of a service sending an increment of every key, in an order of its own. */
    private static Callable<List<Long>> incrementEach(int port, List<String> keys, long seed) {
        return () -> {
            List<String> order = new ArrayList<>(keys);
            Collections.shuffle(order, new Random(seed));
            try (Jedis jedis = new Jedis("127.0.0.1", port, TIMEOUT_MILLIS)) {
                Pipeline pipeline = jedis.pipelined();
                List<Response<Long>> totals = new ArrayList<>();
                order.forEach(key -> totals.add(pipeline.incr(key)));
                pipeline.sync();
                return totals.stream().map(Response::get).toList();
            }
        };
    }

    /** Starts {@code slotted serve} in a process of its own; answers its Redis port once it listens. */
    /**
     * Starts a service on ports it picks itself, and returns the Redis-protocol port its log
     * names once the line is whole: a port picked here and bound later by the child could be
     * taken meanwhile.
     */
    private int serve(String name) throws Exception {
        Path log = Files.createDirectories(Path.of("target", "names-across-processes")).resolve(name + ".log");
        Process service = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName(), "serve",
                "--port", "0", "--resp-port", "0", "--db", url)
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        services.add(service);
        return await().atMost(Duration.ofSeconds(90)).until(() -> {
            assertThat(service.isAlive()).as(Files.readString(log)).isTrue();
            Matcher listening = RESP_LISTENING.matcher(Files.readString(log));
            return listening.find() ? Integer.parseInt(listening.group(1)) : 0;
        }, port -> port > 0);
    }

    private void stopAll() throws InterruptedException {
        for (Process service : services) {
            service.destroy();
            assertThat(service.waitFor(60, TimeUnit.SECONDS)).as("stopped on SIGTERM").isTrue();
        }
        services.clear();
    }

    private long namesRecorded() throws SQLException {
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SELECT COUNT(*) FROM slotted_counters_names")) {
            row.next();
            return row.getLong(1);
        }
    }

    /** Each counter's total, read by its type name and id through the name dictionary, as SQL users read it. */
    private Map<String, Long> totalsByName() throws SQLException {
        Map<String, Long> totals = new HashMap<>();
        String names = "slotted_counters_names";
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT t.name, i.name, SUM(c.count) FROM"
                        + " slotted_counters c JOIN " + names + " i ON i.record_type = c.record_type"
                        + " AND i.record_id = c.record_id JOIN " + names + " t ON t.record_type = "
                        + Integer.MIN_VALUE + " AND t.record_id = c.record_type GROUP BY t.name, i.name")) {
            while (rows.next()) {
                totals.put(rows.getString(1) + ":" + rows.getString(2), rows.getLong(3));
            }
        }
        return totals;
    }

    private void execute(String sql) throws SQLException {
        try (Connection connection = db.dataSource().getConnection(); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

}
