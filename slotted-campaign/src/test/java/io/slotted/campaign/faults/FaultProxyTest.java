package io.slotted.campaign.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.slotted.internal.dialect.Dialect;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every fault of the {@link FaultProxy}, with the real driver of each kind of server in front and a
 * private server behind: what the client sees, and what the server ends up with, read directly.
 * Commits are {@code COMMIT} in transactions, or flush statements in auto-commit.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@ParameterizedClass(name = "[{0}]")
// Galera's cluster is made and tested by the core tests' GaleraCluster; its campaign runs from the command line.
@EnumSource(value = ServerKind.class, names = {"MARIADB", "POSTGRESQL"})
class FaultProxyTest {
    private static final long SEED = 20_260_101L;
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Parameter
    private ServerKind kind;
    private CampaignServer server;
    private FaultProxy proxy;

    @BeforeParameterizedClassInvocation
    void startServer() {
        server = kind.start("fault-proxy-" + kind.name().toLowerCase());
        execute("CREATE TABLE proxied_rows (id INT PRIMARY KEY)");
    }

    @AfterParameterizedClassInvocation
    void stopServer() {
        if (server != null) {
            server.stop();
        }
    }

    @BeforeEach
    void proxyInFront() {
        execute("DELETE FROM proxied_rows");
        System.out.printf("%s: proxy seed %d%n", kind, SEED);
        proxy = FaultProxy.inFrontOf(server, SEED);
    }

    @AfterEach
    void closeProxy() {
        proxy.close();
    }

    @Test
    void unarmed_forwardsEverything() throws SQLException {
        try (Connection connection = viaProxy()) {
            insertAndCommit(connection, 1);
            flush(connection, 2);
        }

        assertThat(ids()).containsExactly(1, 2);
        assertThat(proxy.made(Fault.RESET_AFTER_COMMIT)).isZero();
    }

    @Test
    void resetAfterCommit_commitLandsWhileTheClientSeesAConnectionError() throws SQLException {
        try (Connection connection = viaProxy()) {
            proxy.resetAfterNextCommit();

            assertThatThrownBy(() -> insertAndCommit(connection, 1)).isInstanceOf(SQLException.class);
        }

        assertThat(proxy.made(Fault.RESET_AFTER_COMMIT)).isOne();
        await().atMost(WAIT).until(() -> ids().contains(1));
    }

    @Test
    void resetAfterCommit_ofAFlushInAutoCommit_landsToo() throws SQLException {
        try (Connection connection = viaProxy()) {
            proxy.resetAfterNextCommit();

            assertThatThrownBy(() -> flush(connection, 1)).isInstanceOf(SQLException.class);
        }

        await().atMost(WAIT).until(() -> ids().contains(1));
    }

    @Test
    void isolationLevelReadCommitted_isNotTakenForACommit() throws SQLException {
        try (Connection connection = viaProxy()) {
            proxy.resetBeforeNextCommit();

            connection.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
            assertThat(selectOne(connection)).isEqualTo(1);
            assertThat(proxy.made(Fault.RESET_BEFORE_COMMIT)).isZero();

            assertThatThrownBy(() -> insertAndCommit(connection, 1)).isInstanceOf(SQLException.class);
        }
        assertThat(proxy.made(Fault.RESET_BEFORE_COMMIT)).isOne();
    }

    @Test
    void resetBeforeCommit_rollsBackWhileTheClientSeesAConnectionError() throws SQLException {
        try (Connection connection = viaProxy()) {
            proxy.resetBeforeNextCommit();

            assertThatThrownBy(() -> insertAndCommit(connection, 1)).isInstanceOf(SQLException.class);
        }

        assertThat(proxy.made(Fault.RESET_BEFORE_COMMIT)).isOne();
        execute("INSERT INTO proxied_rows VALUES (1)"); // waits for the rollback to release the key
        assertThat(ids()).containsExactly(1);
    }

