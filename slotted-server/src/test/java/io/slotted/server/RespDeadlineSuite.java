package io.slotted.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.slotted.WriteMode;
import io.slotted.db.TestDatabase;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Protocol;
import redis.clients.jedis.Response;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.util.SafeEncoder;

/**
 * The Redis protocol while the database stalls under it — its counter table locked by another
 * session — spoken by Jedis, on every database. Every command is answered within the service's
 * request deadline with what is known: {@code -ERR outcome unknown} for an increment handed to the
 * library, {@code -ERR timeout} for one given up before that (which then never lands) and for a
 * read. Answers keep the order of the commands, the connection stays usable, and an outcome that
 * comes after its answer is never written. Stopping the service closes every client's connection
 * at once, idle or waiting, and the stop ends once the database answers.
 *
 * <p>Nothing here measures time: a stalled command is only known to be answered because its
 * answer arrives (the clients wait up to {@value #CLIENT_TIMEOUT_MILLIS} ms, far past the
 * deadline).
 */
@ParameterizedClass(name = "[{arguments}]")
@MethodSource("io.slotted.db.TestDatabases#all")
class RespDeadlineSuite {
    /** The request deadline of the services here. */
    private static final Duration DEADLINE = Duration.ofSeconds(1);
    /** How long a client waits for an answer before it calls the server hung. */
    private static final int CLIENT_TIMEOUT_MILLIS = 60_000;

    private final TestDatabase db;
    private final OpenedResources opened = new OpenedResources();

    RespDeadlineSuite(TestDatabase db) {
        this.db = db;
    }

    @AfterEach
    void close() throws Exception {
        opened.close();
    }

    private TestService start(WriteMode mode) {
        return opened.add(TestService.withResp(db, db.jdbcUrl(), mode, DEADLINE));
    }

    private Jedis connect(TestService service, String token) {
        return opened.add(new Jedis(new HostAndPort("127.0.0.1", service.respPort()),
                DefaultJedisClientConfig.builder().timeoutMillis(CLIENT_TIMEOUT_MILLIS)
                        .password(token).build()));
    }

    private TableLock lock(TestService service) throws SQLException {
        return opened.add(TableLock.hold(db, service.table()));
    }

    private long sqlTotal(TestService service, long id) throws SQLException {
        return new CounterRows(db.dataSource(), service.table()).total(1, id);
    }

    @Test
    void heldTableLock_pipelinedCommands_areAnsweredInOrderWithWhatIsKnown_andTheLateOutcomeIsNeverWritten()
            throws Exception {
        TestService service = start(WriteMode.GROUPED);
        Jedis jedis = connect(service, ServiceSuite.WRITER);
        assertThat(jedis.incr("downloads:1")).isEqualTo(1);
        TableLock lock = lock(service);

        Pipeline pipeline = jedis.pipelined();
        Response<Long> stalled = pipeline.incr("downloads:1");
        Response<Object> pong = pipeline.sendCommand(Protocol.Command.PING, new String[0]);
        Response<String> read = pipeline.get("downloads:2");
        Response<Object> echo = pipeline.sendCommand(Protocol.Command.ECHO, "after the read");
        pipeline.sync();

        assertThatThrownBy(stalled::get).isInstanceOf(JedisDataException.class)
                .hasMessageStartingWith("ERR outcome unknown: the command did not finish within 1000ms")
                .hasMessageContaining("the increment may or may not have been applied")
                .hasMessageContaining("Redis commands carry no idempotency key");
        assertThat(SafeEncoder.encode((byte[]) pong.get())).isEqualTo("PONG");
        assertThatThrownBy(read::get).isInstanceOf(JedisDataException.class)
                .hasMessageStartingWith("ERR timeout: the command did not finish within 1000ms")
                .hasMessageContaining("a read changes nothing");
        assertThat(SafeEncoder.encode((byte[]) echo.get())).isEqualTo("after the read");

        lock.close();
        // The stalled increment now lands or not; its answer was given, and nothing more comes:
        // each of these reads the answer to its own command.
        assertThat(jedis.ping()).isEqualTo("PONG");
        long total = jedis.incr("downloads:1");
        assertThat(total).as("one acknowledged, one unknown, this one").isBetween(2L, 3L);
        assertThat(jedis.echo("the end")).isEqualTo("the end");
        assertThat(sqlTotal(service, 1)).as("the unknown one may land after the last").isBetween(total, 3L);
    }

