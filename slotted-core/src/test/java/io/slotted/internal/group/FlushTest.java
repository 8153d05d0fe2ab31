package io.slotted.internal.group;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.slotted.SlottedException;
import io.slotted.internal.bucket.BucketClock;
import io.slotted.internal.dialect.SlotRow;
import io.slotted.internal.sql.CounterKey;
import io.slotted.internal.sql.SlotRange;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * How queued increments become flushes: summed per counter, rows in counter order, a sum kept
 * within what one slot row may take, and every caller told once.
 */
class FlushTest {
    private static final long MAX = SlotRange.MAX_DELTA;
    private static final CounterKey A = new CounterKey(1, 1L);
    private static final CounterKey B = new CounterKey(1, 2L);
    private static final CounterKey C = new CounterKey(2, 0L);

    private static Pending async(CounterKey key, long delta) {
        return Pending.async(key, delta, BucketClock.NONE);
    }

    private static Pending inBucket(CounterKey key, long delta, long bucketStart) {
        return Pending.async(key, delta, bucketStart);
    }

    private static List<Long> deltas(Flush flush) {
        return flush.pending().stream().map(Pending::delta).toList();
    }

    /**
     * A total that could not be read after the flush: its callers were failed, saying the
     * increment was applied, and answering the others must neither throw (which once ended the
     * flusher thread, leaving every caller queued behind it waiting for ever) nor overwrite that.
     */
    @Test
    void answer_withoutATotalForAFailedCaller_answersTheOthersAndKeepsTheFailure() {
        Pending unread = Pending.asyncWithTotal(A, 5, BucketClock.NONE);
        Pending read = Pending.asyncWithTotal(B, 7, BucketClock.NONE);
        Flush flush = Flush.of(List.of(unread, read)).get(0);
        unread.fail(new SlottedException("applied, but its total could not be read"));

        flush.answer(Map.of(B, 7L));
        flush.complete();

        assertThat(read.future()).isCompletedWithValue(7L);
        assertThat(unread.future()).isCompletedExceptionally();
    }

    @Test
    void of_noIncrement_isNoFlush() {
        assertThat(Flush.of(List.of())).isEmpty();
    }

    @Test
    void of_oneIncrement_isOneFlushOfOneCounter() {
        List<Flush> flushes = Flush.of(List.of(async(A, 5)));

        assertThat(flushes).hasSize(1);
        assertThat(flushes.get(0).sums()).containsExactly(Map.entry(A, 5L));
        assertThat(flushes.get(0).increments()).isEqualTo(1);
        assertThat(flushes.get(0).describe()).isEqualTo(
                "add 5 to counter (record_type=1, record_id=1) (1 increments grouped)");
    }

    @Test
    void of_incrementsOfOneCounter_areOneRow_andKeepEveryCallerInArrivalOrder() {
        Flush flush = Flush.of(List.of(async(A, 2), async(A, 3), async(A, -1))).get(0);

        assertThat(flush.sums()).containsExactly(Map.entry(A, 4L));
        assertThat(deltas(flush)).containsExactly(2L, 3L, -1L);
        assertThat(flush.deltas().counterRows(key -> 7)).containsExactly(new SlotRow(A, 7, 4));
    }

    @Test
    void of_countersArrivingInAnyOrder_areWrittenInCounterOrder() {
        Flush flush = Flush.of(List.of(async(C, 1), async(B, 1), async(A, 1), async(B, 1))).get(0);

        assertThat(flush.sums().keySet()).containsExactly(A, B, C);
        assertThat(flush.deltas().counterRows(key -> 0)).extracting(SlotRow::key).containsExactly(A, B, C);
        assertThat(flush.describe()).isEqualTo(
                "write 4 increments to 3 counters (the first (record_type=1, record_id=1))");
    }

    @Test
    void of_incrementsThatCancelOut_writeNoRow_butKeepTheirCallers() {
        Flush flush = Flush.of(List.of(async(A, 3), async(B, 1), async(A, -3))).get(0);

        assertThat(flush.sums()).containsEntry(A, 0L);
        assertThat(flush.deltas().counterRows(key -> 0)).containsExactly(new SlotRow(B, 0, 1));
        assertThat(flush.counters()).isEqualTo(2);
        assertThat(flush.increments()).isEqualTo(3);
    }

    @Test
    void of_aSumPastWhatOneSlotRowMayTake_goesToAnotherFlush_andLaterIncrementsFillTheFirstAgain() {
        List<Flush> flushes = Flush.of(List.of(async(A, MAX), async(A, 1), async(A, -5), async(B, 1)));

        assertThat(flushes).hasSize(2);
        assertThat(flushes.get(0).sums()).containsExactly(Map.entry(A, MAX - 5), Map.entry(B, 1L));
        assertThat(deltas(flushes.get(0))).containsExactly(MAX, -5L, 1L);
        assertThat(flushes.get(1).sums()).containsExactly(Map.entry(A, 1L));
    }

