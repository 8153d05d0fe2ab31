package io.slotted;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import io.slotted.db.CommitCuttingProxy;
import io.slotted.db.CommitCuttingProxy.Cut;
import io.slotted.db.RestartableServer;
import io.slotted.db.ServerTestDatabase;
import io.slotted.db.ServerTestDatabase.PrivateServers;
import io.slotted.db.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Real connection faults during group commit: connections cut at COMMIT by a proxy on loopback,
 * and the database server stopped and started under load. Nothing acknowledged may be lost and
 * nothing applied twice, and the library must recover without being rebuilt.
 *
 * <p>An increment without an idempotency key is flushed as one upsert statement in auto-commit
 * that also sets the flusher's mark, so the cuts of plain increments here cut that statement,
 * before or after the server receives it, and its outcome is learned from the mark; keyed
 * increments take the transaction that claims the ledger first, learned from the ledger.
 *
 * <p>It runs on the servers of which a test can start a private one, to stop and start it.
 */
@ParameterizedClass(name = "[{arguments}]")
@MethodSource("io.slotted.db.TestDatabases#withPrivateServers")
class ConnectionFaultSuite {
    private static final AtomicInteger TABLES = new AtomicInteger();

    private final ServerTestDatabase db;
    private final PrivateServers privateServers;
    private String table;
    private CommitCuttingProxy proxy;
    private HikariDataSource viaProxy;

    ConnectionFaultSuite(ServerTestDatabase db) {
        this.db = db;
        this.privateServers = db.privateServers().orElseThrow();
    }

    /** A server of the test's own that it may stop and start. */
    private RestartableServer privateServer() {
        return privateServers.privateServer("restart");
    }

    /** The same server, as a {@link TestDatabase}, for setup and reads. */
    private TestDatabase privateDatabase(RestartableServer server) {
        return privateServers.on(server);
    }

    @BeforeEach
    void proxyInFront() throws Exception {
        table = "fault_" + ProcessHandle.current().pid() + "_" + TABLES.incrementAndGet();
        proxy = new CommitCuttingProxy(db.host(), db.port());
        viaProxy = db.poolFor(db.jdbcUrlVia("127.0.0.1", proxy.port()), "via-proxy", 20);
    }

    @AfterEach
    void cleanUp() throws Exception {
        viaProxy.close();
        proxy.close();
        db.dropCounterTables(table);
    }

    private SlottedCounters grouped(javax.sql.DataSource dataSource) {
        SlottedCounters counters = SlottedCounters.builder(dataSource).table(table)
                .writeMode(WriteMode.GROUPED).flushers(1).retryBackoff(Duration.ofMillis(5)).build();
        counters.migrate();
        return counters;
    }

    @Test
    void commitLostAfterTheServerReceivedIt_isLearnedFromTheLedgerAndNotAppliedTwice() {
        try (SlottedCounters counters = grouped(viaProxy)) {
            counters.add(1, 1L, 100);
            proxy.cutNextCommit(Cut.AFTER_SERVER_RECEIVES);

            counters.add(1, 1L, 5);

            assertThat(proxy.cuts()).isEqualTo(1);
            assertThat(counters.stats().outcomesUnknown()).isEqualTo(1);
            assertThat(counters.stats().outcomesResolved()).as("the retry found it committed").isEqualTo(1);
            assertThat(counters.get(1, 1L)).isEqualTo(105);
        }
    }

    @Test
    void keyedCommitLostAfterTheServerReceivedIt_isReportedAppliedNotReplayed() {
        try (SlottedCounters counters = grouped(viaProxy)) {
            counters.add(1, 1L, 100);
            proxy.cutNextCommit(Cut.AFTER_SERVER_RECEIVES);

            assertThat(counters.add(1, 1L, 5, "cut-key")).as("applied by the lost commit").isTrue();

            assertThat(counters.stats().outcomesResolved()).isEqualTo(1);
            assertThat(counters.add(1, 1L, 5, "cut-key")).as("a later retry is a replay").isFalse();
            assertThat(counters.get(1, 1L)).isEqualTo(105);
        }
    }