    @Test
    void heldTableLock_aWriteStillWaitingForAWriter_isAnsweredTimeout_andNeverLands() throws Exception {
        TestService service = start(WriteMode.DIRECT);
        Jedis jedis = connect(service, ServiceSuite.WRITER);
        TableLock lock = lock(service);

        // More increments than there are writers: those past them wait for one, and are given up
        // at the deadline before they are handed to the library.
        int sent = 40;
        Pipeline pipeline = jedis.pipelined();
        List<Response<Long>> answers = new ArrayList<>();
        for (int id = 1; id <= sent; id++) {
            answers.add(pipeline.incr("downloads:" + id));
        }
        pipeline.sync();
        List<Long> givenUp = new ArrayList<>();
        List<Long> unknown = new ArrayList<>();
        for (int i = 0; i < sent; i++) {
            long id = i + 1;
            JedisDataException refused = (JedisDataException) catchFailure(answers.get(i));
            assertThat(refused.getMessage()).as("INCR downloads:%d", id)
                    .matches("ERR (outcome unknown|timeout): .*");
            (refused.getMessage().startsWith("ERR timeout:") ? givenUp : unknown).add(id);
            if (refused.getMessage().startsWith("ERR timeout:")) {
                assertThat(refused.getMessage()).contains("given up before writing, so nothing was applied");
            }
        }
        assertThat(givenUp).as("increments waiting for a writer at the deadline").isNotEmpty();

        lock.close();
        // Behind the given-up increments in the writers' queue: by its answer, every one of them
        // has reached its gate, and been refused there.
        assertThat(jedis.incr("downloads:1000")).isEqualTo(1);
        for (long id : givenUp) {
            assertThat(sqlTotal(service, id)).as("downloads:%d, given up", id).isZero();
        }
        for (long id : unknown) {
            assertThat(sqlTotal(service, id)).as("downloads:%d, outcome unknown", id).isBetween(0L, 1L);
        }
    }

    private static Throwable catchFailure(Response<Long> answer) {
        try {
            return new AssertionError("answered " + answer.get() + " while the table was locked");
        } catch (JedisDataException e) {
            return e;
        }
    }

    /** Whether the server closed the client's connection: a command then fails to be sent or read. */
    private static boolean closed(Jedis client) {
        try {
            client.ping();
            return false;
        } catch (JedisConnectionException e) {
            return true;
        }
    }

    @Test
    void stop_withAnIdleClientAndOneWaitingOnAStalledDatabase_closesBoth_andEndsOnceTheDatabaseAnswers()
            throws Exception {
        TestService service = start(WriteMode.GROUPED);
        Jedis idle = connect(service, ServiceSuite.READER);
        Jedis waiting = connect(service, ServiceSuite.WRITER);
        assertThat(idle.ping()).isEqualTo("PONG");
        assertThat(waiting.incr("downloads:1")).isEqualTo(1);
        TableLock lock = lock(service);
        // Answered at its deadline, while the library still holds it: the stop must drain it.
        assertThatThrownBy(() -> waiting.incr("downloads:1"))
                .hasMessageStartingWith("ERR outcome unknown:");
        ExecutorService threads = Executors.newFixedThreadPool(2);
        opened.add(threads::shutdownNow);
        Future<Long> inFlight = threads.submit(() -> waiting.incr("downloads:1"));

        Future<?> stopping = threads.submit(service::stop);

        await().atMost(Duration.ofMillis(CLIENT_TIMEOUT_MILLIS)).until(() -> closed(idle));
        assertThatThrownBy(() -> inFlight.get(CLIENT_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS))
                .as("the connection closes under it, unless its deadline answered it first")
                .cause().isInstanceOfAny(JedisConnectionException.class, JedisDataException.class);
        assertThatThrownBy(waiting::ping).isInstanceOf(JedisConnectionException.class);
        lock.close();
        stopping.get(CLIENT_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        assertThat(sqlTotal(service, 1)).as("one acknowledged, up to two unknown").isBetween(1L, 3L);
    }
}
