package io.slotted.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.slotted.Limits;
import io.slotted.SlottedCounters;
import io.slotted.WriteMode;
import io.slotted.db.TestDatabase;
import io.slotted.server.config.CounterSettings;
import io.slotted.server.config.DatabaseSettings;
import io.slotted.server.config.ServerSettings;
import io.slotted.server.config.TypeNames;
import io.slotted.server.http.HttpSettings;
import io.slotted.server.resp.RespSettings;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Redis protocol of {@code docs/api.md}, spoken by real clients of other languages — redis-py (Debian's
 * {@code python3-redis}) and ioredis (npm) — to a real service on MariaDB: what the clients check is
 * the protocol, which does not change with the database under the service (the suites of the front
 * ends check the write path on every database). The service runs with the tokens of
 * {@link ServiceSuite} and the types {@code downloads=1,views=2}.
 *
 * <p>Each test runs one scenario of a client script, {@code src/test/python/redis_py_client.py} or
 * {@code src/test/node/ioredis-client.js}, as a process. The scripts are written the way users of
 * those clients write code; they print each step's answer as the client hands it over (a JSON line),
 * exit non-zero on an error the scenario does not expect, and use record ids from a base the test
 * gives. The test checks the answers, and the totals the table holds with SQL, exactly. For each
 * client it covers:
 * <ul>
 *   <li>every counting command: {@code INCR}, {@code INCRBY}, {@code DECR}, {@code DECRBY}, {@code GET},
 *       {@code MGET}, {@code HINCRBY}, {@code HGET}, {@code HMGET}, {@code EXISTS}, {@code SET} and
 *       {@code DEL} with the admin token, {@code INCRBYFLOAT} refused;</li>
 *   <li>a transaction (redis-py's default {@code pipeline()}, ioredis's {@code multi()}) that answers
 *       each increment's total and applies them all, and one with a command that cannot be queued,
 *       which fails whole ({@code EXECABORT}) and applies nothing;</li>
 *   <li>a plain pipeline of 1,000 increments, and 64 concurrent clients adding known deltas;</li>
 *   <li>errors that change nothing: a bad number, a bad key, {@code WATCH}, overflow;</li>
 *   <li>tokens: none answers {@code NOAUTH}, a read token cannot increment, a write token cannot
 *       {@code SET}.</li>
 * </ul>
 *
 * <p>The clients are installed as {@code scripts/test.sh} installs them: {@code apt-get install
 * python3-redis} for {@code /usr/bin/python3}, and {@code npm ci} in {@code src/test/node}. A client that is missing
 * fails the test with a message that says how to install it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ParameterizedClass(name = "[{arguments}]")
@MethodSource("io.slotted.db.TestDatabases#underFrontEnds")
class OtherLanguageClientsSuite {
    /** A type kept at 0 or above, as stock is. */
    private static final int STOCK = 3;
    private static final AtomicInteger TABLES = new AtomicInteger();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration SCRIPT_TIMEOUT = Duration.ofMinutes(2);
    /** The exit status of a script whose client library is not installed. */
    private static final int MISSING_CLIENT = 2;

    /** A client of another language: the script that drives it, and how it shows the server's errors. */
    enum Client {
        REDIS_PY("/usr/bin/python3", "src/test/python/redis_py_client.py", "true", "incrby",
                "apt-get install python3 python3-redis") {
            /** redis-py raises a class chosen by the error's first word, and drops that word. */
            @Override
            String shows(String error) {
                String code = error.substring(0, error.indexOf(' '));
                String raised = Map.of("ERR", "ResponseError", "NOAUTH", "AuthenticationError",
                        "NOPERM", "NoPermissionError").get(code);
                return raised + ": " + error.substring(code.length() + 1);
            }
        },
        IOREDIS("node", "src/test/node/ioredis-client.js", "\"OK\"", "incr",
                "apt-get install nodejs npm, then (cd slotted-server/src/test/node && npm ci)") {
            @Override
            String shows(String error) {
                return "ReplyError: " + error;
            }
        };

        private final String interpreter;
        private final String script;
        /** What the client answers for {@code OK}, as JSON. */
        private final String ok;
        /** The command its {@code incr(key)} sends: redis-py's sends {@code INCRBY key 1}. */
        private final String incrSends;
        private final String install;

        Client(String interpreter, String script, String ok, String incrSends, String install) {
            this.interpreter = interpreter;
            this.script = script;
            this.ok = ok;
            this.incrSends = incrSends;
            this.install = install;
        }

        /** How the client shows the error the server answered as {@code -error}. */
        abstract String shows(String error);
    }

    @Parameter
    private TestDatabase db;
    private final AtomicLong ids = new AtomicLong(1_000);
    private String table;
    private SlottedServer server;

