package io.slotted.internal.group;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.slotted.internal.bucket.BucketClock;
import io.slotted.internal.sql.CounterKey;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * {@code BUFFERED} increments a read adds to what is written: each counted once, whether a read
 * meets a flush before, during or after its commit.
 */
class UnwrittenIncrementsTest {
    private static final CounterKey A = new CounterKey(1, 1L);
    private static final CounterKey B = new CounterKey(1, 2L);

    private final UnwrittenIncrements unwritten = UnwrittenIncrements.tracking();

    /** An increment accepted as {@code BufferedWriter.add} accepts it: tracked, its caller released. */
    private Pending accepted(CounterKey key, long delta) {
        unwritten.accepted(key, delta);
        return Pending.released(key, delta, BucketClock.NONE);
    }

    private static Flush flushOf(Pending... increments) {
        List<Flush> flushes = Flush.of(List.of(increments));
        assertThat(flushes).hasSize(1);
        return flushes.get(0);
    }

    @Test
    void off_tracksNothing_butStillWrites() {
        UnwrittenIncrements off = UnwrittenIncrements.off();
        off.accepted(A, 5);
        AtomicLong writes = new AtomicLong();

        off.commit(List.of(flushOf(Pending.released(A, 5, BucketClock.NONE))), () -> {
            writes.incrementAndGet();
            return List.of();
        });

        assertThat(off.isTracking()).isFalse();
        assertThat(off.of(A)).isZero();
        assertThat(writes.get()).isEqualTo(1);
    }

    @Test
    void accepted_addsUpPerCounter_andARefusedOneIsTakenBackOut() {
        accepted(A, 5);
        accepted(A, -2);
        accepted(B, 7);
        unwritten.refused(B, 7);

        assertThat(unwritten.of(A)).isEqualTo(3);
        assertThat(unwritten.of(B)).isZero();
    }

    @Test
    void accepted_pastSixtyFourBits_isRefused_andLeavesTheSumAsItWas() {
        unwritten.accepted(A, Long.MAX_VALUE - 1);

        assertThatThrownBy(() -> unwritten.accepted(A, 2)).isInstanceOf(ArithmeticException.class);
        assertThat(unwritten.of(A)).isEqualTo(Long.MAX_VALUE - 1);
    }

    @Test
    void commit_takesOutWhatWasWritten_andKeepsWhatIsToBeTriedAgain() {
        Flush written = flushOf(accepted(A, 3), accepted(A, 4));
        Flush retried = flushOf(accepted(B, 5));

        unwritten.commit(List.of(written, retried), () -> List.of(retried));

        assertThat(unwritten.of(A)).isZero();
        assertThat(unwritten.of(B)).isEqualTo(5);
    }

    @Test
    void commit_ofAFlushWithWaitingCallers_takesOutOnlyTheReleasedOnes() {
        Flush flush = flushOf(accepted(A, 3), Pending.keyed(A, 10, BucketClock.NONE, "k"),
                Pending.asyncWithTotal(A, 20, BucketClock.NONE));
        accepted(A, 1);

        unwritten.commit(List.of(flush), List::of);

        assertThat(unwritten.of(A)).as("the 1 not yet flushed, not 1 - 30").isEqualTo(1);
    }

    @Test
    void dropped_takesTheIncrementsOutForGood() {
        Flush given = flushOf(accepted(A, 3));

        unwritten.dropped(List.of(given));

        assertThat(unwritten.of(A)).isZero();
    }

    @Test
    void read_withNoCommitUnderWay_addsTheUnwrittenToTheWritten() {
        accepted(A, 3);

        long total = unwritten.read(() -> 10L, written -> written + unwritten.of(A));

        assertThat(total).isEqualTo(13);
    }

    /**
     * The read starts while a flush is between writing its increments and taking them out of the
     * map, when the database and the map both hold them; it must wait and count them once.
     */
    @Test
    void read_duringACommit_waitsForIt_andCountsItsIncrementsOnce() throws Exception {
        AtomicLong database = new AtomicLong();
        Flush flush = flushOf(accepted(A, 5));
        CountDownLatch written = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        OnItsOwnThread<Void> flusher = OnItsOwnThread.start(() -> {
            unwritten.commit(List.of(flush), () -> {
                database.addAndGet(5);
                written.countDown();
                await(finish);
                return List.of();
            });
            return null;
        });
        assertThat(written.await(1, TimeUnit.MINUTES)).isTrue();

        OnItsOwnThread<Long> reader = OnItsOwnThread.start(
                () -> unwritten.read(database::get, fromDatabase -> fromDatabase + unwritten.of(A)));
        reader.awaitWaiting();
        finish.countDown();

        flusher.get();
        assertThat(reader.get()).isEqualTo(5);
    }

    private static void await(CountDownLatch latch) {
        try {
            assertThat(latch.await(1, TimeUnit.MINUTES)).isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
