package io.slotted.internal.group;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.slotted.QueueFullException;
import io.slotted.SlottedException;
import io.slotted.TestConfigs;
import io.slotted.internal.bucket.BucketClock;
import io.slotted.internal.sql.CounterKey;
import io.slotted.internal.write.StatsRecorder;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The hand-off between callers and flushers, with no database: order, batches, room, close. */
class FlushQueueTest {
    private static final CounterKey KEY = new CounterKey(1, 1L);
    private static final Duration HOUR = Duration.ofHours(1);

    private final StatsRecorder stats = new StatsRecorder();

    private FlushQueue queue(int capacity, Duration fullWait) {
        return new FlushQueue(TestConfigs.of(b -> b.queueCapacity(capacity).queueFullWait(fullWait)), stats);
    }

    private static Pending released(long delta) {
        return Pending.released(KEY, delta, BucketClock.NONE);
    }

    private static List<Long> deltas(List<Pending> batch) {
        return batch.stream().map(Pending::delta).toList();
    }

    @Test
    void takeAll_ofAnEmptyQueue_isNoBatch() {
        FlushQueue queue = queue(10, Duration.ZERO);

        assertThat(queue.takeAll()).isEmpty();
    }

    @Test
    void takeAll_returnsEverythingOldestFirst_andLeavesTheQueueEmpty() {
        FlushQueue queue = queue(10, Duration.ZERO);
        for (long delta = 1; delta <= 3; delta++) {
            queue.offer(released(delta));
        }
        assertThat(stats.snapshot().queued()).isEqualTo(3);

        List<List<Pending>> taken = queue.takeAll();

        assertThat(taken).hasSize(1);
        assertThat(deltas(taken.get(0))).containsExactly(1L, 2L, 3L);
        assertThat(stats.snapshot().queued()).isZero();
        assertThat(queue.takeAll()).isEmpty();
    }

    @Test
    void takeAll_ofMoreThanOneFlushesWorth_cutsBatchesOfAtMostMaxFlush_inOrder() {
        int offered = 2 * FlushQueue.MAX_FLUSH + 1;
        FlushQueue queue = queue(offered, Duration.ZERO);
        for (long delta = 1; delta <= offered; delta++) {
            queue.offer(released(delta));
        }

        List<List<Pending>> batches = queue.takeAll();

        assertThat(batches).extracting(List::size).containsExactly(FlushQueue.MAX_FLUSH, FlushQueue.MAX_FLUSH, 1);
        List<Long> all = batches.stream().flatMap(List::stream).map(Pending::delta).toList();
        assertThat(all).isEqualTo(IntStream.rangeClosed(1, offered).mapToObj(i -> (long) i).toList());
    }

    @Test
    void offer_toAFullQueueThatMayNotWait_failsSayingWhy_andQueuesNothing() {
        FlushQueue queue = queue(2, Duration.ZERO);
        queue.offer(released(1));
        queue.offer(released(2));

        assertThatThrownBy(() -> queue.offer(released(3)))
                .isInstanceOf(QueueFullException.class)
                .hasMessageStartingWith("write queue full: 2 of 2 places taken after waiting 0ms")
                .hasMessageContaining("Nothing was applied for counter (record_type=1, record_id=1)");
        assertThat(deltas(queue.takeAll().get(0))).containsExactly(1L, 2L);

        queue.offer(released(4));
        assertThat(deltas(queue.takeAll().get(0))).as("room again once a flusher took the rest").containsExactly(4L);
    }

    @Test
    void offer_toAFullQueue_waitsUntilAFlusherTakesTheRest_thenIsQueued() throws Exception {
        FlushQueue queue = queue(1, HOUR);
        queue.offer(released(1));

        OnItsOwnThread<Void> waiting = OnItsOwnThread.start(() -> {
            queue.offer(released(2));
            return null;
        });
        waiting.awaitParkedOn(Condition.class::isInstance);
        assertThat(waiting.isDone()).isFalse();

        assertThat(deltas(queue.takeAll().get(0))).containsExactly(1L);
        waiting.get();
        assertThat(deltas(queue.takeAll().get(0))).containsExactly(2L);
    }