    /** Installs ioredis when it is missing; see {@link NodeClients}. */
    @BeforeAll
    static void installNodeClients() throws InterruptedException {
        NodeClients.install();
    }

    @BeforeParameterizedClassInvocation
    void startService() throws IOException {
        table = "clients_" + ProcessHandle.current().pid() + "_" + TABLES.incrementAndGet();
        Path tokens = Files.createDirectories(Path.of("target", "tokens")).resolve(table + ".txt");
        Files.writeString(tokens, ServiceSuite.READER + " read\n" + ServiceSuite.WRITER + " write\n"
                + ServiceSuite.ADMIN + " admin\n");
        server = SlottedServer.start(new ServerSettings(0, "127.0.0.1",
                new DatabaseSettings(db.jdbcUrl(), null, null), tokens,
                TypeNames.parse("downloads=1,views=2"),
                new CounterSettings(table, WriteMode.GROUPED, null, Duration.ZERO)
                        .withLimits(Map.of(STOCK, Limits.atLeast(0)))),
                HttpSettings.defaults(), RespSettings.on(0));
    }

    @AfterParameterizedClassInvocation
    void stopService() {
        if (server != null) {
            server.close();
        }
        db.dropCounterTables(table);
    }

    // --- every counting command ---

    @ParameterizedTest
    @EnumSource(Client.class)
    void countingCommands_answerAsDocumented_andTheTableHoldsTheTotals(Client client) throws Exception {
        long base = newIds(3);

        assertThat(run(client, "commands", base)).isEqualTo(json("""
                {"incr": 1, "incrby": 42, "decr": 41, "decrby": 30, "get": "30", "mget": ["30", "0", "30"],
                 "hincrby": 35, "hget": "35", "hmget": ["0", "35"], "incrby_other": 3, "exists": 2,
                 "set": %s, "del": 1, "exists_after": 1, "incrbyfloat": %s}""",
                client.ok, refusal(client, "ERR counters are integers: use INCRBY")));
        assertThat(sqlTotal(1, base)).isZero();
        assertThat(sqlTotal(1, base + 1)).isEqualTo(1_000);
        assertThat(sqlRows(1, base + 2)).isZero();
    }

    // --- transactions ---

    @ParameterizedTest
    @EnumSource(Client.class)
    void transaction_appliesAllOrNothing_andAnswersEachTotal(Client client) throws Exception {
        long base = newIds(3);

        assertThat(run(client, "transaction", base)).isEqualTo(json("""
                {"transaction": ["100", 101, 111, 7, ["111", "7", "0"], 109]}"""));
        assertThat(sqlTotal(1, base)).isEqualTo(109);
        assertThat(sqlTotal(2, base + 1)).isEqualTo(7);
        assertThat(sqlRows(2, base + 2)).isZero();
    }

    @Test
    void redisPy_transaction_withACommandThatCannotBeQueued_failsWhole_andAppliesNothing() throws Exception {
        long base = newIds(2);
        // redis-py reads the EXECABORT, and raises the queued command's error that caused it instead.
        failedTransaction(Client.REDIS_PY, base, JSON.writeValueAsString(Map.of("error",
                "ResponseError: Command # 2 (INCRBY downloads:" + base + " 1.5) of pipeline caused error:"
                        + " value is not an integer or out of range")));
    }

    @Test
    void ioredis_multi_withACommandThatCannotBeQueued_failsWhole_andAppliesNothing() throws Exception {
        long base = newIds(2);
        failedTransaction(Client.IOREDIS, base, """
                {"error": "ReplyError: EXECABORT Transaction discarded because of previous errors.",
                 "previousErrors": ["ReplyError: ERR value is not an integer or out of range"]}""");
    }

    private void failedTransaction(Client client, long base, String refusal) throws Exception {
        assertThat(run(client, "failed_transaction", base)).isEqualTo(json("""
                {"transaction": %s, "get_after": "0"}""", refusal));
        assertThat(sqlRows(1, base)).isZero();
        assertThat(sqlRows(2, base + 1)).isZero();
    }

    // --- pipelines and concurrency ---

    @ParameterizedTest
    @EnumSource(Client.class)
    void pipelineOfAThousandIncrements_isAnsweredWhole_andCountedExactly(Client client) throws Exception {
        long id = newIds(1);

        Map<String, Object> answers = run(client, "pipeline", id);

        // Increments of one connection may commit in different flushes at once, each answering
        // without the other: each answer is a total from 1 to 1,000, not necessarily increasing.
        assertThat((List<?>) answers.get("pipeline")).hasSize(1_000)
                .allMatch(total -> total instanceof Integer i && i >= 1 && i <= 1_000, "a total from 1 to 1000");
        assertThat(answers).containsEntry("get_after", "1000");
        assertThat(sqlTotal(2, id)).isEqualTo(1_000);
    }

