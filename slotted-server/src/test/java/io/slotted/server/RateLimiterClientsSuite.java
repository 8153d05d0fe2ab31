package io.slotted.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.slotted.WriteMode;
import io.slotted.db.TestDatabase;
import io.slotted.server.config.CounterSettings;
import io.slotted.server.config.DatabaseSettings;
import io.slotted.server.config.ServerSettings;
import io.slotted.server.config.TypeLimits;
import io.slotted.server.config.TypeNames;
import io.slotted.server.http.HttpSettings;
import io.slotted.server.resp.RespSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Rate limiters of other languages, unchanged, counting through the service's Redis protocol
 * with {@code --expiring}: Rack::Attack (Debian's {@code ruby-rack-attack} and {@code ruby-redis})
 * throttling requests, and the fixed-window limiter users write with redis-py and ioredis
 * ({@code INCR} then {@code EXPIRE} in a {@code MULTI}). Each script sends its requests from
 * several threads at once and prints the count each request got.
 *
 * <p>A window's key counts its requests 1, 2, 3 … exactly, however they were grouped into
 * commits, so exactly the limit's number of them are let through when more came; a key whose
 * requests span windows (Rack::Attack's, grouped by client address here) counts from 1 again in
 * each. Once the windows have expired, the sweep has removed every one of their rows.
 */
@ParameterizedClass(name = "[{arguments}]")
@MethodSource("io.slotted.db.TestDatabases#underFrontEnds")
class RateLimiterClientsSuite {
    private static final AtomicInteger TABLES = new AtomicInteger();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration SCRIPT_TIMEOUT = Duration.ofMinutes(2);
    private static final int LIMIT = 25;
    private static final int PERIOD = 2;

    private final TestDatabase db;
    private String table;
    private SlottedServer server;

    RateLimiterClientsSuite(TestDatabase db) {
        this.db = db;
    }

    @BeforeAll
    static void installNodeClients() throws InterruptedException {
        NodeClients.install();
    }

    @BeforeEach
    void startService() {
        table = "rl_" + ProcessHandle.current().pid() + "_" + TABLES.incrementAndGet();
        TypeNames types = TypeNames.parse("rack=30,limiter=31");
        server = SlottedServer.start(new ServerSettings(0, "127.0.0.1", new DatabaseSettings(db.jdbcUrl(), null, null),
                null, types, new CounterSettings(table, WriteMode.GROUPED, null, Duration.ZERO)
                        .withExpiring(TypeLimits.parseExpiring(List.of("rack,limiter"), types))),
                HttpSettings.defaults(), RespSettings.on(0));
    }

    @AfterEach
    void stopService() {
        server.close();
        db.dropCounterTables(table);
    }

    @Test
    void rackAttack_throttlesExactlyTheLimitPerWindow() throws Exception {
        List<JsonNode> requests = run(List.of("ruby", "src/test/ruby/rack_attack_throttle.rb"),
                "apt-get install ruby ruby-rack-attack ruby-redis", 8, 40);
        checkWindows(requests, "ip", 30);
    }

    @Test
    void redisPy_fixedWindowLimiter_letsExactlyTheLimitThroughPerWindow() throws Exception {
        List<JsonNode> requests = run(List.of("/usr/bin/python3", "src/test/python/fixed_window_limiter.py"),
                "apt-get install python3-redis", 8, 40);
        checkWindows(requests, "key", 31);
    }

    @Test
    void ioredis_fixedWindowLimiter_letsExactlyTheLimitThroughPerWindow() throws Exception {
        List<JsonNode> requests = run(List.of("node", NodeClients.DIRECTORY.resolve("fixed-window-limiter.js").toString()),
                "apt-get install nodejs npm, then (cd slotted-server/src/test/node && npm ci)", 8, 40);
        checkWindows(requests, "key", 31);
    }

    /**
     * Per key, the counts seen are runs of 1, 2, 3 … (one run per window the key spans), and a
     * request was let through exactly when its count was within the limit; then every window
     * expires and the sweep removes its rows.
     */
    private void checkWindows(List<JsonNode> requests, String keyField, int type) throws Exception {
        assertThat(requests).hasSize(8 * 40);
        Map<String, List<JsonNode>> byKey = requests.stream().collect(Collectors.groupingBy(r -> r.get(keyField).asText()));
        int windows = 0;
        int letThrough = 0;
        for (Map.Entry<String, List<JsonNode>> key : byKey.entrySet()) {
            TreeMap<Long, Integer> seen = new TreeMap<>();
            for (JsonNode request : key.getValue()) {
                long count = request.get("count").asLong();
                seen.merge(count, 1, Integer::sum);
                assertThat(request.get("status").asInt()).as("%s", request).isEqualTo(count <= LIMIT ? 200 : 429);
                letThrough += count <= LIMIT ? 1 : 0;
            }
            assertThat(seen.firstKey()).as("key %s counts from 1", key.getKey()).isEqualTo(1);
            int previous = Integer.MAX_VALUE;
            for (Map.Entry<Long, Integer> count : seen.entrySet()) {
                assertThat(count.getValue()).as("key %s: requests that got %d, no more than got %d (counts %s)",
                        key.getKey(), count.getKey(), count.getKey() - 1, seen).isLessThanOrEqualTo(previous);
                assertThat(seen).as("key %s: counts without a gap", key.getKey()).containsKey(count.getKey() - 1 == 0
                        ? 1 : count.getKey() - 1);
                previous = count.getValue();
            }
            windows += seen.get(1L);
            if (keyField.equals("key")) { // one window: its requests got 1 … n, each once
                assertThat(seen.keySet()).as("key %s", key.getKey()).hasSize(key.getValue().size());
                assertThat(key.getValue().stream().filter(r -> r.get("status").asInt() == 200).count())
                        .as("let through in window %s", key.getKey()).isEqualTo(Math.min(LIMIT, key.getValue().size()));
            }
        }
        System.out.println(db + " " + keyField + ": " + requests.size() + " requests in " + windows + " windows, "
                + letThrough + " let through");
        assertThat(letThrough).as("some were throttled").isLessThan(requests.size());
        long deadline = System.nanoTime() + Duration.ofSeconds(PERIOD + 15).toNanos();
        while (rows(type) > 0 && System.nanoTime() < deadline) {
            Thread.sleep(200);
        }
        assertThat(rows(type)).as("rows of the expired windows left after the sweep").isZero();
    }

    /** The type's slot rows and expiry rows, by SQL. */
    private long rows(int type) throws SQLException {
        try (Connection connection = db.dataSource().getConnection();
                Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SELECT (SELECT COUNT(*) FROM " + table
                        + " WHERE record_type = " + type + ") + (SELECT COUNT(*) FROM " + table + "_expiry WHERE record_type = "
                        + type + ")")) {
            row.next();
            return row.getLong(1);
        }
    }

    private List<JsonNode> run(List<String> script, String install, int threads, int perThread) throws Exception {
        List<String> command = new ArrayList<>(script);
        command.addAll(List.of(String.valueOf(server.respPort()), String.valueOf(LIMIT), String.valueOf(PERIOD),
                String.valueOf(threads), String.valueOf(perThread)));
        Path stdout = Files.createTempFile("limiter", ".out");
        Path stderr = Files.createTempFile("limiter", ".err");
        Process process;
        try {
            process = new ProcessBuilder(command).redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
        } catch (IOException e) {
            throw new AssertionError(command.get(0) + " cannot be run: " + install, e);
        }
        boolean finished = process.waitFor(SCRIPT_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        if (!finished) {
            process.destroyForcibly().waitFor();
        }
        String printed = Files.readString(stdout);
        if (!finished || process.exitValue() != 0) {
            throw new AssertionError(String.format("%s %s%n--- stdout:%n%s--- stderr:%n%s", String.join(" ", command),
                    !finished ? "timed out" : process.exitValue() == 2 ? "found no client: " + install
                            : "exited with " + process.exitValue(), printed, Files.readString(stderr)));
        }
        List<JsonNode> lines = new ArrayList<>();
        for (String line : printed.lines().toList()) {
            lines.add(JSON.readTree(line));
        }
        return lines;
    }
}
