package io.slotted.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.slotted.SlottedCounters;
import io.slotted.WriteMode;
import io.slotted.db.TestDatabase;
import io.slotted.server.config.CounterSettings;
import io.slotted.server.config.DatabaseSettings;
import io.slotted.server.config.NameBounds;
import io.slotted.server.config.ServerSettings;
import io.slotted.server.config.TypeNames;
import io.slotted.server.http.HttpSettings;
import io.slotted.server.resp.RespSettings;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.Response;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.util.SafeEncoder;

/**
 * The Redis protocol of {@code docs/api.md}, spoken by real clients — Jedis, and {@code redis-cli} from
 * Debian's {@code redis-tools} — to a real service on every database. Totals are checked with SQL
 * against the counter table. The service runs for each database with the tokens of
 * {@link ServiceSuite} and the types {@code downloads=1,views=2}; each test uses record ids of its
 * own.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ParameterizedClass(name = "[{arguments}]")
@MethodSource("io.slotted.db.TestDatabases#all")
class RespSuite {
    private static final AtomicInteger TABLES = new AtomicInteger();

    @Parameter
    private TestDatabase db;
    private final AtomicLong ids = new AtomicLong(1_000);
    private final List<Jedis> clients = new ArrayList<>();
    private String table;
    private SlottedServer server;

    @BeforeParameterizedClassInvocation
    void startService() throws IOException {
        table = "resp_" + ProcessHandle.current().pid() + "_" + TABLES.incrementAndGet();
        Path tokens = Files.createDirectories(Path.of("target", "tokens")).resolve(table + ".txt");
        Files.writeString(tokens, ServiceSuite.READER + " read\n" + ServiceSuite.WRITER + " write\n"
                + ServiceSuite.ADMIN + " admin\n");
        server = SlottedServer.start(new ServerSettings(0, "127.0.0.1",
                new DatabaseSettings(db.jdbcUrl(), null, null), tokens,
                TypeNames.parse("downloads=1,views=2"),
                new CounterSettings(table, WriteMode.GROUPED, null, Duration.ZERO)),
                HttpSettings.defaults(), RespSettings.on(0));
    }

    @AfterParameterizedClassInvocation
    void stopService() {
        clients.forEach(Jedis::close);
        clients.clear();
        if (server != null) {
            server.close();
        }
        db.dropCounterTables(table);
    }

    private long newId() {
        return ids.incrementAndGet();
    }

    /** A Jedis connection that authenticates with {@code token}, or not at all when null. */
    private Jedis connect(String token) {
        DefaultJedisClientConfig.Builder config = DefaultJedisClientConfig.builder()
                .timeoutMillis(30_000).clientName("resp-suite");
        if (token != null) {
            config.password(token);
        }
        Jedis jedis = new Jedis(new HostAndPort("127.0.0.1", server.respPort()), config.build());
        synchronized (clients) {
            clients.add(jedis);
        }
        return jedis;
    }

    private Jedis writer() {
        return connect(ServiceSuite.WRITER);
    }

    /** The counter's total as the table holds it, summed over its slots with SQL. */
    private long sqlTotal(int recordType, long recordId) throws SQLException {
        return new CounterRows(db.dataSource(), table).total(recordType, recordId);
    }

    /** How many slot rows the counter has in the table. */
    private long sqlRows(int recordType, long recordId) throws SQLException {
        return new CounterRows(db.dataSource(), table).rows(recordType, recordId);
    }

    private static Object send(Jedis jedis, String... words) {
        return jedis.sendCommand(() -> SafeEncoder.encode(words[0]),
                java.util.Arrays.copyOfRange(words, 1, words.length));
    }

    private static String text(Object bulk) {
        return new String((byte[]) bulk, StandardCharsets.UTF_8);
    }

    // --- counting ---

    @Test
    void incrementCommands_answerTheTotalAfterTheirCommit_andTheTableHoldsIt() throws Exception {
        Jedis jedis = writer();
        long id = newId();
        String key = "downloads:" + id;

        assertThat(jedis.incr(key)).isEqualTo(1);
        assertThat(jedis.incrBy(key, 41)).isEqualTo(42);
        assertThat(jedis.decr(key)).isEqualTo(41);
        assertThat(jedis.decrBy(key, 11)).isEqualTo(30);
        assertThat(jedis.incrBy(key, -5)).isEqualTo(25);

        assertThat(jedis.get(key)).isEqualTo("25");
        assertThat(sqlTotal(1, id)).isEqualTo(25);
    }

    @Test
    void keys_byTypeNumber_andWithLeadingZeros_nameTheSameCounter() throws Exception {
        Jedis jedis = writer();
        long id = newId();

        jedis.incrBy("views:" + id, 3);
        jedis.incrBy("2:" + id, 4);
        jedis.incrBy("views:000000" + id, 5);

        assertThat(jedis.get("2:0" + id)).isEqualTo("12");
        assertThat(sqlTotal(2, id)).isEqualTo(12);
        assertThat(sqlTotal(1, id)).isZero();
    }

    @Test
    void negativeIds_areCounters_too() throws Exception {
        Jedis jedis = writer();
        long id = -newId();

        assertThat(jedis.incr("downloads:" + id)).isEqualTo(1);
        assertThat(sqlTotal(1, id)).isEqualTo(1);
    }

    @Test
    void incrbyZero_answersTheTotal_andWritesNothing() throws Exception {
        Jedis jedis = writer();
        long id = newId();
        String key = "downloads:" + id;

        assertThat(jedis.incrBy(key, 0)).isZero();
        assertThat(sqlRows(1, id)).as("no row written").isZero();
        jedis.incrBy(key, 7);
        assertThat(jedis.incrBy(key, 0)).isEqualTo(7);
        assertThat(sqlTotal(1, id)).isEqualTo(7);
    }

    @Test
    void get_ofACounterNeverIncremented_isZero_andMget_answersInTheOrderAsked() {
        Jedis jedis = writer();
        long a = newId();
        long b = newId();
        long never = newId();
        jedis.incrBy("downloads:" + a, 2);
        jedis.incrBy("views:" + b, 9);

        assertThat(jedis.get("downloads:" + never)).isEqualTo("0");
        assertThat(jedis.mget("views:" + b, "downloads:" + never, "downloads:" + a, "1:" + a))
                .containsExactly("9", "0", "2", "2");
    }

    @Test
    void mget_ofAThousandKeys_isOneAnswer_andMore_isRefused() {
        Jedis jedis = writer();
        long first = newId();
        ids.addAndGet(1_000);
        jedis.incrBy("downloads:" + (first + 999), 5);
        String[] keys = IntStream.range(0, 1_000).mapToObj(i -> "downloads:" + (first + i))
                .toArray(String[]::new);

        List<String> totals = jedis.mget(keys);

        assertThat(totals).hasSize(1_000).endsWith("5");
        assertThat(totals.subList(0, 999)).containsOnly("0");
        String[] tooMany = java.util.Arrays.copyOf(keys, 1_001);
        tooMany[1_000] = "downloads:1";
        assertThatThrownBy(() -> jedis.mget(tooMany)).isInstanceOf(JedisDataException.class)
                .hasMessage("ERR at most 1000 keys may be named at once, but 1001 were given:"
                        + " split them into several commands");
    }

    // --- transactions ---

    @Test
    void multiExec_appliesTheQueuedIncrementsAsOneBatch_andAnswersEachAsIfRunAlone() throws Exception {
        Jedis jedis = writer();
        long id = newId();
        long other = newId();
        String key = "downloads:" + id;
        jedis.incrBy(key, 100);

        Transaction transaction = jedis.multi();
        Response<String> before = transaction.get(key);
        Response<Long> first = transaction.incr(key);
        Response<Long> hashed = transaction.hincrBy("1", Long.toString(id), 10);
        Response<Long> elsewhere = transaction.incrBy("views:" + other, 7);
        Response<List<String>> after = transaction.mget("1:" + id, "views:" + other, "views:" + newId());
        Response<Long> last = transaction.decrBy(key, 2);
        List<Object> answers = transaction.exec();

        assertThat(answers).hasSize(6);
        assertThat(before.get()).isEqualTo("100");
        assertThat(first.get()).isEqualTo(101);
        assertThat(hashed.get()).isEqualTo(111);
        assertThat(elsewhere.get()).isEqualTo(7);
        assertThat(after.get()).containsExactly("111", "7", "0");
        assertThat(last.get()).isEqualTo(109);
        assertThat(sqlTotal(1, id)).isEqualTo(109);
        assertThat(sqlTotal(2, other)).isEqualTo(7);
    }

    @Test
    void multiExec_aCommandThatCannotBeQueued_failsTheExec_andNothingIsApplied() throws Exception {
        Jedis jedis = connect(ServiceSuite.ADMIN);
        long id = newId();
        String key = "downloads:" + id;

        assertThat(text(send(jedis, "MULTI"))).isEqualTo("OK");
        assertThat(text(send(jedis, "INCR", key))).isEqualTo("QUEUED");
        assertThatThrownBy(() -> send(jedis, "INCRBY", key, "1.5")).isInstanceOf(JedisDataException.class)
                .hasMessage("ERR value is not an integer or out of range");
        assertThatThrownBy(() -> send(jedis, "SET", key, "5")).isInstanceOf(JedisDataException.class)
                .hasMessageStartingWith("ERR SET cannot be queued in a MULTI");
        assertThatThrownBy(() -> send(jedis, "EXEC")).isInstanceOf(JedisDataException.class)
                .hasMessage("EXECABORT Transaction discarded because of previous errors.");

        assertThat(sqlRows(1, id)).isZero();
        assertThat(jedis.incr(key)).as("the connection is out of the transaction").isEqualTo(1);
    }

    @Test
    void multiExec_aReadToken_cannotQueueAnIncrement_andTheExecFails() throws Exception {
        Jedis reader = connect(ServiceSuite.READER);
        long id = newId();

        send(reader, "MULTI");
        assertThatThrownBy(() -> send(reader, "INCR", "downloads:" + id)).isInstanceOf(JedisDataException.class)
                .hasMessage("NOPERM this token lacks the 'write' scope that the 'incr' command needs");
        assertThat(text(send(reader, "GET", "downloads:" + id))).isEqualTo("QUEUED");
        assertThatThrownBy(() -> send(reader, "EXEC")).isInstanceOf(JedisDataException.class)
                .hasMessageStartingWith("EXECABORT");
        assertThat(sqlRows(1, id)).isZero();
    }

    @Test
    void multiExec_anOverflowingIncrement_failsTheWholeBatch_andNothingIsApplied() throws Exception {
        Jedis jedis = writer();
        long id = newId();
        long other = newId();
        jedis.incrBy("downloads:" + id, SlottedCounters.MAX_DELTA);

        Transaction transaction = jedis.multi();
        transaction.incr("downloads:" + other);
        transaction.incrBy("downloads:" + id, SlottedCounters.MAX_DELTA);
        transaction.incrBy("downloads:" + id, SlottedCounters.MAX_DELTA);
        assertThatThrownBy(transaction::exec).isInstanceOf(JedisDataException.class)
                .hasMessageStartingWith("ERR increment or decrement would overflow");

        assertThat(sqlRows(1, other)).isZero();
        assertThat(sqlTotal(1, id)).isEqualTo(SlottedCounters.MAX_DELTA);
    }

    @Test
    void discard_dropsTheQueue_watchIsRefused_andExecOrDiscardWithoutMulti_areErrors() throws Exception {
        Jedis jedis = writer();
        long id = newId();

        Transaction transaction = jedis.multi();
        transaction.incr("downloads:" + id);
        assertThat(transaction.discard()).isEqualTo("OK");
        assertThat(sqlRows(1, id)).isZero();

        assertThatThrownBy(() -> jedis.watch("downloads:" + id)).isInstanceOf(JedisDataException.class)
                .hasMessage("ERR WATCH is not supported: increments in a MULTI are applied all or nothing");
        assertThat(text(send(jedis, "UNWATCH"))).isEqualTo("OK");
        assertThatThrownBy(() -> send(jedis, "EXEC")).isInstanceOf(JedisDataException.class)
                .hasMessage("ERR EXEC without MULTI");
        assertThatThrownBy(() -> send(jedis, "DISCARD")).isInstanceOf(JedisDataException.class)
                .hasMessage("ERR DISCARD without MULTI");
        send(jedis, "MULTI");
        assertThatThrownBy(() -> send(jedis, "MULTI")).isInstanceOf(JedisDataException.class)
                .hasMessage("ERR MULTI calls can not be nested");
        assertThat(send(jedis, "EXEC")).isEqualTo(List.of());
    }

    @Test
    void sixtyFourClients_sendingTransactions_leaveExactTotals_andAThousandQueuedIncrementsAreOneBatch()
            throws Exception {
        long id = newId();
        String key = "downloads:" + id;
        ExecutorService pool = Executors.newFixedThreadPool(64);
        try {
            List<Future<?>> clients = new ArrayList<>();
            for (int c = 0; c < 64; c++) {
                int delta = c + 1;
                clients.add(pool.submit(() -> {
                    Jedis jedis = writer();
                    for (int round = 0; round < 10; round++) {
                        Transaction transaction = jedis.multi();
                        transaction.incrBy(key, delta);
                        transaction.hincrBy("downloads", Long.toString(id), delta);
                        List<Object> answers = transaction.exec();
                        assertThat((Long) answers.get(1)).isEqualTo((Long) answers.get(0) + delta);
                    }
                    return null;
                }));
            }
            for (Future<?> client : clients) {
                client.get(2, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(sqlTotal(1, id)).isEqualTo(2L * 10 * (64 * 65 / 2));

        long big = newId();
        Transaction transaction = writer().multi();
        for (int i = 0; i < 1_000; i++) {
            transaction.incr("views:" + big);
        }
        List<Object> answers = transaction.exec();
        assertThat(answers).hasSize(1_000).startsWith(1L, 2L).endsWith(999L, 1_000L);
        assertThat(sqlTotal(2, big)).isEqualTo(1_000);
    }

    // --- hashes, SET, DEL, EXISTS ---

    @Test
    void hashes_areCounterTypes_andNameTheSameCountersAsKeys() throws Exception {
        Jedis jedis = writer();
        long id = newId();
        long never = newId();

        assertThat(jedis.hincrBy("downloads", Long.toString(id), 5)).isEqualTo(5);
        assertThat(jedis.incr("downloads:" + id)).isEqualTo(6);
        assertThat(jedis.hincrBy("1", Long.toString(id), -2)).isEqualTo(4);
        assertThat(jedis.hget("downloads", Long.toString(id))).isEqualTo("4");
        assertThat(jedis.hmget("downloads", Long.toString(never), Long.toString(id))).containsExactly("0", "4");
        assertThat(sqlTotal(1, id)).isEqualTo(4);
        assertThat(jedis.hincrBy("downloads", "post:8f3a-" + id, 1)).isEqualTo(1);
        assertThat(jedis.get("downloads:post:8f3a-" + id)).isEqualTo("1");
        assertThatThrownBy(() -> jedis.hincrBy("downloads:1", "2", 1)).isInstanceOf(JedisDataException.class)
                .hasMessageStartingWith("ERR a hash is a counter type");
    }

    @Test
    void setAndDel_needTheAdminScope_setExactlyOrToZero_andExistsCountsTheCountersNotAtZero() throws Exception {
        Jedis admin = connect(ServiceSuite.ADMIN);
        Jedis writer = writer();
        long id = newId();
        long other = newId();
        long never = newId();
        writer.incrBy("downloads:" + id, 40);
        writer.incrBy("downloads:" + other, 3);

        assertThatThrownBy(() -> writer.set("downloads:" + id, "5")).isInstanceOf(JedisDataException.class)
                .hasMessage("NOPERM this token lacks the 'admin' scope that the 'set' command needs");
        assertThatThrownBy(() -> writer.del("downloads:" + id)).isInstanceOf(JedisDataException.class)
                .hasMessage("NOPERM this token lacks the 'admin' scope that the 'del' command needs");
        assertThat(sqlTotal(1, id)).isEqualTo(40);

        assertThat(admin.set("downloads:" + id, "1000")).isEqualTo("OK");
        assertThat(sqlTotal(1, id)).isEqualTo(1000);
        assertThat(writer.incr("downloads:" + id)).isEqualTo(1001);
        assertThat(writer.exists("downloads:" + id, "downloads:" + other, "downloads:" + never)).isEqualTo(2);
        assertThat(admin.del("downloads:" + id, "downloads:" + never)).isEqualTo(1);
        assertThat(sqlTotal(1, id)).isZero();
        assertThat(writer.exists("downloads:" + id)).isFalse();
        assertThatThrownBy(() -> send(admin, "SET", "downloads:" + id, "5", "EX", "10"))
                .isInstanceOf(JedisDataException.class)
                .hasMessage("ERR type downloads does not expire: start the service with --expiring downloads (every"
                        + " process alike) to give its counters an expiry; nothing was changed");
        assertThatThrownBy(() -> admin.set("downloads:" + id, "five")).isInstanceOf(JedisDataException.class)
                .hasMessage("ERR value is not an integer or out of range");
        assertThat(sqlTotal(1, id)).isZero();
    }

    @Test
    void incrbyfloat_isRefused_sayingCountersAreIntegers() throws Exception {
        Jedis jedis = writer();
        long id = newId();

        assertThatThrownBy(() -> jedis.incrByFloat("downloads:" + id, 1.5)).isInstanceOf(JedisDataException.class)
                .hasMessage("ERR counters are integers: use INCRBY");
        assertThat(sqlRows(1, id)).isZero();
    }

    // --- errors: each changes nothing and leaves the connection usable ---

    @Test
    void badNumbers_areRefusedAsRedisWordsIt() throws Exception {
        Jedis jedis = writer();
        long id = newId();
        String key = "downloads:" + id;

        for (String amount : List.of("abc", "1.5", "+1", "01", "-0", "", " 1",
                "9223372036854775808", "-9223372036854775809")) {
            assertThatThrownBy(() -> send(jedis, "INCRBY", key, amount)).as(amount)
                    .isInstanceOf(JedisDataException.class)
                    .hasMessage("ERR value is not an integer or out of range");
            assertThatThrownBy(() -> send(jedis, "DECRBY", key, amount)).as(amount)
                    .isInstanceOf(JedisDataException.class)
                    .hasMessage("ERR value is not an integer or out of range");
        }
        assertThat(sqlRows(1, id)).isZero();
        assertThat(jedis.ping()).isEqualTo("PONG");
    }

    @Test
    void badKeys_sayWhatAKeyLooksLike() throws Exception {
        Jedis jedis = writer();

        for (String key : List.of("downloads", "downloads:", ":5")) {
            assertThatThrownBy(() -> jedis.incr(key)).as(key).isInstanceOf(JedisDataException.class)
                    .hasMessage("ERR key must be TYPE:ID, such as downloads:456");
        }
        assertThatThrownBy(() -> jedis.incr("downloads:" + "x".repeat(513))).isInstanceOf(JedisDataException.class)
                .hasMessage("ERR key must be TYPE:ID, such as downloads:456: an id is at most 512 bytes of"
                        + " UTF-8, but '" + "x".repeat(40) + "...' has 513");
        assertThatThrownBy(() -> jedis.incr("downloads:-9223372036854775808")).isInstanceOf(JedisDataException.class)
                .hasMessageContaining("numeric ids from -9223372036854775808 to -4611686018427387905 are kept"
                        + " for string ids");
        assertThatThrownBy(() -> jedis.incr("down loads:5")).isInstanceOf(JedisDataException.class)
                .hasMessage("ERR key must be TYPE:ID, such as downloads:456: type 'down loads' is neither a"
                        + " name (lowercase letters, digits, _; starting with a letter) nor a record_type number"
                        + " 0 to 2147483647");
        assertThatThrownBy(() -> jedis.get("downloads")).isInstanceOf(JedisDataException.class)
                .hasMessage("ERR key must be TYPE:ID, such as downloads:456");
        assertThatThrownBy(() -> jedis.mget("downloads:1", "downloads")).isInstanceOf(JedisDataException.class)
                .hasMessage("ERR key must be TYPE:ID, such as downloads:456");
        assertThat(jedis.ping()).isEqualTo("PONG");
    }

    /**
     * What were bad keys before string ids are counters now: an id that is not a number, one with
     * a colon, a number past the 64-bit range, a type nobody configured.
     */
    @Test
    void keysWithStringIds_andTypesNobodyConfigured_areCounters() throws Exception {
        Jedis jedis = writer();
        long id = newId();

        for (String key : List.of("downloads:abc" + id, "downloads:1:" + id, "downloads:99999999999999999999" + id,
                "nosuchtype" + id + ":5")) {
            assertThat(jedis.incr(key)).as(key).isEqualTo(1);
            assertThat(jedis.incrBy(key, 2)).as(key).isEqualTo(3);
        }
        assertThat(sqlTotal(1, 1)).as("downloads:1:ID is not downloads:1").isZero();
        assertThat(new CounterRows(db.dataSource(), table).totalByName("1", "1:" + id)).isEqualTo(3);
    }

    @Test
    void overflow_isRefusedAsRedisWordsIt_andNothingIsApplied() throws Exception {
        Jedis jedis = writer();
        long id = newId();
        String key = "downloads:" + id;
        long full = server.store().counters().config().slots(1) * SlottedCounters.MAX_DELTA;
        server.store().counters().admin().set(1, id, full);

        assertThatThrownBy(() -> jedis.incr(key)).isInstanceOf(JedisDataException.class)
                .hasMessage("ERR increment or decrement would overflow");
        assertThat(jedis.decr(key)).isEqualTo(full - 1);
        assertThat(sqlTotal(1, id)).isEqualTo(full - 1);
    }

    @Test
    void anAmountPastMaxDelta_isRefusedSayingWhatToDo_andNothingIsApplied() throws Exception {
        Jedis jedis = writer();
        long id = newId();
        String key = "downloads:" + id;
        jedis.incr(key);

        assertThatThrownBy(() -> jedis.incrBy(key, Long.MAX_VALUE)).isInstanceOf(JedisDataException.class)
                .hasMessageContaining("ERR increment or decrement must be from -4503599627370495 to 4503599627370495");
        assertThatThrownBy(() -> send(jedis, "DECRBY", key, Long.toString(Long.MIN_VALUE)))
                .isInstanceOf(JedisDataException.class)
                .hasMessage("ERR increment or decrement would overflow");
        assertThatThrownBy(() -> jedis.decrBy(key, SlottedCounters.MAX_DELTA + 1)).isInstanceOf(JedisDataException.class)
                .hasMessageContaining("several increments");
        assertThat(jedis.incrBy(key, SlottedCounters.MAX_DELTA - 1)).isEqualTo(SlottedCounters.MAX_DELTA);
        assertThat(sqlTotal(1, id)).isEqualTo(SlottedCounters.MAX_DELTA);
    }

    @Test
    void wrongArity_andUnknownCommands_areAnsweredAsRedisAnswersThem() {
        Jedis jedis = writer();

        assertThatThrownBy(() -> send(jedis, "INCR")).isInstanceOf(JedisDataException.class)
                .hasMessage("ERR wrong number of arguments for 'incr' command");
        assertThatThrownBy(() -> send(jedis, "INCRBY", "downloads:1")).isInstanceOf(JedisDataException.class)
                .hasMessage("ERR wrong number of arguments for 'incrby' command");
        assertThatThrownBy(() -> send(jedis, "GET", "downloads:1", "downloads:2"))
                .isInstanceOf(JedisDataException.class)
                .hasMessage("ERR wrong number of arguments for 'get' command");
        assertThatThrownBy(() -> send(jedis, "APPEND", "downloads:1", "5")).isInstanceOf(JedisDataException.class)
                .hasMessage("ERR unknown command 'APPEND', with args beginning with: 'downloads:1' '5' ");
        assertThatThrownBy(() -> send(jedis, "FLUSHALL")).isInstanceOf(JedisDataException.class)
                .hasMessage("ERR unknown command 'FLUSHALL', with args beginning with: ");
        assertThatThrownBy(() -> send(jedis, "SELECT", "1")).isInstanceOf(JedisDataException.class)
                .hasMessage("ERR DB index is out of range");
        assertThat(jedis.ping()).isEqualTo("PONG");
    }

    // --- connection commands real clients send ---

    @Test
    void connectionCommands_answerAsRealClientsExpect() {
        Jedis jedis = writer();

        assertThat(jedis.ping()).isEqualTo("PONG");
        assertThat(text(send(jedis, "PING", "hello"))).isEqualTo("hello");
        assertThat(jedis.echo("échange")).isEqualTo("échange");
        assertThat(jedis.select(0)).isEqualTo("OK");
        assertThat(jedis.clientSetname("worker-7")).isEqualTo("OK");
        assertThat(jedis.clientGetname()).isEqualTo("worker-7");
        assertThat(jedis.clientId()).isPositive();
        assertThat(send(jedis, "CLIENT", "SETINFO", "LIB-NAME", "suite")).isEqualTo(SafeEncoder.encode("OK"));
        assertThat((List<?>) send(jedis, "COMMAND")).isEmpty();
        assertThat((List<?>) send(jedis, "COMMAND", "DOCS")).isEmpty();
        assertThat((Long) send(jedis, "COMMAND", "COUNT")).isPositive();
        assertThat(jedis.configGet("*")).isEmpty();
        assertThat(jedis.info()).contains("redis_version:").contains("slotted_version:");

        List<?> hello = (List<?>) send(jedis, "HELLO", "2");
        Map<String, Object> fields = new HashMap<>();
        for (int i = 0; i < hello.size(); i += 2) {
            Object value = hello.get(i + 1);
            fields.put(text(hello.get(i)), value instanceof byte[] bytes ? text(bytes) : value);
        }
        assertThat(fields).containsEntry("server", "slotted").containsEntry("proto", 2L);
        assertThatThrownBy(() -> send(jedis, "HELLO", "3")).isInstanceOf(JedisDataException.class)
                .hasMessage("NOPROTO unsupported protocol version");
    }

    @Test
    void quit_answersOk_andClosesTheConnection() throws Exception {
        try (RespSocket socket = new RespSocket(server.respPort())) {
            socket.send(RespSocket.command("QUIT"));
            assertThat(socket.readLine()).isEqualTo("+OK");
            assertThat(socket.closedByServer()).isTrue();
        }
    }

    @Test
    void inlineCommands_asTypedAtATerminal_areUnderstood() throws Exception {
        long id = newId();
        try (RespSocket socket = new RespSocket(server.respPort())) {
            socket.send("AUTH " + ServiceSuite.WRITER + "\r\nINCRBY downloads:" + id + " 3\r\n");
            assertThat(socket.readLine()).isEqualTo("+OK");
            assertThat(socket.readLine()).isEqualTo(":3");
        }
    }

    // --- tokens and scopes ---

    @Test
    void withoutAuth_onlyConnectionCommandsAnswer() throws Exception {
        Jedis anonymous = connect(null);
        long id = newId();

        assertThat(anonymous.ping()).isEqualTo("PONG");
        assertThatThrownBy(() -> anonymous.incr("downloads:" + id)).isInstanceOf(JedisDataException.class)
                .hasMessage("NOAUTH Authentication required.");
        assertThatThrownBy(() -> anonymous.get("downloads:" + id)).isInstanceOf(JedisDataException.class)
                .hasMessage("NOAUTH Authentication required.");
        assertThatThrownBy(() -> anonymous.echo("x")).isInstanceOf(JedisDataException.class)
                .hasMessage("NOAUTH Authentication required.");
        assertThatThrownBy(() -> send(anonymous, "HELLO", "2")).isInstanceOf(JedisDataException.class)
                .hasMessageStartingWith("NOAUTH HELLO must be called with the client already authenticated");
        assertThat(sqlRows(1, id)).isZero();
    }

    @Test
    void auth_withAWrongToken_isRefused_andAReadToken_mayReadButNotWrite() throws Exception {
        Jedis jedis = connect(null);
        long id = newId();
        writer().incrBy("downloads:" + id, 4);

        assertThatThrownBy(() -> jedis.auth("not-a-token")).isInstanceOf(JedisDataException.class)
                .hasMessage("WRONGPASS invalid username-password pair or user is disabled.");
        assertThat(jedis.auth("default", ServiceSuite.READER)).isEqualTo("OK");
        assertThat(jedis.get("downloads:" + id)).isEqualTo("4");
        assertThatThrownBy(() -> jedis.incr("downloads:" + id)).isInstanceOf(JedisDataException.class)
                .hasMessage("NOPERM this token lacks the 'write' scope that the 'incr' command needs");
        assertThat(jedis.auth(ServiceSuite.WRITER)).isEqualTo("OK");
        assertThat(jedis.incr("downloads:" + id)).isEqualTo(5);
        assertThat(sqlTotal(1, id)).isEqualTo(5);
    }

    @Test
    void hello_withAuth_authenticatesAndNamesTheConnection() {
        Jedis jedis = connect(null);
        long id = newId();

        send(jedis, "HELLO", "2", "AUTH", "default", ServiceSuite.ADMIN, "SETNAME", "dashboard");

        assertThat(jedis.clientGetname()).isEqualTo("dashboard");
        assertThat(jedis.incr("downloads:" + id)).isEqualTo(1);
    }

    // --- pipelines and concurrency ---

    @Test
    void aPipelineOfAThousandCommands_isAnsweredInOrder_andCountedExactly() throws Exception {
        Jedis jedis = writer();
        long id = newId();
        String key = "downloads:" + id;
        Pipeline pipeline = jedis.pipelined();
        List<Response<Object>> echoes = new ArrayList<>();
        List<Response<Long>> totals = new ArrayList<>();

        for (int i = 0; i < 500; i++) {
            echoes.add(pipeline.sendCommand(Protocol.Command.ECHO, "e" + i));
            totals.add(pipeline.incr(key));
        }
        pipeline.sync();

        for (int i = 0; i < 500; i++) {
            assertThat(text(echoes.get(i).get())).isEqualTo("e" + i);
            assertThat(totals.get(i).get()).isBetween(1L, 500L);
        }
        // Two flushes committing at once may each answer without the other: the largest answer
        // may be below the final total, which the SQL shows.
        assertThat(sqlTotal(1, id)).isEqualTo(500);
    }

    @Test
    void sixtyFourClients_addingKnownDeltas_leaveExactTotals() throws Exception {
        int clientCount = 64;
        int perClient = 60;
        long first = newId();
        ids.addAndGet(8);
        long[] expected = new long[8];
        for (int c = 0; c < clientCount; c++) {
            for (int i = 0; i < perClient; i++) {
                expected[(c + i) % 8] += delta(c, i);
            }
        }
        List<Jedis> jedis = IntStream.range(0, clientCount).mapToObj(c -> writer()).toList();
        ExecutorService threads = Executors.newFixedThreadPool(clientCount);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int c = 0; c < clientCount; c++) {
                int client = c;
                done.add(threads.submit(() -> {
                    long[] lastSeen = new long[8];
                    for (int i = 0; i < perClient; i++) {
                        int key = (client + i) % 8;
                        long total = jedis.get(client).incrBy("views:" + (first + key), delta(client, i));
                        // A total includes every increment acknowledged before: this client's own.
                        assertThat(total).isGreaterThanOrEqualTo(lastSeen[key] + delta(client, i));
                        lastSeen[key] = total;
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(5, TimeUnit.MINUTES);
            }
        } finally {
            threads.shutdownNow();
        }
        for (int key = 0; key < 8; key++) {
            assertThat(sqlTotal(2, first + key)).as("key %d", key).isEqualTo(expected[key]);
        }
    }

    private static long delta(int client, int step) {
        return (client * 7L + step) % 13 + 1;
    }

    // --- a misbehaving client closes only its own connection ---

    @Test
    void malformedFrames_areAnsweredWithAProtocolError_andCloseOnlyThatConnection() throws Exception {
        Jedis bystander = writer();
        long id = newId();
        bystander.incr("downloads:" + id);
        List<String> malformed = List.of(
                "*2\r\n$4\r\nINCR\r\n$abc\r\n",
                "*1\r\n*1\r\n$4\r\nPING\r\n",
                "*2\r\n$4\r\nECHO\r\n$100000\r\n",
                "*100000\r\n$4\r\nPING\r\n",
                ":5\r\n");
        for (String frame : malformed) {
            try (RespSocket socket = new RespSocket(server.respPort())) {
                socket.send(frame);
                assertThat(socket.readLine()).as(frame).startsWith("-ERR Protocol error: ");
                assertThat(socket.closedByServer()).as(frame).isTrue();
            }
        }
        assertThat(bystander.incr("downloads:" + id)).isEqualTo(2);
        assertThat(sqlTotal(1, id)).isEqualTo(2);
    }

    @Test
    void aClientThatSendsButNeverReads_isNoLongerRead_andOthersAreServed() throws Exception {
        long id = newId();
        byte[] chunk = (RespSocket.command("AUTH", ServiceSuite.WRITER)
                + RespSocket.command("INCR", "downloads:" + id).repeat(1_000))
                .getBytes(StandardCharsets.UTF_8);
        long planned = 100L * 1024 * 1024;
        AtomicLong sent = new AtomicLong();
        ExecutorService sender = Executors.newSingleThreadExecutor();
        RespSocket socket = new RespSocket(server.respPort());
        try {
            Future<?> sending = sender.submit(() -> {
                while (sent.get() < planned) {
                    socket.send(chunk);
                    sent.addAndGet(chunk.length);
                }
                return null;
            });
            // The server stops reading once answers pile up, so the sender soon blocks in the
            // kernel with far less than the planned 100 MiB taken; nothing buffers it all.
            await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(30))
                    .until(() -> !sending.isDone());
            long taken = sent.get();
            assertThat(taken).as("bytes the server took from a client that never reads")
                    .isLessThan(planned / 4);
            Jedis bystander = writer();
            long other = newId();
            assertThat(bystander.incr("downloads:" + other)).isEqualTo(1);
            long perCommand = RespSocket.command("INCR", "downloads:" + id).length();
            long counted = sqlTotal(1, id);
            assertThat(counted).as("no more counted than sent").isLessThanOrEqualTo(taken / perCommand);
        } finally {
            socket.close();
            sender.shutdownNow();
        }
        Jedis after = writer();
        assertThat(after.ping()).isEqualTo("PONG");
    }

    // --- redis-cli, the client a person types into ---

    @Test
    void redisCli_countsAndReads() throws Exception {
        long id = newId();
        String key = "downloads:" + id;

        assertThat(redisCli("INCR", key)).isEqualTo("1");
        assertThat(redisCli("INCRBY", key, "41")).isEqualTo("42");
        assertThat(redisCli("GET", key)).isEqualTo("42");
        assertThat(redisCli("INCR", "downloads")).isEqualTo("ERR key must be TYPE:ID, such as downloads:456");
        assertThat(sqlTotal(1, id)).isEqualTo(42);
    }

    @Test
    void redisCliPipeMode_sendsAThousandCommands_andEveryOneCounts() throws Exception {
        long id = newId();
        String commands = IntStream.range(0, 1_000).mapToObj(i -> RespSocket.command("INCR", "views:" + id))
                .collect(Collectors.joining());

        String output = run(commands, cliArgs("--pipe"));

        assertThat(output).contains("errors: 0, replies: 1000");
        assertThat(sqlTotal(2, id)).isEqualTo(1_000);
    }

    // --- any key a Redis user writes ---

    /**
     * {@code redis-benchmark -t incr} as a new user runs it: its default key {@code
     * counter:__rand_int__} (a type nobody configured, an id that is not a number), then with
     * {@code -r 100000} (ids such as {@code 000000012345}). No request fails, and the table holds
     * exactly one count per request.
     */
    @Test
    void redisBenchmark_withItsDefaultKeys_andWithRandomKeys_countsEveryRequest() throws Exception {
        String fixedKey = run("", benchmarkArgs("-t", "incr", "-n", "3000", "--csv"));
        String randomKeys = run("", benchmarkArgs("-t", "incr", "-n", "3000", "-r", "100000", "--csv"));

        assertThat(fixedKey).contains("\"INCR\"").doesNotContainIgnoringCase("error");
        assertThat(randomKeys).contains("\"INCR\"").doesNotContainIgnoringCase("error");
        CounterRows rows = new CounterRows(db.dataSource(), table);
        assertThat(rows.totalByName("counter", "__rand_int__")).isEqualTo(3_000);
        assertThat(text(send(writer(), "GET", "counter:__rand_int__"))).isEqualTo("3000");
        assertThat(typeTotal("counter")).isEqualTo(6_000);
    }

    /**
     * A client recording new ids as fast as it can meets the bound on new ids per second: the ids
     * over it are refused and change nothing, every increment it was answered for is counted, and
     * a client counting known keys meanwhile is served every time.
     */
    @Test
    void aClientCreatingIdsAsFastAsItCan_meetsTheBound_andOthersAreServed() throws Exception {
        String boundedTable = table + "_b";
        SlottedServer bounded = SlottedServer.start(new ServerSettings(0, "127.0.0.1",
                new DatabaseSettings(db.jdbcUrl(), null, null), null, TypeNames.parse("views=2"),
                new CounterSettings(boundedTable, WriteMode.GROUPED, null, Duration.ZERO)
                        .withNameBounds(new NameBounds(200, 3))),
                HttpSettings.defaults(), RespSettings.on(0));
        try (Jedis abuser = new Jedis("127.0.0.1", bounded.respPort());
                Jedis bystander = new Jedis("127.0.0.1", bounded.respPort());
                Jedis checker = new Jedis("127.0.0.1", bounded.respPort())) {
            bystander.incr("views:known");
            ExecutorService threads = Executors.newSingleThreadExecutor();
            Future<Long> served = threads.submit(() -> {
                long answered = 0;
                for (int i = 0; i < 300; i++) {
                    answered += bystander.incr("views:known") > 0 ? 1 : 0;
                }
                return answered;
            });
            var pipeline = abuser.pipelined();
            List<Response<Long>> answers = new ArrayList<>();
            for (int i = 0; i < 3_000; i++) {
                answers.add(pipeline.incr("views:new-" + i));
            }
            pipeline.sync();
            long counted = 0;
            long refused = 0;
            for (int i = 0; i < answers.size(); i++) {
                try {
                    answers.get(i).get();
                    counted++;
                } catch (JedisDataException e) {
                    assertThat(e).hasMessageContaining("more than 200 new ids per second");
                    assertThat(checker.get("views:new-" + i)).isEqualTo("0");
                    refused++;
                }
            }
            assertThat(served.get(2, TimeUnit.MINUTES)).isEqualTo(300);
            threads.shutdown();
            assertThat(refused).isPositive();
            assertThat(counted).isGreaterThanOrEqualTo(200);
            CounterRows rows = new CounterRows(db.dataSource(), boundedTable);
            assertThat(rows.totalByName("2", "known")).isEqualTo(301);
            assertThat(new CounterRows(db.dataSource(), boundedTable).typeTotal(2)).isEqualTo(301 + counted);
            // views (pinned), t1 and t2 fill the three type names allowed.
            assertThat(abuser.incr("t1:x")).isEqualTo(1);
            assertThat(abuser.incr("t2:x")).isEqualTo(1);
            assertThatThrownBy(() -> abuser.incr("t3:x")).isInstanceOf(JedisDataException.class)
                    .hasMessageContaining("holds 3 type names");
            assertThat(abuser.get("t3:x")).isEqualTo("0");
            assertThat(abuser.incr("t1:y")).isEqualTo(1);
        } finally {
            bounded.close();
            db.dropCounterTables(boundedTable);
        }
    }

    private List<String> benchmarkArgs(String... rest) {
        List<String> args = new ArrayList<>(List.of("redis-benchmark", "-h", "127.0.0.1", "-p",
                Integer.toString(server.respPort()), "--user", "default", "-a", ServiceSuite.WRITER));
        args.addAll(List.of(rest));
        return args;
    }

    /** Every count of a type named on first use, summed with SQL through the name dictionary. */
    private long typeTotal(String typeName) throws SQLException {
        try (var connection = db.dataSource().getConnection();
                var query = connection.prepareStatement("SELECT COALESCE(SUM(c.count), 0) FROM " + table
                        + " c JOIN " + table + "_names t ON t.record_id = c.record_type WHERE t.record_type = "
                        + Integer.MIN_VALUE + " AND t.name = ?")) {
            query.setString(1, typeName);
            try (var row = query.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        }
    }

    private String redisCli(String... command) throws Exception {
        return run("", cliArgs(command)).strip();
    }

    private List<String> cliArgs(String... rest) {
        List<String> args = new ArrayList<>(List.of("redis-cli", "-h", "127.0.0.1", "-p",
                Integer.toString(server.respPort()), "--user", "default", "--pass", ServiceSuite.WRITER,
                "--no-auth-warning"));
        args.addAll(List.of(rest));
        return args;
    }

    /** Runs a command with {@code input} on its standard input; a missing program fails the test. */
    private static String run(String input, List<String> command) throws Exception {
        Process process;
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new AssertionError(command.get(0) + " is not installed: .ci/run installs Debian's"
                    + " redis-tools (apt-get install redis-tools)", e);
        }
        try (var stdin = process.getOutputStream()) {
            stdin.write(input.getBytes(StandardCharsets.UTF_8));
        }
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("%s finished", command).isTrue();
        assertThat(process.exitValue()).as("%s exited: %s", command, output).isZero();
        return output;
    }

    // --- metrics ---

    @Test
    void commands_appearInMetrics_byCommandAndOutcome() {
        Jedis jedis = writer();
        jedis.incr("downloads:" + newId());
        assertThatThrownBy(() -> jedis.incr("downloads")).isInstanceOf(JedisDataException.class);

        String metrics = new ServiceClient(server.port()).get("/metrics").send().text();

        assertThat(metrics).containsPattern("slotted_resp_commands_seconds_count\\{command=\"incr\","
                + "outcome=\"ok\"[^}]*} [1-9]")
                .containsPattern("slotted_resp_commands_seconds_count\\{command=\"incr\","
                + "outcome=\"error\"[^}]*} [1-9]")
                .containsPattern("slotted_resp_connections [1-9]");
    }
}