    /**
     * The script's 64 clients (redis-py: threads with a client each) each add
     * {@code (c * 7 + i) % 13 + 1} to counter {@code (c + i) % 8}, 60 times.
     */
    @ParameterizedTest
    @EnumSource(Client.class)
    void sixtyFourClients_addingKnownDeltas_leaveExactTotals(Client client) throws Exception {
        long base = newIds(8);
        long[] expected = new long[8];
        for (int c = 0; c < 64; c++) {
            for (int i = 0; i < 60; i++) {
                expected[(c + i) % 8] += (c * 7 + i) % 13 + 1;
            }
        }

        assertThat(run(client, "concurrent", base)).isEqualTo(json("""
                {"increments": 3840}"""));
        for (int key = 0; key < 8; key++) {
            assertThat(sqlTotal(2, base + key)).as("counter %d", key).isEqualTo(expected[key]);
        }
    }

    // --- errors change nothing ---

    @ParameterizedTest
    @EnumSource(Client.class)
    void badNumber_badKey_watch_andOverflow_areRefused_andChangeNothing(Client client) throws Exception {
        long base = newIds(2);
        long full = server.store().counters().config().slots(1) * SlottedCounters.MAX_DELTA;
        server.store().counters().admin().set(1, base + 1, full);

        assertThat(run(client, "errors", base)).isEqualTo(json("""
                {"bad_number": %s, "bad_key": %s, "watch": %s, "overflow": %s, "overflowing_amount": %s,
                 "get_after": "0", "get_full_after": "%d"}""",
                refusal(client, "ERR value is not an integer or out of range"),
                refusal(client, "ERR key must be TYPE:ID, such as downloads:456"),
                refusal(client, "ERR WATCH is not supported: increments in a MULTI are applied all or nothing"),
                refusal(client, "ERR increment or decrement would overflow"),
                refusal(client, "ERR increment or decrement would overflow"), full));
        assertThat(sqlRows(1, base)).isZero();
        assertThat(sqlTotal(1, base + 1)).isEqualTo(full);
    }

    // --- limits ---

    /** The script's 32 clients sell a stock of 500 ({@code serve --limits 3=0..}) until refused. */
    @ParameterizedTest
    @EnumSource(Client.class)
    void thirtyTwoClientsSellingAStock_sellExactlyAllOfIt_andAreThenRefused(Client client) throws Exception {
        long id = newIds(1);

        assertThat(run(client, "stock", id)).isEqualTo(json("""
                {"restock": 500, "sold": 500, "sold_out": %s, "left": "0"}""",
                refusal(client, "ERR limit exceeded: adding -2 would take the counter's total 0 outside its type's"
                        + " limits 0..; nothing was applied")));
        assertThat(sqlTotal(STOCK, id)).isZero();
    }

    // --- any key a Redis user writes ---

    /**
     * Type names nobody configured and string ids (a path, colons, spaces, Unicode, 512 bytes) are
     * counted exactly; {@code GET}, {@code MGET}, {@code HGET}, the HTTP API and SQL through the name
     * dictionary read the same totals; a 513-byte id is refused and records nothing.
     */
    @ParameterizedTest
    @EnumSource(Client.class)
    void stringKeys_areCountedExactly_andReadBackByGetMgetHttpAndSql(Client client) throws Exception {
        long base = newIds(1);
        String path = "/blog/hello-world-" + base;
        String post = "post:8f3a-" + base;
        String spaced = "alice smith " + base;
        String unicode = "Zürich 東京 " + base;
        String longest = "é".repeat((512 - Long.toString(base).length() - 1) / 2) + "-" + base;
        longest += "x".repeat(512 - longest.getBytes(StandardCharsets.UTF_8).length);

        assertThat(run(client, "string_keys", base)).isEqualTo(json("""
                {"incr_path": 1, "incrby_path": 5, "incrby_post": 2, "hincrby_post": 5, "incr_spaced": 1,
                 "incrby_unicode": 7, "incrby_longest": 11, "get_path": "55",
                 "mget": ["55", "55", "51", "57", "11", "0"], "hget_post": "55", "too_long": %s}""", refusal(client, "ERR key must be TYPE:ID, such as downloads:456: an id"
                        + " is at most 512 bytes of UTF-8, but '" + longest.substring(0, 40) + "...' has 513")));
        CounterRows rows = new CounterRows(db.dataSource(), table);
        assertThat(rows.totalByName("2", path)).isEqualTo(55);
        assertThat(rows.totalByName("likes", post)).isEqualTo(55);
        assertThat(rows.totalByName("logins", spaced)).isEqualTo(51);
        assertThat(rows.totalByName("cities", unicode)).isEqualTo(57);
        assertThat(rows.totalByName("2", longest)).isEqualTo(11);
        assertThat(httpCount("views", path)).isEqualTo(55);
        assertThat(httpCount("cities", unicode)).isEqualTo(57);
        assertThat(httpCount("likes", post)).isEqualTo(55);
    }