    @Test
    void answerDropped_commitLandsAndTheClientLearnsOnlyByItsTimeout() throws SQLException {
        try (Connection connection = viaProxy(Duration.ofSeconds(1))) {
            proxy.dropNextAnswer(WAIT);

            assertThatThrownBy(() -> insertAndCommit(connection, 1)).isInstanceOf(SQLException.class);
        }

        assertThat(proxy.made(Fault.ANSWER_DROPPED)).isOne();
        await().atMost(WAIT).until(() -> ids().equals(List.of(1)));
        await().atMost(WAIT).until(() -> proxy.connections() == 0);
    }

    @Test
    void answerDropped_connectionIsCutByTheProxyAfterTheGivenTime() throws SQLException {
        try (Connection connection = viaProxy()) {
            proxy.dropNextAnswer(Duration.ofMillis(500));

            assertThatThrownBy(() -> flush(connection, 1)).isInstanceOf(SQLException.class);
        }

        await().atMost(WAIT).until(() -> ids().equals(List.of(1)));
    }

    /**
     * The commit is held while its client fails at once, retries on a new connection and commits
     * something else; the held commit then lands on its own connection, which kept its transaction.
     */
    @Test
    void lateDelivery_commitLandsAfterTheClientSawFailureAndMovedOn() throws SQLException {
        try (Connection connection = viaProxy()) {
            proxy.deliverNextCommitLate(Duration.ofSeconds(2));

            assertThatThrownBy(() -> insertAndCommit(connection, 1)).isInstanceOf(SQLException.class);
        }
        try (Connection retry = viaProxy()) {
            insertAndCommit(retry, 2);
        }
        assertThat(ids()).containsExactly(2);
        assertThat(proxy.delivered(Fault.LATE_DELIVERY)).as("read before the delivery").isZero();
        assertThat(proxy.pendingDeliveries()).isOne();

        await().atMost(WAIT).until(() -> proxy.delivered(Fault.LATE_DELIVERY) == 1);

        assertThat(ids()).containsExactly(1, 2);
        assertThat(proxy.made(Fault.LATE_DELIVERY)).isOne();
        assertThat(proxy.pendingDeliveries()).isZero();
    }

    /**
     * Held until another connection's commit passes, as a retry's would: the held commit reaches
     * the server just before that one, long before its latest time.
     */
    @Test
    void lateDeliveryWithTheNextCommit_landsAsAnotherConnectionCommits() throws SQLException {
        try (Connection connection = viaProxy()) {
            proxy.deliverNextCommitWithTheNextCommit(Duration.ofSeconds(60));

            assertThatThrownBy(() -> insertAndCommit(connection, 1)).isInstanceOf(SQLException.class);
        }
        assertThat(proxy.pendingDeliveries()).as("held until another commit").isOne();
        try (Connection retry = viaProxy()) {
            insertAndCommit(retry, 2);
        }

        await().atMost(WAIT).until(() -> proxy.delivered(Fault.LATE_DELIVERY) == 1);

        assertThat(ids()).containsExactly(1, 2);
    }

    /** A flush of many rows takes many reads; it is held whole and delivered whole. */
    @Test
    void lateDelivery_ofAFlushLargerThanOneRead_landsWhole() throws SQLException {
        int rows = 30_000;
        String values = IntStream.rangeClosed(1, rows).mapToObj(id -> "(" + id + ")").collect(Collectors.joining(","));
        try (Connection connection = viaProxy(); Statement statement = connection.createStatement()) {
            proxy.deliverNextCommitLate(Duration.ofSeconds(1));

            assertThatThrownBy(() -> statement.execute(Dialect.FLUSH_COMMENT + "INSERT INTO proxied_rows VALUES "
                    + values)).isInstanceOf(SQLException.class);
        }
        assertThat(ids()).isEmpty();

        await().atMost(WAIT).until(() -> proxy.delivered(Fault.LATE_DELIVERY) == 1);

        assertThat(ids()).hasSize(rows);
    }

