package io.slotted;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import io.slotted.db.CommitCuttingProxy;
import io.slotted.db.CommitCuttingProxy.Cut;
import io.slotted.db.ServerTestDatabase;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code GROUPED} callers lead their own flushes: the first caller to find the writer free writes
 * on its own thread, and callers arriving while it writes queue behind it and are written by the
 * next leader, in one flush. Each test stalls a leader on a row lock held by another session, lets
 * followers queue behind it, and then makes the fault: the followers' flush cut at its commit, the
 * leader or a follower interrupted, the counters closed. Every outcome follows the rules of a
 * flush written by a flusher thread, and the database's sum is exact.
 *
 * <p>It runs on the database servers, where a proxy can cut the connection.
 */
@ParameterizedClass(name = "[{arguments}]")
@MethodSource("io.slotted.db.TestDatabases#servers")
class CallersLeadSuite extends CounterTableTest {
    private static final int FOLLOWERS = 9;

    private CommitCuttingProxy proxy;
    private HikariDataSource viaProxy;
    private SlottedCounters counters;
    private Stalled stalled;

    CallersLeadSuite(ServerTestDatabase db) {
        super(db);
    }

    private ServerTestDatabase server() {
        return (ServerTestDatabase) db;
    }

    @BeforeEach
    void countersBehindAProxy() throws Exception {
        proxy = new CommitCuttingProxy(server().host(), server().port());
        viaProxy = server().poolFor(server().jdbcUrlVia("127.0.0.1", proxy.port()), "via-proxy", 20);
        counters = migrated(SlottedCounters.builder(viaProxy).table(table).writeMode(WriteMode.GROUPED)
                .slots(1).flushers(1).retryBackoff(Duration.ofMillis(5)));
        counters.add(1, 1L, 100); // the counter's one slot row, which a test locks to stall a leader
    }

    @AfterEach
    void closeProxy() throws Exception {
        if (stalled != null) {
            stalled.release();
        }
        counters.close();
        viaProxy.close();
        proxy.close();
    }

    @Test
    void followersFlushCutAfterTheServerReceivedIt_isLearnedFromTheMark_andEveryFollowerIsReleasedOnce()
            throws Exception {
        Stalled stalled = leaderWithFollowersQueued();
        proxy.cutNextCommit(Cut.AFTER_SERVER_RECEIVES); // the leader's statement has passed already

        stalled.release();

        stalled.awaitAll();
        assertThat(proxy.cuts()).isEqualTo(1);
        assertThat(counters.stats().outcomesUnknown()).isEqualTo(1);
        assertThat(counters.stats().outcomesResolved()).as("the retry found it committed").isEqualTo(1);
        assertThat(counters.stats().flushes()).as("the first add, the leader's, the followers' one flush")
                .isEqualTo(3);
        assertThat(counters.get(1, 1L)).isEqualTo(100 + 1 + FOLLOWERS);
    }

    @Test
    void followersFlushCutBeforeTheServerReceivedIt_isWrittenAgainOnce() throws Exception {
        Stalled stalled = leaderWithFollowersQueued();
        proxy.cutNextCommit(Cut.BEFORE_SERVER_RECEIVES);

        stalled.release();

        stalled.awaitAll();
        assertThat(proxy.cuts()).isEqualTo(1);
        assertThat(counters.stats().outcomesUnknown()).isEqualTo(1);
        assertThat(counters.stats().outcomesResolved()).as("the retry wrote it").isZero();
        assertThat(counters.stats().flushes()).isEqualTo(3);
        assertThat(counters.get(1, 1L)).isEqualTo(100 + 1 + FOLLOWERS);
    }

    /**
     * A leader's interrupt must not fail the callers it writes for: its flush goes on, and the
     * leader returns normally once its own increment is durable, with its interrupt kept.
     */
    @Test
    void leaderInterruptedWhileItWrites_finishesTheFlush_returnsNormally_andKeepsItsInterrupt() throws Exception {
        Stalled stalled = leaderWithFollowersQueued();

        stalled.leaderThread.interrupt();
        stalled.release();

        stalled.awaitAll();
        assertThat(stalled.leaderSawItsInterrupt).as("the leader's interrupt flag after add returned").isTrue();
        assertThat(counters.get(1, 1L)).isEqualTo(100 + 1 + FOLLOWERS);
        counters.add(1, 1L, 1);
        assertThat(counters.get(1, 1L)).as("the counters write on").isEqualTo(100 + 2 + FOLLOWERS);
    }