    /**
     * A replayed key's flush loses its COMMIT before the server has it; its retry, which fenced the
     * flusher's mark and wrote the flush again, loses its own after the server committed it. The
     * third attempt finds the flush in the mark, and must still tell the caller its key was a
     * replay, not that it applied now.
     */
    @Test
    void keyedReplay_whoseRetryAlsoLostItsCommit_isStillReportedAsAReplay() {
        try (SlottedCounters counters = grouped(viaProxy)) {
            assertThat(counters.add(1, 1L, 5, "cut-twice")).isTrue();
            proxy.cutNextCommits(Cut.BEFORE_SERVER_RECEIVES, Cut.AFTER_SERVER_RECEIVES);

            assertThat(counters.add(1, 1L, 5, "cut-twice")).as("a replay, learned from the mark").isFalse();

            assertThat(proxy.cuts()).isEqualTo(2);
            assertThat(counters.stats().outcomesResolved()).as("the third attempt found it in the mark")
                    .isEqualTo(1);
            assertThat(counters.get(1, 1L)).isEqualTo(5);
        }
    }

    @Test
    void commitLostBeforeTheServerReceivedIt_isRetriedAndAppliedOnce() {
        try (SlottedCounters counters = grouped(viaProxy)) {
            counters.add(1, 1L, 100);
            proxy.cutNextCommit(Cut.BEFORE_SERVER_RECEIVES);

            counters.add(1, 1L, 7);

            assertThat(proxy.cuts()).isEqualTo(1);
            assertThat(counters.stats().outcomesUnknown()).isEqualTo(1);
            assertThat(counters.stats().outcomesResolved()).as("the retry wrote it").isZero();
            assertThat(counters.get(1, 1L)).isEqualTo(107);
        }
    }

    /**
     * A lone increment costs one round trip: one upsert statement in auto-commit carries the
     * flusher's mark and the increment (the cut-COMMIT tests around this one cut exactly that trip).
     */
    @Test
    void loneIncrement_isOneRoundTripToTheServer() throws Exception {
        // A proxy of its own and no pool, so that nothing but the flusher's work is counted.
        try (CommitCuttingProxy counting = new CommitCuttingProxy(db.host(), db.port());
                SlottedCounters counters = grouped(
                        new DriverManagerDataSource(db.jdbcUrlVia("127.0.0.1", counting.port())))) {
            counters.add(1, 1L, 1); // registers the flusher and reads the type registry
            int before = counting.clientWrites();

            for (int i = 0; i < 20; i++) {
                counters.add(1, 1L, 1);
            }

            assertThat(counting.clientWrites() - before)
                    .as("round trips for 20 lone increments, at most two more for a registry re-read")
                    .isBetween(20, 22);
        }
        try (SlottedCounters direct = SlottedCounters.builder(db.dataSource()).table(table)
                .writeMode(WriteMode.DIRECT).build()) {
            assertThat(direct.get(1, 1L)).isEqualTo(21);
        }
    }

    /**
     * Round trips to the server for one {@code addAndGet}'s flush: 1 where the driver sends the
     * flush and the query of its totals together, 2 where the query follows the flush.
     */
    private int roundTripsPerFlushWithTotals() {
        return db.sendsStatementsTogether() ? 1 : 2;
    }

    /**
     * The URL of the test's server reached through a proxy at a port, with whatever makes the
     * flush answer its totals in one round trip; the same URL where nothing is needed.
     */
    private String urlAnsweringTotalsInOneRoundTrip(int proxyPort) {
        return db.jdbcUrlViaSendingStatementsTogether("127.0.0.1", proxyPort);
    }

