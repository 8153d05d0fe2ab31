package io.slotted.internal.group;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.slotted.OutcomeUnknownException;
import io.slotted.SlottedException;
import io.slotted.internal.bucket.BucketClock;
import io.slotted.internal.sql.CounterKey;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * How a caller learns its increment's outcome: set once, whoever comes second; a parked caller
 * woken by the flusher; a total or a replay set before the outcome that publishes it.
 */
class PendingTest {
    private static final CounterKey KEY = new CounterKey(1, 2L);

    // An awaited increment's caller reads the outcome itself: a future would keep its first
    // outcome whatever Pending did, so these use the calling thread's own increments.

    @Test
    void complete_thenFail_staysDurable() {
        Pending increment = Pending.awaited(KEY, 5, BucketClock.NONE);

        increment.complete();
        increment.fail(new SlottedException("too late"));

        increment.awaitDurable();
    }

    @Test
    void fail_thenComplete_keepsTheFailure() {
        Pending increment = Pending.awaited(KEY, 5, BucketClock.NONE);
        SlottedException conflict = new SlottedException("its key was used for another increment");

        increment.fail(conflict);
        increment.complete();

        assertThatThrownBy(increment::awaitDurable).isSameAs(conflict);
    }

    @Test
    void fail_twice_keepsTheFirstReason() {
        Pending increment = Pending.awaited(KEY, 5, BucketClock.NONE);
        SlottedException first = new SlottedException("first");

        increment.fail(first);
        increment.fail(new SlottedException("second"));

        assertThatThrownBy(increment::awaitDurable).isSameAs(first);
    }

    @Test
    void asyncWithTotal_completesWithTheTotalSetBeforeIt() {
        Pending increment = Pending.asyncWithTotal(KEY, 5, BucketClock.NONE);

        increment.total(Long.MIN_VALUE);
        increment.complete();

        assertThat(increment.future()).isCompletedWithValue(Long.MIN_VALUE);
    }

    @Test
    void async_withoutATotal_completesWithNull_whateverTotalWasSet() {
        Pending increment = Pending.async(KEY, 5, BucketClock.NONE);

        increment.total(99);
        increment.complete();

        assertThat(increment.future()).isCompletedWithValue(null);
    }

    @Test
    void released_hasNobodyToTell_andTakesAnOutcomeLikeAnyOther() {
        Pending released = Pending.released(KEY, 5, BucketClock.NONE);

        released.fail(new SlottedException("dropped"));
        released.complete();

        assertThat(released.callerReleased()).isTrue();
        assertThat(released.future()).isNull();
        assertThat(Pending.async(KEY, 5, BucketClock.NONE).callerReleased()).isFalse();
        assertThat(Pending.awaited(KEY, 5, BucketClock.NONE).callerReleased()).isFalse();
        assertThat(Pending.keyed(KEY, 5, BucketClock.NONE, "k").callerReleased()).isFalse();
    }

    @Test
    void awaitDurable_ofAnIncrementFailedOtherwise_wrapsTheReasonSayingWhatFailed() {
        Pending increment = Pending.awaited(KEY, 5, BucketClock.NONE);
        IllegalStateException closed = new IllegalStateException("closed");
        increment.fail(closed);

        assertThatThrownBy(increment::awaitDurable).isExactlyInstanceOf(SlottedException.class)
                .hasMessage("add 5 to counter (record_type=1, record_id=2) failed").hasCause(closed);
    }

    @Test
    void awaitDurable_interrupted_isAnUnknownOutcome_andKeepsTheInterrupt() throws Exception {
        OnItsOwnThread<Boolean> caller = OnItsOwnThread.start(() -> {
            Pending increment = Pending.awaited(KEY, 5, BucketClock.NONE);
            Thread.currentThread().interrupt();
            assertThatThrownBy(increment::awaitDurable).isInstanceOf(OutcomeUnknownException.class)
                    .hasMessage("interrupted while waiting for the commit of add 5 to counter"
                            + " (record_type=1, record_id=2); the increment may still be applied");
            return Thread.currentThread().isInterrupted();
        });

        assertThat(caller.get()).as("the interrupt flag, kept").isTrue();
    }

    @Test
    void awaitTotal_parksUntilAnotherThreadCompletesIt_thenAnswersTheTotal() throws Exception {
        CompletableFuture<Pending> made = new CompletableFuture<>();
        OnItsOwnThread<Long> caller = OnItsOwnThread.start(() -> {
            Pending increment = Pending.awaitedWithTotal(KEY, 5, BucketClock.NONE);
            made.complete(increment);
            return increment.awaitTotal();
        });
        Pending increment = made.get();
        caller.awaitParkedOn(on -> on == increment);

        increment.total(12);
        increment.complete();

        assertThat(caller.get()).isEqualTo(12);
    }
}