    /**
     * A follower interrupted while it waits is told the outcome is unknown; its increment, already
     * queued, is written once all the same, with the others'.
     */
    @Test
    void followerInterruptedWhileItWaits_learnsTheOutcomeIsUnknown_andItsIncrementLandsOnce() throws Exception {
        Stalled stalled = leaderWithFollowersQueued();

        Thread interrupted = stalled.followerThreads.get(0);
        interrupted.interrupt();
        assertThatThrownBy(() -> stalled.followers.get(0).get(30, TimeUnit.SECONDS))
                .hasCauseInstanceOf(OutcomeUnknownException.class)
                .hasMessageContaining("interrupted while waiting for the commit");
        stalled.release();

        stalled.leader.get(30, TimeUnit.SECONDS);
        for (int i = 1; i < FOLLOWERS; i++) {
            stalled.followers.get(i).get(30, TimeUnit.SECONDS);
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> counters.stats().queued() == 0
                && counters.get(1, 1L) == 100 + 1 + FOLLOWERS);
        assertThat(counters.get(1, 1L)).isEqualTo(100 + 1 + FOLLOWERS);
    }

    /** Closing while a leader writes waits for it and for its followers' flush, then refuses more. */
    @Test
    void closeWhileALeaderWrites_waitsForItAndItsFollowers_thenRefusesMore() throws Exception {
        Stalled stalled = leaderWithFollowersQueued();

        CompletableFuture<Void> closing = CompletableFuture.runAsync(counters::close);
        Thread.sleep(200);
        assertThat(closing).as("close waits for the stalled leader").isNotDone();
        stalled.release();

        closing.get(30, TimeUnit.SECONDS);
        stalled.awaitAll();
        assertThatThrownBy(() -> counters.add(1, 1L, 1)).isInstanceOf(IllegalStateException.class);
        try (SlottedCounters reader = SlottedCounters.builder(db.dataSource()).table(table).build()) {
            assertThat(reader.get(1, 1L)).isEqualTo(100 + 1 + FOLLOWERS);
        }
    }

    /**
     * A leader stalled on the counter's slot row, locked by another session, with {@value #FOLLOWERS}
     * followers queued behind it, each adding 1.
     */
    private Stalled leaderWithFollowersQueued() throws Exception {
        Connection holder = lockSlotRows(1, 1L);
        Stalled stalled = new Stalled(holder);
        this.stalled = stalled;
        stalled.leader = onThread(stalled, true);
        // The leader has taken its increment out of the queue and waits in the database.
        await().atMost(Duration.ofSeconds(30)).until(() -> stalled.leaderThread != null
                && stalled.leaderThread.getState() != Thread.State.NEW && counters.stats().queued() == 0);
        Thread.sleep(100);
        assertThat(stalled.leader).as("the leader waits for the row lock").isNotDone();
        for (int i = 0; i < FOLLOWERS; i++) {
            stalled.followers.add(onThread(stalled, false));
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> counters.stats().queued() == FOLLOWERS);
        assertThat(stalled.followers).noneMatch(CompletableFuture::isDone);
        return stalled;
    }

    private CompletableFuture<Void> onThread(Stalled stalled, boolean leader) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                counters.add(1, 1L, 1);
                if (leader) {
                    stalled.leaderSawItsInterrupt = Thread.currentThread().isInterrupted();
                }
                done.complete(null);
            } catch (Throwable e) {
                done.completeExceptionally(e);
            }
        }, leader ? "leader" : "follower");
        if (leader) {
            stalled.leaderThread = thread;
        } else {
            stalled.followerThreads.add(thread);
        }
        thread.start();
        return done;
    }

    /** A stalled leader and its followers. */
    private static final class Stalled {
        private final Connection holder;
        private final AtomicBoolean released = new AtomicBoolean();
        volatile Thread leaderThread;
        volatile boolean leaderSawItsInterrupt;
        CompletableFuture<Void> leader;
        final List<CompletableFuture<Void>> followers = new ArrayList<>();
        final List<Thread> followerThreads = new ArrayList<>();

        Stalled(Connection holder) {
            this.holder = holder;
        }

        /** Rolls back the session holding the row lock, letting the leader's flush through. */
        void release() throws Exception {
            if (released.compareAndSet(false, true)) {
                holder.rollback();
                holder.close();
            }
        }

        void awaitAll() throws Exception {
            leader.get(30, TimeUnit.SECONDS);
            for (CompletableFuture<Void> follower : followers) {
                follower.get(30, TimeUnit.SECONDS);
            }
        }
    }
}
