package io.slotted.internal.group.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.slotted.ContentionException;
import io.slotted.CounterOverflowException;
import io.slotted.DatabaseUnavailableException;
import io.slotted.OutcomeUnknownException;
import io.slotted.SlottedException;
import io.slotted.TestConfigs;
import io.slotted.internal.dialect.Failure;
import io.slotted.internal.sql.TableName;
import io.slotted.internal.write.StatsRecorder;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * When a flush is tried again, and what each attempt is told: before a COMMIT was cut off the
 * retry policy's attempts apply; after, every attempt must resolve the lost one, until the outcome
 * is learned or the resolution time has passed. The attempts here are scripted, and the ticker is
 * the test's, so no database and no waiting is needed.
 */
class FlushAttemptsTest {
    private static final Duration RESOLUTION = Duration.ofMinutes(1);
    private static final SQLException LOST = new SQLException("connection reset", "08006");
    private static final SQLException DEADLOCK = new SQLException("deadlock", "40001");

    private final AtomicLong nanos = new AtomicLong();
    private final StatsRecorder stats = new StatsRecorder();
    private final FlushAttempts attempts = new FlushAttempts(TableName.parse("counters"),
            TestConfigs.of(b -> b.maxAttempts(3).retryBackoff(Duration.ZERO)
                    .outcomeResolutionTimeout(RESOLUTION).ticker(nanos::get)), stats);

    /** Plays one scripted attempt per call, and notes what each was told. */
    private final class Script implements FlushAttempts.Try<String> {
        private final Deque<FlushAttempts.Attempt<String>> results = new ArrayDeque<>();
        private final List<Boolean> told = new ArrayList<>();
        private Duration passingEach = Duration.ZERO;

        Script then(FlushAttempts.Attempt<String> result) {
            results.add(result);
            return this;
        }

        Script thenFailing(SQLException failure, Failure kind, boolean commitSent) {
            return then(FlushAttempts.Attempt.failed(failure, kind, commitSent));
        }

        Script thenCommitting() {
            return then(FlushAttempts.Attempt.committed("written"));
        }

        /** Each attempt takes this long, by the test's ticker. */
        Script taking(Duration each) {
            passingEach = each;
            return this;
        }

        @Override
        public FlushAttempts.Attempt<String> run(boolean outcomeUnknown) {
            told.add(outcomeUnknown);
            nanos.addAndGet(passingEach.toNanos());
            return results.remove();
        }
    }

    @Test
    void aFirstAttemptThatCommits_isTheOnlyOne() {
        Script script = new Script().thenCommitting();

        assertThat(attempts.untilCommitted("add 1", script)).isEqualTo("written");
        assertThat(script.told).containsExactly(false);
        assertThat(stats.snapshot().retries()).isZero();
    }

    @Test
    void failuresBeforeTheCommitWasSent_areRetriedAsFirstTries_withinTheAttempts() {
        Script script = new Script().thenFailing(DEADLOCK, Failure.CONTENTION, false)
                .thenFailing(LOST, Failure.CONNECTION, false).thenCommitting();

        assertThat(attempts.untilCommitted("add 1", script)).isEqualTo("written");
        assertThat(script.told).containsExactly(false, false, false);
        assertThat(stats.snapshot().retries()).isEqualTo(2);
        assertThat(stats.snapshot().outcomesUnknown()).isZero();
    }

    @Test
    void failuresBeforeTheCommitWasSent_pastTheAttempts_failSayingHowManyWereMade() {
        Script script = new Script().thenFailing(DEADLOCK, Failure.CONTENTION, false)
                .thenFailing(DEADLOCK, Failure.CONTENTION, false).thenFailing(DEADLOCK, Failure.CONTENTION, false);

        assertThatThrownBy(() -> attempts.untilCommitted("add 1 to counter x", script))
                .isInstanceOf(ContentionException.class)
                .hasMessageStartingWith("add 1 to counter x in table counters failed")
                .hasMessageContaining("gave up after 3 attempts, nothing was applied");
        assertThat(script.told).hasSize(3);
    }