    /** With a data source set for it, a lone {@code addAndGet} is one round trip on every server. */
    @Test
    void loneAddAndGet_onADataSourceSetForIt_isOneRoundTrip() throws Exception {
        try (CommitCuttingProxy counting = new CommitCuttingProxy(db.host(), db.port());
                SlottedCounters counters = grouped(
                        new DriverManagerDataSource(urlAnsweringTotalsInOneRoundTrip(counting.port())))) {
            counters.addAndGet(1, 1L, 1);
            int before = counting.clientWrites();

            for (long expected = 2; expected <= 21; expected++) {
                assertThat(counters.addAndGet(1, 1L, 1)).isEqualTo(expected);
            }

            assertThat(counting.clientWrites() - before)
                    .as("round trips for 20 lone addAndGets, at most two more for a registry re-read")
                    .isBetween(20, 22);
        }
    }

    @Test
    void addAndGet_commitLostAfterTheServerReceivedIt_isLearnedFromTheMark_andAnswersTheTotalOnce() {
        try (SlottedCounters counters = grouped(viaProxy)) {
            counters.add(1, 1L, 100);
            proxy.cutNextCommit(Cut.AFTER_SERVER_RECEIVES);

            long total = counters.addAndGet(1, 1L, 5);

            assertThat(proxy.cuts()).isEqualTo(1);
            assertThat(counters.stats().outcomesResolved()).as("the retry found it committed").isEqualTo(1);
            assertThat(total).isEqualTo(105);
            assertThat(counters.get(1, 1L)).isEqualTo(105);
        }
    }

    @Test
    void addAndGet_commitLostBeforeTheServerReceivedIt_isRetriedOnce_andAnswersTheTotal() {
        try (SlottedCounters counters = grouped(viaProxy)) {
            counters.add(1, 1L, 100);
            proxy.cutNextCommit(Cut.BEFORE_SERVER_RECEIVES);

            long total = counters.addAndGet(1, 1L, 7);

            assertThat(proxy.cuts()).isEqualTo(1);
            assertThat(counters.stats().outcomesResolved()).as("the retry wrote it").isZero();
            assertThat(total).isEqualTo(107);
            assertThat(counters.get(1, 1L)).isEqualTo(107);
        }
    }

    /** A lone {@code addAndGet} learns its total with the flush: no read of its own. */
    @Test
    void loneAddAndGet_learnsItsTotalWithTheFlush() throws Exception {
        try (CommitCuttingProxy counting = new CommitCuttingProxy(db.host(), db.port());
                SlottedCounters counters = grouped(
                        new DriverManagerDataSource(db.jdbcUrlVia("127.0.0.1", counting.port())))) {
            counters.addAndGet(1, 1L, 1); // registers the flusher and reads the type registry
            int before = counting.clientWrites();

            for (long expected = 2; expected <= 21; expected++) {
                assertThat(counters.addAndGet(1, 1L, 1)).isEqualTo(expected);
            }

            int perFlush = roundTripsPerFlushWithTotals();
            assertThat(counting.clientWrites() - before)
                    .as("round trips for 20 lone addAndGets, at most two more for a registry re-read")
                    .isBetween(20 * perFlush, 20 * perFlush + 2);
        }
    }

    @Test
    void everySeventhCommitCutUnderAddAndGet_everyIncrementLandsOnce_andEveryAnswerIncludesItsOwn()
            throws Exception {
        try (SlottedCounters counters = SlottedCounters.builder(viaProxy).table(table)
                .writeMode(WriteMode.GROUPED).flushers(2).retryBackoff(Duration.ofMillis(5)).build()) {
            counters.migrate();
            AtomicLong acknowledged = new AtomicLong();
            proxy.cutEveryNthCommit(7);
            CounterTableTest.runConcurrently(16, t -> {
                for (int i = 0; i < 40; i++) {
                    long before = acknowledged.get();
                    assertThat(counters.addAndGet(1, 1L, 1)).isGreaterThanOrEqualTo(before + 1);
                    acknowledged.incrementAndGet();
                }
            });
            proxy.cutEveryNthCommit(0);

            assertThat(proxy.cuts()).isPositive();
            assertThat(counters.get(1, 1L)).isEqualTo(16 * 40);
        }
    }