    /** A counter's total as {@code GET /v1/counters/{type}/{id}} answers it, the id percent-encoded. */
    private long httpCount(String type, String id) throws Exception {
        String encoded = URLEncoder.encode(id, StandardCharsets.UTF_8).replace("+", "%20");
        HttpResponse<String> response = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port()
                        + "/v1/counters/" + type + "/" + encoded))
                        .header("Authorization", "Bearer " + ServiceSuite.READER).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        Map<?, ?> body = JSON.readValue(response.body(), Map.class);
        assertThat(body.get("id")).isEqualTo(id);
        return ((Number) body.get("count")).longValue();
    }

    // --- tokens and scopes ---

    @ParameterizedTest
    @EnumSource(Client.class)
    void noToken_isNoauth_aReadTokenCannotIncrement_andAWriteTokenCannotSet(Client client) throws Exception {
        long id = newIds(1);

        assertThat(run(client, "auth", id)).isEqualTo(json("""
                {"no_token": %s, "read_token_get": "0", "read_token_incr": %s, "write_token_set": %s}""",
                refusal(client, "NOAUTH Authentication required."),
                refusal(client, "NOPERM this token lacks the 'write' scope that the '" + client.incrSends
                        + "' command needs"),
                refusal(client, "NOPERM this token lacks the 'admin' scope that the 'set' command needs")));
        assertThat(sqlRows(1, id)).isZero();
    }

    // --- running a client ---

    /**
     * Runs {@code scenario} of {@code client}'s script with record ids from {@code base}, and answers
     * the steps it printed as one JSON object. A script that fails, or takes longer than
     * {@link #SCRIPT_TIMEOUT}, fails the test with what it wrote to stdout and stderr; one that finds
     * no client, or no interpreter, fails it saying how to install them.
     */
    @SuppressWarnings("unchecked")
    private Map<String, Object> run(Client client, String scenario, long base) throws Exception {
        List<String> command = List.of(client.interpreter, client.script, Integer.toString(server.respPort()),
                ServiceSuite.READER, ServiceSuite.WRITER, ServiceSuite.ADMIN, Long.toString(base), scenario);
        Path logs = Files.createDirectories(Path.of("target", "other-language-clients", table));
        Path stdout = logs.resolve(client + "-" + scenario + ".out");
        Path stderr = logs.resolve(client + "-" + scenario + ".err");
        Process process;
        try {
            process = new ProcessBuilder(command).redirectOutput(stdout.toFile()).redirectError(stderr.toFile())
                    .start();
        } catch (IOException e) {
            throw new AssertionError(client.interpreter + " cannot be run, so " + client + " cannot be tested: "
                    + client.install, e);
        }
        boolean finished = process.waitFor(SCRIPT_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        if (!finished) {
            process.destroyForcibly().waitFor();
        }
        String printed = Files.readString(stdout);
        if (!finished || process.exitValue() != 0) {
            String outcome = !finished ? "timed out after " + SCRIPT_TIMEOUT
                    : process.exitValue() == MISSING_CLIENT ? "found no " + client + ": " + client.install
                    : "exited with " + process.exitValue();
            throw new AssertionError(String.format("%s %s%n--- stdout:%n%s--- stderr:%n%s",
                    String.join(" ", command), outcome, printed, Files.readString(stderr)));
        }
        Map<String, Object> steps = new LinkedHashMap<>();
        // One object per line: {"step": answer}.
        for (String line : printed.lines().toList()) {
            steps.putAll(JSON.readValue(line, LinkedHashMap.class));
        }
        return steps;
    }

    /** The JSON a script prints for a refused step: the error as {@code client} shows it. */
    private static String refusal(Client client, String error) throws JsonProcessingException {
        return JSON.writeValueAsString(Map.of("error", client.shows(error)));
    }

    /**
     * The JSON object {@code template}, formatted with {@code args}, as a map read the way a script's
     * answers are read (whole numbers as {@code Integer} where they fit, else {@code Long}).
     */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> json(String template, Object... args) throws JsonProcessingException {
        return JSON.readValue(template.formatted(args), LinkedHashMap.class);
    }

    private long newIds(int count) {
        return ids.getAndAdd(count) + 1;
    }

    /** The counter's total as the table holds it, summed over its slots with SQL. */
    private long sqlTotal(int recordType, long recordId) throws SQLException {
        return new CounterRows(db.dataSource(), table).total(recordType, recordId);
    }

    /** How many slot rows the counter has in the table. */
    private long sqlRows(int recordType, long recordId) throws SQLException {
        return new CounterRows(db.dataSource(), table).rows(recordType, recordId);
    }
}