    @Test
    void aConnectionLostBeforeTheCommitWasSent_pastTheAttempts_isUnavailableNotUnknown() {
        Script script = new Script().thenFailing(LOST, Failure.CONNECTION, false)
                .thenFailing(LOST, Failure.CONNECTION, false).thenFailing(LOST, Failure.CONNECTION, false);

        assertThatThrownBy(() -> attempts.untilCommitted("add 1", script))
                .isInstanceOf(DatabaseUnavailableException.class);
        assertThat(script.told).containsOnly(false);
        assertThat(stats.snapshot().outcomesUnknown()).isZero();
    }

    @Test
    void aConnectionLostAfterTheCommitWasSent_tellsEveryLaterAttempt_pastTheAttemptsAllowedBefore() {
        Script script = new Script().thenFailing(LOST, Failure.CONNECTION, true)
                .thenFailing(LOST, Failure.CONNECTION, false).thenFailing(DEADLOCK, Failure.CONTENTION, false)
                .thenFailing(LOST, Failure.CONNECTION, true).thenCommitting();

        assertThat(attempts.untilCommitted("add 1", script)).isEqualTo("written");
        assertThat(script.told).as("the flag never goes back").containsExactly(false, true, true, true, true);
        assertThat(stats.snapshot().outcomesUnknown()).as("one lost commit, counted once").isEqualTo(1);
    }

    @Test
    void aServerThatRefusedTheCommit_leftNothingBehind_soTheNextAttemptIsAFirstTry() {
        Script script = new Script().thenFailing(DEADLOCK, Failure.CONTENTION, true).thenCommitting();

        attempts.untilCommitted("add 1", script);

        assertThat(script.told).containsExactly(false, false);
        assertThat(stats.snapshot().outcomesUnknown()).isZero();
    }

    @Test
    void anOutcomeStillUnknownWhenTheResolutionTimeHasPassed_failsAsUnknown_sayingSo() {
        Script script = new Script().taking(RESOLUTION.dividedBy(2))
                .thenFailing(LOST, Failure.CONNECTION, true)
                .thenFailing(LOST, Failure.CONNECTION, false)
                .thenFailing(LOST, Failure.CONNECTION, false);

        assertThatThrownBy(() -> attempts.untilCommitted("add 1", script))
                .isInstanceOf(OutcomeUnknownException.class)
                .hasMessageContaining("the connection was lost during COMMIT and the outcome could not be"
                        + " learned within 60000ms (3 attempts)")
                .hasCause(LOST);
        assertThat(script.told).containsExactly(false, true, true);
    }

    @Test
    void aFailureNeverRetried_metWhileLearningALostCommitsOutcome_failsAsUnknown_notAsNothingApplied() {
        SQLException odd = new SQLException("something odd", "HY000");
        Script script = new Script().thenFailing(LOST, Failure.CONNECTION, true)
                .thenFailing(odd, Failure.OTHER, false);

        assertThatThrownBy(() -> attempts.untilCommitted("add 1", script))
                .isInstanceOf(OutcomeUnknownException.class)
                .hasMessageContaining("learning the outcome then failed after 2 attempts")
                .hasMessageContaining("something odd")
                .hasMessageContaining("may or may not have been applied")
                .hasCause(odd);
        assertThat(script.told).containsExactly(false, true);
    }

    @Test
    void aFailureThatIsNeverRetried_endsTheFlushAtOnce() {
        SQLException odd = new SQLException("something else", "HY000");
        Script script = new Script().thenFailing(odd, Failure.OTHER, false);

        assertThatThrownBy(() -> attempts.untilCommitted("add 1", script))
                .isExactlyInstanceOf(SlottedException.class).hasCause(odd);
        assertThat(script.told).hasSize(1);
    }

    @Test
    void anOverflow_isThrownForTheFlushToBeSplit_carryingWhatItsCallerIsTold() {
        SQLException range = new SQLException("out of range", "22003");
        Script script = new Script().thenFailing(range, Failure.OVERFLOW, false);

        assertThatThrownBy(() -> attempts.untilCommitted("add 1", script))
                .isInstanceOfSatisfying(FlushAttempts.Overflow.class, overflow -> assertThat(overflow.reported())
                        .isInstanceOf(CounterOverflowException.class).hasCause(range));
        assertThat(script.told).hasSize(1);
    }
}
