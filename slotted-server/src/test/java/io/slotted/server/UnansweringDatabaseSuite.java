package io.slotted.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.slotted.WriteMode;
import io.slotted.db.ServerTestDatabase;
import java.sql.Connection;
import java.time.Duration;
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

/**
 * The service when its database server stops answering without closing its connections, as a
 * paused server or a host gone without a reset leaves them: a {@link HoldingProxy} between the two
 * holds every connection open at the time, while new ones pass. The service's connections carry a
 * socket timeout (60 s unless the URL sets one), so a statement stuck on a held connection fails,
 * the counters go on on new connections, and the service still stops, having written or resolved
 * what it accepted, with the proxy holding to the end. Run on the database servers a proxy can
 * stand in front of.
 */
@ParameterizedClass(name = "[{arguments}]")
@MethodSource("io.slotted.db.TestDatabases#servers")
class UnansweringDatabaseSuite {
    /** The request deadline of the services here. */
    private static final Duration DEADLINE = Duration.ofSeconds(1);
    /** The socket timeout the tests' URLs set, short so that a test need not wait a minute. */
    private static final Duration SOCKET_TIMEOUT = Duration.ofSeconds(2);
    /** How long a client or the test waits for something before it calls the service hung. */
    private static final long HUNG_MILLIS = 120_000;

    private final ServerTestDatabase db;
    private final OpenedResources opened = new OpenedResources();

    UnansweringDatabaseSuite(ServerTestDatabase db) {
        this.db = db;
    }

    @AfterEach
    void close() throws Exception {
        opened.close();
    }

    /** The URL through the proxy, with the socket timeout in the driver's own unit. */
    private String viaWithSocketTimeout(HoldingProxy proxy) {
        String url = db.jdbcUrlVia("127.0.0.1", proxy.port());
        long timeout = url.startsWith("jdbc:postgresql:") ? SOCKET_TIMEOUT.toSeconds()
                : SOCKET_TIMEOUT.toMillis();
        return url + (url.contains("?") ? "&" : "?") + "socketTimeout=" + timeout;
    }

    private Jedis connect(TestService service) {
        return opened.add(new Jedis(new HostAndPort("127.0.0.1", service.respPort()),
                DefaultJedisClientConfig.builder().timeoutMillis((int) HUNG_MILLIS)
                        .password(ServiceSuite.WRITER).build()));
    }

    @Test
    void servicePool_givesEveryConnectionTheSocketTimeout_unlessTheUrlSetsItsOwn() throws Exception {
        TestService plain = opened.add(TestService.withResp(db, db.jdbcUrl(), WriteMode.GROUPED, DEADLINE));
        HoldingProxy proxy = opened.add(new HoldingProxy(db.host(), db.port()));
        TestService own = opened.add(TestService.withResp(db, viaWithSocketTimeout(proxy),
                WriteMode.GROUPED, DEADLINE));

        try (Connection connection = plain.store().pool().getConnection()) {
            assertThat(connection.getNetworkTimeout()).as("ms").isEqualTo(60_000);
        }
        try (Connection connection = own.store().pool().getConnection()) {
            assertThat(connection.getNetworkTimeout()).as("ms").isEqualTo(SOCKET_TIMEOUT.toMillis());
        }
    }

    @Test
    void serverStopsAnswering_incrIsAnsweredAtTheDeadline_andTheServiceStillStops_countingExactly()
            throws Exception {
        HoldingProxy proxy = opened.add(new HoldingProxy(db.host(), db.port()));
        TestService service = opened.add(TestService.withResp(db, viaWithSocketTimeout(proxy),
                WriteMode.GROUPED, DEADLINE));
        Jedis jedis = connect(service);
        assertThat(jedis.incr("downloads:1")).isEqualTo(1);

        proxy.holdOpenConnections();

        assertThatThrownBy(() -> jedis.incr("downloads:1"))
                .hasMessageStartingWith("ERR outcome unknown:");
        ExecutorService threads = Executors.newSingleThreadExecutor();
        opened.add(threads::shutdownNow);
        Future<?> stopping = threads.submit(service::stop);
        // Without a socket timeout the flusher waiting on its held connection would keep the
        // counters, and so the stop, waiting for as long as the proxy holds: to the end.
        stopping.get(HUNG_MILLIS, TimeUnit.MILLISECONDS);
        assertThat(new CounterRows(db.dataSource(), service.table()).total(1, 1))
                .as("one acknowledged, one unknown").isBetween(1L, 2L);
    }
}