    /**
     * A flush sent as one statement is held up on its way to the server until after the flusher,
     * having lost its connection, looked for the flush's mark, found it unchanged and wrote the
     * flush again in the ledger's transaction. When the held-up statement then reaches the server,
     * it must not count the increment a second time: the retry fenced the mark.
     */
    @Test
    void aFlushStatementArrivingAfterItsRetry_isNotCountedTwice() throws Exception {
        try (SlottedCounters counters = SlottedCounters.builder(viaProxy).table(table)
                .writeMode(WriteMode.GROUPED).flushers(1).retryBackoff(Duration.ofMillis(5)).build()) {
            counters.migrate();
            counters.add(1, 1L, 100);
            proxy.cutNextCommit(Cut.AFTER_THE_CLIENT_GAVE_UP);

            counters.add(1, 1L, 5);
            await().atMost(Duration.ofSeconds(60)).until(() -> proxy.lateDeliveries() == 1);

            assertThat(proxy.cuts()).isEqualTo(1);
            assertThat(counters.get(1, 1L)).as("the retry's 5, and not the late statement's too")
                    .isEqualTo(105);
        }
    }

    /**
     * A batch's COMMIT lost after the server received it: the pool closes the broken connection,
     * so giving it back its auto-commit mode fails too, and that second failure once hid the first
     * and told the caller that nothing was applied. The caller must learn that the outcome is
     * unknown: the batch did land.
     */
    @Test
    void aBatchWhoseCommitIsLost_failsAsOutcomeUnknown_notAsNothingApplied() {
        try (SlottedCounters counters = grouped(viaProxy)) {
            counters.add(1, 1L, 100);
            proxy.cutNextCommit(Cut.AFTER_SERVER_RECEIVES);

            assertThatThrownBy(() -> counters.addAll(List.of(new Increment(1, 1L, 5), new Increment(1, 2L, 7))))
                    .isInstanceOf(OutcomeUnknownException.class);

            assertThat(proxy.cuts()).isEqualTo(1);
            // The client was cut off before the COMMIT went on to the server: it lands soon after.
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(counters.getAll(1, List.of(1L, 2L))).as("it landed, once")
                            .containsExactly(Map.entry(1L, 105L), Map.entry(2L, 7L)));
        }
    }

    /**
     * A set whose COMMIT is lost after the server received it: the pool closes the broken
     * connection, and giving the connection back its isolation level then fails too. That second
     * failure must not hide the first: the caller learns the outcome is unknown, not that nothing
     * was applied. (Found by the fault campaign: a set reported as failed had taken effect.)
     */
    @Test
    void aSetWhoseCommitIsLost_failsAsOutcomeUnknown_notAsNothingApplied() {
        try (SlottedCounters counters = grouped(viaProxy)) {
            counters.add(1, 1L, 100);
            proxy.cutNextCommit(Cut.AFTER_SERVER_RECEIVES);

            assertThatThrownBy(() -> counters.admin().set(1, 1L, 7)).isInstanceOf(OutcomeUnknownException.class);

            assertThat(proxy.cuts()).isEqualTo(1);
            // The client was cut off before the COMMIT went on to the server: it lands soon after.
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() ->
                    assertThat(counters.get(1, 1L)).as("it landed").isEqualTo(7));
        }
    }

    /**
     * As above, but the held-up statement arrives only after the flusher has gone on to write
     * further flushes, each setting the mark to a higher number: the late statement must still
     * find the mark past its own number and count nothing. (A fence that refused only the flush's
     * own number let it land here, a second time.)
     */
    @Test
    void aFlushStatementArrivingAfterLaterFlushes_isNotCountedTwice() throws Exception {
        try (SlottedCounters counters = SlottedCounters.builder(viaProxy).table(table)
                .writeMode(WriteMode.GROUPED).flushers(1).retryBackoff(Duration.ofMillis(5)).build()) {
            counters.migrate();
            counters.add(1, 1L, 100);
            proxy.cutNextCommit(Cut.AFTER_THE_CLIENT_GAVE_UP);

            counters.add(1, 1L, 5);
            for (int i = 0; i < 5; i++) {
                counters.add(1, 1L, 1000);
            }
            assertThat(proxy.lateDeliveries()).as("the held statement is still on its way").isZero();
            await().atMost(Duration.ofSeconds(60)).until(() -> proxy.lateDeliveries() == 1);

            assertThat(proxy.cuts()).isEqualTo(1);
            assertThat(counters.get(1, 1L)).as("the retry's 5 and the later 5,000, not the late statement's 5")
                    .isEqualTo(5_105);
        }
    }

    /**
     * Counters with one flusher that tries for an hour of {@code ticker} to learn a lost commit's
     * outcome, holding 100 on counter (1, 1); the proxy cuts the next COMMIT after the server
     * received it and then refuses connections until told to accept them.
     */
    private SlottedCounters cutOffAfterTheNextCommit(ManualTicker ticker) throws Exception {
        return cutOffAfterTheNextCommit(ticker, WriteMode.GROUPED);
    }

    /** As {@link #cutOffAfterTheNextCommit(ManualTicker)}, in {@code mode}. */
    private SlottedCounters cutOffAfterTheNextCommit(ManualTicker ticker, WriteMode mode) throws Exception {
        SlottedCountersBuilder builder = SlottedCounters.builder(viaProxy).table(table)
                .writeMode(mode).flushers(1).retryBackoff(Duration.ofMillis(5))
                .outcomeResolutionTimeout(Duration.ofHours(1)).ticker(ticker);
        if (mode == WriteMode.BUFFERED) {
            builder.flushInterval(Duration.ofMillis(20));
        }
        SlottedCounters counters = builder.build();
        counters.migrate();
        counters.addAsync(1, 1L, 100).get(60, TimeUnit.SECONDS);
        proxy.cutNextCommit(Cut.AFTER_SERVER_RECEIVES);
        proxy.refuseConnectionsAfterNextCut();
        return counters;
    }

    @Test
    void commitLostAndDatabaseOutOfReachPastTheResolutionTime_failsTheCallerWithOutcomeUnknown()
            throws Exception {
        ManualTicker ticker = new ManualTicker();
        try (SlottedCounters counters = cutOffAfterTheNextCommit(ticker)) {

            CompletableFuture<Void> add = counters.addAsync(1, 1L, 5);
            await().atMost(Duration.ofSeconds(60)).until(() -> counters.stats().outcomesUnknown() == 1
                    && counters.stats().retries() >= 2);
            assertThat(add).as("still trying to learn the outcome: the hour has not passed").isNotDone();
            ticker.advance(Duration.ofHours(1));

            assertThatThrownBy(() -> add.get(60, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(OutcomeUnknownException.class)
                    .hasMessageContaining("outcome could not be learned within 3600000ms");
            assertThat(counters.stats().outcomesResolved()).isZero();
            proxy.acceptConnections();
        }
        try (SlottedCounters direct = SlottedCounters.builder(db.dataSource()).table(table)
                .writeMode(WriteMode.DIRECT).build()) {
            assertThat(direct.get(1, 1L)).as("the lost commit had landed, once").isEqualTo(105);
        }
    }

    /**
     * In {@code BUFFERED} mode too: a flush whose lost COMMIT's outcome could not be learned is not
     * written again (under a new flush number it would count twice if the lost one landed), and
     * its caller learns the outcome is unknown, not that nothing was applied. The fault campaign
     * found both: such a flush retried round after round, then failed at close as "nothing was
     * applied" though its COMMIT had landed.
     */
    @Test
    void bufferedCommitLostAndDatabaseOutOfReachPastTheResolutionTime_isNotWrittenAgain_andItsCallerLearnsOutcomeUnknown()
            throws Exception {
        ManualTicker ticker = new ManualTicker();
        try (SlottedCounters counters = cutOffAfterTheNextCommit(ticker, WriteMode.BUFFERED)) {
            CompletableFuture<Void> add = counters.addAsync(1, 1L, 5);
            await().atMost(Duration.ofSeconds(60)).until(() -> counters.stats().outcomesUnknown() == 1
                    && counters.stats().retries() >= 2);
            ticker.advance(Duration.ofHours(1));

            assertThatThrownBy(() -> add.get(60, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(OutcomeUnknownException.class);
            proxy.acceptConnections();
            counters.addAsync(1, 2L, 1).get(60, TimeUnit.SECONDS);
        }
        try (SlottedCounters direct = SlottedCounters.builder(db.dataSource()).table(table)
                .writeMode(WriteMode.DIRECT).build()) {
            assertThat(direct.get(1, 1L)).as("the lost commit had landed, once").isEqualTo(105);
        }
    }

    /**
     * A flusher whose connection was lost, and who could not get another while the database was
     * out of reach, takes a new one as soon as it can, idle, not at its next flush: by then
     * callers inside transactions may hold every other connection of the pool, as the 20 here do.
     */
    @Test
    void flusherLeftWithoutAConnection_takesOneWhileIdle_soCallersHoldingThePoolStillCount() throws Exception {
        ManualTicker ticker = new ManualTicker();
        try (SlottedCounters counters = cutOffAfterTheNextCommit(ticker)) {
            CompletableFuture<Void> lost = counters.addAsync(1, 1L, 5);
            await().atMost(Duration.ofSeconds(60)).until(() -> counters.stats().retries() >= 2);
            ticker.advance(Duration.ofHours(1));
            assertThatThrownBy(() -> lost.get(60, TimeUnit.SECONDS)).hasCauseInstanceOf(OutcomeUnknownException.class);

            proxy.acceptConnections();
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(
                    viaProxy.getHikariPoolMXBean().getActiveConnections()).as("the flusher's").isEqualTo(1));
            viaProxy.setConnectionTimeout(30_000); // a caller may wait for another's connection
            CounterTableTest.runConcurrently(20, t -> {
                for (int i = 0; i < 5; i++) {
                    try (Connection connection = viaProxy.getConnection()) {
                        connection.setAutoCommit(false);
                        counters.add(1, 2L, 1);
                        connection.commit();
                    }
                }
            });
            assertThat(counters.get(1, 2L)).isEqualTo(100);
        }
    }

    @Test
    void everySeventhCommitCutUnderLoad_everyIncrementLandsExactlyOnce() throws Exception {
        try (SlottedCounters counters = SlottedCounters.builder(viaProxy).table(table)
                .writeMode(WriteMode.GROUPED).flushers(2).retryBackoff(Duration.ofMillis(5)).build()) {
            counters.migrate();
            proxy.cutEveryNthCommit(7);
            CounterTableTest.runConcurrently(16, t -> {
                for (int i = 1; i <= 50; i++) {
                    counters.add(1, t % 3, i);
                }
            });
            proxy.cutEveryNthCommit(0);

            long perThread = 50 * 51 / 2;
            assertThat(proxy.cuts()).isPositive();
            assertThat(counters.getAll(1, java.util.List.of(0L, 1L, 2L)).values().stream()
                    .mapToLong(Long::longValue).sum()).isEqualTo(16 * perThread);
        }
    }

    /**
     * Counters with limits, spent from allowances far from the bound and decided under the
     * counter's lock near it, with every seventh COMMIT cut after the server received it: each
     * cut flush is learned from its mark or the ledger with the decisions of the attempt that
     * landed, so exactly the stock is sold.
     */
    @Test
    void boundedFlushesWithEverySeventhCommitCut_sellExactlyTheStock() throws Exception {
        try (SlottedCounters counters = SlottedCounters.builder(viaProxy).table(table).writeMode(WriteMode.GROUPED)
                .flushers(2).retryBackoff(Duration.ofMillis(5)).limits(7, Limits.atLeast(0)).build()) {
            counters.migrate();
            counters.add(7, 1L, 600); // records the limits before any COMMIT is cut
            AtomicLong sold = new AtomicLong();
            AtomicLong smallestRefused = new AtomicLong(Long.MAX_VALUE);
            proxy.cutEveryNthCommit(7);
            CounterTableTest.runConcurrently(16, t -> {
                for (int amount = 1 + t % 3; ; amount = 1 + (amount + t) % 3) {
                    if (!counters.tryAdd(7, 1L, -amount)) {
                        smallestRefused.accumulateAndGet(amount, Math::min);
                        return;
                    }
                    sold.addAndGet(amount);
                }
            });
            proxy.cutEveryNthCommit(0);

            long left = counters.get(7, 1L);
            assertThat(proxy.cuts()).isPositive();
            assertThat(counters.stats().outcomesResolved()).as("cut flushes found landed").isPositive();
            assertThat(left).isNotNegative().isLessThan(smallestRefused.get());
            assertThat(sold.get()).isEqualTo(600 - left);
        }
    }

    /**
     * A bounded flush whose COMMIT is lost: the retry finds it landed, and its callers get what
     * that attempt decided, an applied sale and a refused one alike; cut before the server got it,
     * it is decided and written again.
     */
    @Test
    void aBoundedFlushWhoseCommitIsLost_answersWhatTheAttemptThatLandedDecided() throws Exception {
        try (SlottedCounters counters = SlottedCounters.builder(viaProxy).table(table).writeMode(WriteMode.GROUPED)
                .flushers(1).retryBackoff(Duration.ofMillis(5)).limits(7, Limits.atLeast(0)).build()) {
            counters.migrate();
            counters.add(7, 1L, 3);
            assertThat(counters.tryAdd(7, 1L, -1)).as("decided under the lock, which leaves the flusher no"
                    + " allowance of 2: the flushes below take the lock too").isTrue();

            proxy.cutNextCommit(Cut.AFTER_SERVER_RECEIVES);
            assertThat(counters.tryAdd(7, 1L, -1)).as("applied, and found landed").isTrue();
            proxy.cutNextCommit(Cut.BEFORE_SERVER_RECEIVES);
            assertThat(counters.tryAdd(7, 1L, -1)).as("applied, written again").isTrue();
            proxy.cutNextCommit(Cut.AFTER_SERVER_RECEIVES);
            assertThat(counters.tryAdd(7, 1L, -1)).as("refused, and found landed").isFalse();

            assertThat(proxy.cuts()).isEqualTo(3);
            assertThat(counters.stats().outcomesResolved()).isEqualTo(2);
            assertThat(counters.get(7, 1L)).isZero();
        }
    }

    /**
     * A flush spending from its allowance, without the counter's lock, whose COMMIT is lost: its
     * mark, set in the same transaction, tells the retry it landed; cut before the server got it,
     * it is written again, decided under the lock as every retry after a lost COMMIT is. Either
     * way it counts once.
     */
    @Test
    void aFlushSpendingItsAllowanceWhoseCommitIsLost_countsOnce() throws Exception {
        try (SlottedCounters counters = SlottedCounters.builder(viaProxy).table(table).writeMode(WriteMode.GROUPED)
                .flushers(1).retryBackoff(Duration.ofMillis(5)).limits(7, Limits.atLeast(0)).build()) {
            counters.migrate();
            counters.add(7, 1L, 1001);
            assertThat(counters.tryAdd(7, 1L, -1)).as("decided under the lock, which gives the allowance").isTrue();
            int resolvedBefore = Math.toIntExact(counters.stats().outcomesResolved());

            proxy.cutNextCommit(Cut.AFTER_SERVER_RECEIVES);
            assertThat(counters.tryAdd(7, 1L, -2)).as("spent, and found landed").isTrue();
            proxy.cutNextCommit(Cut.BEFORE_SERVER_RECEIVES);
            assertThat(counters.tryAdd(7, 1L, -3)).as("spent, written again").isTrue();
            assertThat(counters.tryAdd(7, 1L, -4)).isTrue();

            assertThat(proxy.cuts()).isEqualTo(2);
            assertThat(counters.stats().outcomesResolved() - resolvedBefore).isEqualTo(1);
            assertThat(counters.get(7, 1L)).isEqualTo(1001 - 1 - 2 - 3 - 4);
            try (Connection connection = db.dataSource().getConnection();
                    Statement statement = connection.createStatement();
                    ResultSet row = statement.executeQuery("SELECT count FROM " + table
                            + " WHERE record_type = 7 AND record_id = 1 AND slot < 0")) {
                assertThat(row.next()).isTrue();
                assertThat(row.getLong(1)).as("the allowance: the retry of the flush cut before the server"
                        + " got it decided under the lock and gave an eighth of the 995 left; the last sale spent"
                        + " from it").isEqualTo(995 / 8 - 4);
            }
        }
    }

    @Test
    void serverStoppedAndStartedUnderLoad_nothingAcknowledgedIsLostOrCountedTwice() throws Exception {
        RestartableServer server = privateServer();
        TestDatabase direct = privateDatabase(server);
        AtomicLong acknowledged = new AtomicLong();
        AtomicLong notApplied = new AtomicLong();
        AtomicLong unknown = new AtomicLong();
        AtomicBoolean stopWriting = new AtomicBoolean();
        try (HikariDataSource pool = direct.poolFor(server.jdbcUrl(), "restart", 20);
                SlottedCounters counters = SlottedCounters.builder(pool).table(table)
                        .writeMode(WriteMode.GROUPED).maxAttempts(3).retryBackoff(Duration.ofMillis(20))
                        .build()) {
            counters.migrate();
            // The writers run until told to stop, not for a fixed number of calls: a fixed number
            // can all be acknowledged before the server is stopped, leaving the outage unfelt.
            CompletableFuture<Void> load = CompletableFuture.runAsync(
                    () -> addUntil(counters, stopWriting, acknowledged, notApplied, unknown));
            await().atMost(Duration.ofSeconds(60)).until(() -> acknowledged.get() >= 500);
            long retriesBefore = counters.stats().retries();
            server.stop();
            // Restart once the flushers have felt the outage. Waiting for callers to fail instead
            // could keep the server down past the outcome resolution time of a flush cut off
            // mid-COMMIT, turning a resolvable outcome into an unknown one.
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> counters.stats().retries() >= retriesBefore + 4);
            server.start();
            long acknowledgedAtRestart = acknowledged.get();
            await().atMost(Duration.ofMinutes(2))
                    .until(() -> acknowledged.get() >= acknowledgedAtRestart + 500);
            stopWriting.set(true);
            load.get(1, TimeUnit.MINUTES);

            long total = counters.get(1, 1L);
            System.out.printf("%s restart: acknowledged=%d notApplied=%d unknown=%d total=%d%n",
                    direct, acknowledged.get(), notApplied.get(), unknown.get(), total);
            assertThat(total).as("nothing acknowledged lost, nothing counted twice")
                    .isBetween(acknowledged.get(), acknowledged.get() + unknown.get());
            counters.add(1, 2L, 3);
            assertThat(counters.get(1, 2L)).as("recovered without a rebuild").isEqualTo(3);
        } finally {
            stopWriting.set(true);
            server.stop();
        }
    }

    /** 16 writers adding 1 each until {@code stop} is set, tallying outcomes. */
    private static void addUntil(SlottedCounters counters, AtomicBoolean stop, AtomicLong acknowledged,
            AtomicLong notApplied, AtomicLong unknown) {
        try {
            CounterTableTest.runConcurrently(16, t -> {
                while (!stop.get()) {
                    try {
                        counters.add(1, 1L, 1);
                        acknowledged.incrementAndGet();
                    } catch (OutcomeUnknownException e) {
                        if (unknown.incrementAndGet() == 1) {
                            e.printStackTrace(System.out);
                        }
                    } catch (DatabaseUnavailableException | ContentionException e) {
                        notApplied.incrementAndGet();
                    }
                }
            });
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