    @Test
    void of_aNegativeSumPastTheLimit_splitsAsAPositiveOne() {
        List<Flush> flushes = Flush.of(List.of(async(A, -MAX), async(A, -1), async(A, -MAX)));

        assertThat(flushes).extracting(flush -> Map.copyOf(flush.sums()))
                .containsExactly(Map.of(A, -MAX), Map.of(A, -1L), Map.of(A, -MAX));
    }

    @Test
    void of_aBucketSumPastTheLimit_splitsEvenWhereTheCounterSumFits() {
        long hour = 3_600;
        List<Flush> flushes = Flush.of(List.of(inBucket(A, MAX, 0), inBucket(A, -MAX, hour), inBucket(A, 1, 0)));

        assertThat(flushes).hasSize(2);
        assertThat(flushes.get(0).sums()).as("the counter's sum alone would take the third").containsEntry(A, 0L);
        assertThat(deltas(flushes.get(0))).containsExactly(MAX, -MAX);
        assertThat(deltas(flushes.get(1))).containsExactly(1L);
    }

    @Test
    void keyed_areTheKeyedIncrementsInKeyOrder() {
        Pending second = Pending.asyncKeyed(A, 1, BucketClock.NONE, "b");
        Pending first = Pending.asyncKeyed(B, 1, BucketClock.NONE, "a");
        Flush flush = Flush.of(List.of(second, async(A, 1), first)).get(0);

        assertThat(flush.keyed()).containsExactly(first, second);
        assertThat(Flush.of(List.of(async(A, 1))).get(0).keyed()).isEmpty();
    }

    @Test
    void answer_givesEachCallerWhoWantsOneTheTotalRightAfterItsOwnIncrement() {
        Pending wantsA = Pending.asyncWithTotal(A, 1, BucketClock.NONE);
        Pending wantsB = Pending.asyncWithTotal(B, 1, BucketClock.NONE);
        Pending plain = async(A, 1);
        Pending wantsALater = Pending.asyncWithTotal(A, 5, BucketClock.NONE);
        Flush flush = Flush.of(List.of(wantsA, plain, wantsB, wantsALater)).get(0);
        assertThat(flush.wantsTotals()).isTrue();
        assertThat(flush.wantedTotals()).containsExactly(A, B);

        flush.answer(Map.of(A, 10L, B, -20L));
        flush.complete();

        assertThat(wantsALater.future()).as("the last of A's increments: A's total").isCompletedWithValue(10L);
        assertThat(wantsA.future()).as("before the 1 and the 5 that came after it").isCompletedWithValue(4L);
        assertThat(wantsB.future()).isCompletedWithValue(-20L);
        assertThat(plain.future()).isCompletedWithValue(null);
        assertThat(Flush.of(List.of(plain)).get(0).wantsTotals()).isFalse();
    }

    @Test
    void perCounter_andPerIncrement_splitAFlushKeepingEveryCallerOnce() {
        Flush flush = Flush.of(List.of(async(B, 1), async(A, 2), async(B, 3))).get(0);

        assertThat(flush.perCounter()).extracting(FlushTest::deltas)
                .containsExactly(List.of(2L), List.of(1L, 3L));
        assertThat(flush.perIncrement()).extracting(FlushTest::deltas)
                .containsExactly(List.of(1L), List.of(2L), List.of(3L));
    }

    @Test
    void complete_afterOneCounterWasSplitOffAndFailed_keepsItsCallersFailed_andCompletesTheRest() {
        Pending a1 = Pending.awaited(A, 1, BucketClock.NONE);
        Pending a2 = Pending.awaited(A, 2, BucketClock.NONE);
        Pending b = Pending.awaited(B, 3, BucketClock.NONE);
        Flush flush = Flush.of(List.of(a1, b, a2)).get(0);
        SlottedException overflow = new SlottedException("its slot would overflow");

        flush.perCounter().get(0).fail(overflow);
        flush.complete();

        assertThatThrownBy(a1::awaitDurable).isSameAs(overflow);
        assertThatThrownBy(a2::awaitDurable).isSameAs(overflow);
        b.awaitDurable();
    }

    @Test
    void fail_thenComplete_leavesEveryCallerFailedWithTheOneReason() {
        Pending a = Pending.awaited(A, 1, BucketClock.NONE);
        Pending b = Pending.awaited(B, 1, BucketClock.NONE);
        Flush flush = Flush.of(List.of(a, b)).get(0);
        SlottedException down = new SlottedException("the database is down");

        flush.fail(down);
        flush.complete();

        assertThatThrownBy(a::awaitDurable).isSameAs(down);
        assertThatThrownBy(b::awaitDurable).isSameAs(down);
    }
}