    @Test
    void offer_interruptedWhileWaitingForRoom_failsKeepingTheInterrupt_andQueuesNothing() throws Exception {
        FlushQueue queue = queue(1, HOUR);
        queue.offer(released(1));

        OnItsOwnThread<Boolean> waiting = OnItsOwnThread.start(() -> {
            assertThatThrownBy(() -> queue.offer(released(2)))
                    .isExactlyInstanceOf(SlottedException.class)
                    .hasMessage("interrupted while waiting for room in the write queue; nothing was applied");
            return Thread.currentThread().isInterrupted();
        });
        waiting.awaitParkedOn(Condition.class::isInstance);
        waiting.interrupt();

        assertThat(waiting.get()).as("the interrupt flag, restored").isTrue();
        assertThat(deltas(queue.takeAll().get(0))).containsExactly(1L);
        assertThat(queue.takeAll()).isEmpty();
    }

    @Test
    void idleFlusher_isWokenByTheNextOffer() throws Exception {
        FlushQueue queue = queue(10, Duration.ZERO);

        OnItsOwnThread<List<List<Pending>>> flusher = OnItsOwnThread.start(() -> {
            queue.idle(HOUR.toMillis(), () -> !queue.isEmpty());
            return queue.takeAll();
        });
        flusher.awaitParkedOn(on -> on == queue);
        queue.offer(released(7));

        List<List<Pending>> taken = flusher.get();
        assertThat(taken).hasSize(1);
        assertThat(deltas(taken.get(0))).containsExactly(7L);
    }

    @Test
    void refuseLeftovers_failsEveryIncrementStillQueued_onceEach_andCountsThem() {
        FlushQueue queue = queue(10, Duration.ZERO);
        List<Pending> leftovers = List.of(Pending.async(KEY, 1, BucketClock.NONE),
                Pending.asyncWithTotal(KEY, 2, BucketClock.NONE), released(3));
        leftovers.forEach(queue::offer);

        assertThat(queue.refuseLeftovers()).isEqualTo(3);

        for (Pending refused : leftovers.subList(0, 2)) {
            assertThat(refused.future()).isCompletedExceptionally();
            assertThatThrownBy(() -> refused.future().get())
                    .hasCauseInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("closed before the increment could be written; nothing was applied");
        }
        assertThat(queue.refuseLeftovers()).as("nothing is refused twice").isZero();
    }

    @Test
    void addKeyedAsync_answersFalseForAReplay_andTrueForAKeyApplied() throws Exception {
        FlushQueue queue = queue(10, Duration.ZERO);
        CompletableFuture<Boolean> replay = queue.addKeyedAsync(KEY, 1, BucketClock.NONE, "seen");
        CompletableFuture<Boolean> fresh = queue.addKeyedAsync(KEY, 1, BucketClock.NONE, "new");
        List<Pending> flushed = queue.takeAll().get(0);

        flushed.get(0).markReplayed();
        flushed.forEach(Pending::complete);

        assertThat(replay.get(1, TimeUnit.MINUTES)).isFalse();
        assertThat(fresh.get(1, TimeUnit.MINUTES)).isTrue();
    }

    @Test
    void addAndGetAsync_answersTheTotalItsFlushSet() throws Exception {
        FlushQueue queue = queue(10, Duration.ZERO);
        CompletableFuture<Long> total = queue.addAndGetAsync(KEY, 5, BucketClock.NONE);
        Pending flushed = queue.takeAll().get(0).get(0);

        flushed.total(-42);
        flushed.complete();

        assertThat(total.get(1, TimeUnit.MINUTES)).isEqualTo(-42);
    }

    @Test
    void addAndGet_waitsForItsFlush_andFailsWithWhatTheFlushFailedWith() throws Exception {
        FlushQueue queue = queue(10, Duration.ZERO);
        SlottedException refused = new SlottedException("the database refused it", null);

        OnItsOwnThread<Long> caller = OnItsOwnThread.start(() -> queue.addAndGet(KEY, 5, BucketClock.NONE));
        AtomicReference<Pending> flushed = new AtomicReference<>();
        await().atMost(Duration.ofMinutes(1)).until(() -> {
            queue.takeAll().forEach(batch -> flushed.set(batch.get(0)));
            return flushed.get() != null;
        });
        caller.awaitParkedOn(on -> on == flushed.get());
        flushed.get().fail(refused);

        assertThatThrownBy(caller::get).isInstanceOf(ExecutionException.class).hasCause(refused);
    }
}