    @Test
    void heldPastTimeout_commitLandsOnlyAfterTheClientGaveUp() throws Exception {
        CompletableFuture<Void> commit;
        try (Connection connection = viaProxy(Duration.ofSeconds(3))) {
            proxy.holdNextCommitPastTimeout();
            commit = CompletableFuture.runAsync(() -> {
                try {
                    insertAndCommit(connection, 1);
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            await().atMost(WAIT).until(() -> proxy.made(Fault.HELD_PAST_TIMEOUT) == 1);
            assertThat(ids()).as("held while the client waits").isEmpty();
            assertThat(commit).as("the client still waits").isNotDone();

            assertThatThrownBy(() -> commit.get(WAIT.toSeconds(), TimeUnit.SECONDS))
                    .hasRootCauseInstanceOf(java.net.SocketTimeoutException.class);
        }

        await().atMost(WAIT).until(() -> proxy.delivered(Fault.HELD_PAST_TIMEOUT) == 1);
        assertThat(ids()).containsExactly(1);
    }

    @Test
    void cutMidPacket_nothingLandsAndTheClientSeesAConnectionError() throws SQLException {
        for (int id = 1; id <= 5; id++) {
            try (Connection connection = viaProxy()) {
                proxy.cutNextCommitMidPacket();
                int flushed = id;

                assertThatThrownBy(() -> flush(connection, flushed)).isInstanceOf(SQLException.class);
            }
        }

        assertThat(proxy.made(Fault.CUT_MID_PACKET)).isEqualTo(5);
        execute("INSERT INTO proxied_rows VALUES (1), (2), (3), (4), (5)"); // waits for any rollback
        assertThat(ids()).containsExactly(1, 2, 3, 4, 5);
    }

    @Test
    void resetAll_cutsEveryOpenConnection() throws SQLException {
        List<Connection> connections = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                connections.add(viaProxy());
                assertThat(selectOne(connections.get(i))).isEqualTo(1);
            }

            proxy.resetAll();

            for (Connection connection : connections) {
                assertThatThrownBy(() -> selectOne(connection)).isInstanceOf(SQLException.class);
            }
        } finally {
            for (Connection connection : connections) {
                connection.close();
            }
        }
        assertThat(proxy.made(Fault.RESET_ALL)).isOne();
        try (Connection fresh = viaProxy()) {
            assertThat(selectOne(fresh)).isEqualTo(1);
        }
    }

    @Test
    void blackout_cutsAndRefusesConnectionsUntilItEnds() throws SQLException {
        try (Connection open = viaProxy()) {
            proxy.blackout(Duration.ofSeconds(2));

            assertThatThrownBy(() -> selectOne(open)).isInstanceOf(SQLException.class);
        }
        assertThatThrownBy(this::viaProxy).isInstanceOf(SQLException.class);

        await().atMost(WAIT).ignoreExceptions().until(() -> {
            try (Connection fresh = viaProxy()) {
                return selectOne(fresh) == 1;
            }
        });
        assertThat(proxy.made(Fault.BLACKOUT)).isOne();
    }

    @Test
    void heal_discardsAHeldCommitAndDisarmsTheRest() throws SQLException {
        try (Connection connection = viaProxy()) {
            proxy.deliverNextCommitLate(Duration.ofSeconds(1));
            assertThatThrownBy(() -> insertAndCommit(connection, 1)).isInstanceOf(SQLException.class);
        }
        proxy.resetBeforeNextCommit();

        proxy.heal();

        assertThat(proxy.armed()).isZero();
        assertThat(proxy.pendingDeliveries()).isZero();
        try (Connection connection = viaProxy()) {
            insertAndCommit(connection, 2);
        }
        await().during(Duration.ofSeconds(2)).atMost(WAIT)
                .until(() -> proxy.delivered(Fault.LATE_DELIVERY) == 0 && ids().equals(List.of(2)));
    }

    @Test
    void negativeTimes_areRejectedNamingTheSetting() {
        assertThatThrownBy(() -> proxy.deliverNextCommitLate(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("delay must be zero or more, but was PT-1S");
        assertThatThrownBy(() -> proxy.blackout(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("duration must be zero or more, but was null");
        assertThat(proxy.armed()).isZero();
    }

    /**
     * Cuts armed from another thread while four clients commit through the proxy: every commit
     * either is acknowledged or lost its answer after the server had it, so all of them land, and
     * the clients saw exactly as many failures as cuts were made.
     */
    @Test
    void cutsArmedWhileManyClientsCommit_everyCommitLandsAndEachFailureIsACut() throws Exception {
        int clients = 4;
        int commits = 25;
        int cuts = 10;
        Set<Integer> failed = ConcurrentHashMap.newKeySet();
        ExecutorService pool = Executors.newFixedThreadPool(clients + 1);
        try {
            List<Future<?>> work = new ArrayList<>();
            for (int client = 0; client < clients; client++) {
                int first = client * 1_000;
                work.add(pool.submit(() -> commitAll(first, commits, failed)));
            }
            work.add(pool.submit(() -> armCuts(cuts)));
            for (Future<?> future : work) {
                future.get(2, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(proxy.made(Fault.RESET_AFTER_COMMIT) + proxy.armed()).isEqualTo(cuts);
        assertThat(failed).hasSize(proxy.made(Fault.RESET_AFTER_COMMIT));
        await().atMost(WAIT).until(() -> ids().size() == clients * commits);
    }

    private Void commitAll(int first, int commits, Set<Integer> failed) throws SQLException {
        Connection connection = viaProxy();
        try {
            for (int id = first; id < first + commits; id++) {
                try {
                    insertAndCommit(connection, id);
                } catch (SQLException e) {
                    failed.add(id);
                    connection.close();
                    connection = viaProxy();
                }
            }
        } finally {
            connection.close();
        }
        return null;
    }

    private Void armCuts(int cuts) throws InterruptedException {
        for (int i = 0; i < cuts; i++) {
            proxy.resetAfterNextCommit();
            Thread.sleep(5);
        }
        return null;
    }

    private Connection viaProxy() throws SQLException {
        return DriverManager.getConnection(server.jdbcUrlVia(proxy));
    }

    private Connection viaProxy(Duration socketTimeout) throws SQLException {
        return DriverManager.getConnection(server.jdbcUrlVia(proxy) + "&" + kind.socketTimeoutParameter(socketTimeout));
    }

    private static void insertAndCommit(Connection connection, int id) throws SQLException {
        connection.setAutoCommit(false);
        try (Statement statement = connection.createStatement()) {
            statement.execute("INSERT INTO proxied_rows VALUES (" + id + ")");
        }
        connection.commit();
    }

    /** A statement that commits by itself, as Slotted's flushes do: auto-commit, the flush comment first. */
    private static void flush(Connection connection, int id) throws SQLException {
        connection.setAutoCommit(true);
        try (Statement statement = connection.createStatement()) {
            statement.execute(Dialect.FLUSH_COMMENT + "INSERT INTO proxied_rows VALUES (" + id + ")");
        }
    }

    private static int selectOne(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet row = statement.executeQuery("SELECT 1")) {
            row.next();
            return row.getInt(1);
        }
    }

    private List<Integer> ids() throws SQLException {
        try (Connection connection = DriverManager.getConnection(server.jdbcUrl());
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT id FROM proxied_rows ORDER BY id")) {
            List<Integer> ids = new ArrayList<>();
            while (rows.next()) {
                ids.add(rows.getInt(1));
            }
            return ids;
        }
    }

    private void execute(String sql) {
        try (Connection connection = DriverManager.getConnection(server.jdbcUrl());
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
    }
}
