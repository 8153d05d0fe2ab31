package io.slotted.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.slotted.WriteMode;
import io.slotted.db.RestartableServer;
import io.slotted.db.ServerTestDatabase;
import io.slotted.db.ServerTestDatabase.PrivateServers;
import io.slotted.server.config.CounterSettings;
import io.slotted.server.config.DatabaseSettings;
import io.slotted.server.config.ServerSettings;
import io.slotted.server.config.TypeNames;
import io.slotted.server.http.HttpSettings;
import io.slotted.server.resp.RespSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * The Redis protocol while the database server is stopped and started again under load: clients
 * get errors while it is down, nothing acknowledged is lost or counted twice, and the service
 * counts again once the database is back, without a restart of its own. The database server is a
 * private one the test really stops, of each kind the tests can start.
 */
@ParameterizedClass(name = "[{arguments}]")
@MethodSource("io.slotted.db.TestDatabases#withPrivateServers")
class RespRestartSuite {
    private static final int CLIENTS = 16;

    private final PrivateServers privateServers;

    RespRestartSuite(ServerTestDatabase db) {
        this.privateServers = db.privateServers().orElseThrow();
    }

    /** A database server of the test's own, running. */
    private RestartableServer privateServer() {
        return privateServers.privateServer("resp-restart");
    }

    /** What happened to the increments the clients sent. */
    private static final class Tally {
        final AtomicLong acknowledged = new AtomicLong();
        final AtomicLong notApplied = new AtomicLong();
        final AtomicLong unknown = new AtomicLong();
        final List<String> errors = new ArrayList<>();

        void error(String message) {
            if (message.contains("was applied, but the total could not be read")) {
                acknowledged.incrementAndGet();
            } else if (message.startsWith("ERR outcome unknown:")) {
                unknown.incrementAndGet();
            } else {
                notApplied.incrementAndGet();
            }
            synchronized (errors) {
                if (errors.size() < 5 && errors.stream().noneMatch(message::equals)) {
                    errors.add(message);
                }
            }
        }

        long failed() {
            return notApplied.get() + unknown.get();
        }
    }

    private static Jedis connect(SlottedServer service) {
        return new Jedis(new HostAndPort("127.0.0.1", service.respPort()),
                DefaultJedisClientConfig.builder().timeoutMillis(60_000).build());
    }

    @Test
    void databaseStoppedAndStartedUnderLoad_errorsWhileDown_nothingAcknowledgedLost_andRecovery()
            throws Exception {
        RestartableServer database = privateServer();
        Tally tally = new Tally();
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        AtomicBoolean stopSending = new AtomicBoolean();
        try (SlottedServer service = SlottedServer.start(new ServerSettings(0, "127.0.0.1",
                new DatabaseSettings(database.jdbcUrl(), null, null), null, TypeNames.parse("downloads=1"),
                new CounterSettings("resp_restart", WriteMode.GROUPED, null, Duration.ZERO)),
                HttpSettings.defaults(), RespSettings.on(0))) {
            // The clients run until told to stop, not for a fixed number of calls, which they could
            // all have made before the database was stopped.
            List<Future<?>> load = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++) {
                load.add(clients.submit(() -> {
                    try (Jedis jedis = connect(service)) {
                        while (!stopSending.get()) {
                            try {
                                jedis.incr("downloads:1");
                                tally.acknowledged.incrementAndGet();
                            } catch (JedisDataException e) {
                                tally.error(e.getMessage());
                            }
                        }
                    }
                    return null;
                }));
            }
            await().atMost(Duration.ofSeconds(60)).until(() -> tally.acknowledged.get() >= 300);
            database.stop();
            // Started again as soon as a client is told the database is down: waiting for more
            // could keep it down past the time a flush cut off mid-COMMIT has to learn its outcome.
            await().atMost(Duration.ofSeconds(60)).until(() -> tally.failed() >= 1);
            database.start();
            long acknowledgedAtRestart = tally.acknowledged.get();
            await().atMost(Duration.ofMinutes(2))
                    .until(() -> tally.acknowledged.get() >= acknowledgedAtRestart + 300);
            stopSending.set(true);
            for (Future<?> client : load) {
                client.get(1, TimeUnit.MINUTES);
            }

            try (Jedis jedis = connect(service)) {
                long total = Long.parseLong(jedis.get("downloads:1"));
                System.out.printf("Redis protocol, database restarted: acknowledged=%d notApplied=%d"
                        + " unknown=%d total=%d errors=%s%n", tally.acknowledged.get(),
                        tally.notApplied.get(), tally.unknown.get(), total, tally.errors);
                assertThat(tally.failed()).as("errors while the database was down").isPositive();
                assertThat(total).as("nothing acknowledged lost, nothing counted twice")
                        .isBetween(tally.acknowledged.get(), tally.acknowledged.get() + tally.unknown.get());
                assertThat(jedis.incr("downloads:2")).as("counting again without a restart").isEqualTo(1);
            }
        } finally {
            stopSending.set(true);
            clients.shutdownNow();
            database.stop();
        }
    }
}
