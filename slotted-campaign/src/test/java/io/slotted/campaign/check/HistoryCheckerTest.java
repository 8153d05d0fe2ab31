package io.slotted.campaign.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.slotted.Limits;
import io.slotted.campaign.history.Counter;
import io.slotted.campaign.history.Kind;
import io.slotted.campaign.history.Operation;
import io.slotted.campaign.history.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The checker on histories written by hand, each with one thing wrong or nothing: it must find
 * every anomaly it is meant to find, and none in a history that is correct however its unknown
 * outcomes turned out.
 */
class HistoryCheckerTest {
    private static final Counter C = new Counter(1, 1);
    private static final Counter STOCK = new Counter(2, 1);

    private final List<Operation> history = new ArrayList<>();

    private Operation add(long delta, long invoked, long completed, Outcome outcome) {
        return record(Kind.ADD, C, delta, null, invoked, completed, outcome, Map.of(), null);
    }

    private Operation record(Kind kind, Counter counter, long delta, String key, long invoked, long completed,
            Outcome outcome, Map<Counter, Long> values, Boolean applied) {
        Operation operation = new Operation(history.size() + 1, "p1", kind, delta == 0 ? Map.of() : Map.of(counter,
                delta), key, invoked, completed, outcome, values, applied, null);
        history.add(operation);
        return operation;
    }

    private void read(long value, long invoked, long completed) {
        record(Kind.READ, C, 0, null, invoked, completed, Outcome.OK, Map.of(C, value), null);
    }

    private CheckReport check(long last) {
        return HistoryChecker.check(history, Map.of(C, last, STOCK, 0L), Map.of(STOCK, Limits.atLeast(0)));
    }

    private static List<Anomaly.Kind> kinds(CheckReport report) {
        return report.anomalies().stream().map(Anomaly::kind).toList();
    }

    @Test
    void aCorrectHistory_withUnknownOutcomesEitherWay_hasNoAnomaly() {
        add(10, 0, 5, Outcome.OK);
        add(200, 1, 9, Outcome.UNKNOWN);
        add(3_000, 2, 4, Outcome.FAILED);
        read(10, 6, 7);     // the unknown 200 not yet in
        read(210, 8, 12);   // now in
        add(40_000, 10, 11, Outcome.OK);

        assertThat(check(40_210).anomalies()).isEmpty();
        assertThat(check(40_010).anomalies()).as("the unknown one may also not have landed").isEmpty();
        assertThat(check(40_010).unknowns()).containsEntry(C, 1);
    }

    @Test
    void aReadMissingAnIncrementAcknowledgedBeforeItBegan_isOutOfBounds() {
        add(10, 0, 5, Outcome.OK);
        read(0, 6, 7);

        assertThat(kinds(check(10))).containsExactly(Anomaly.Kind.READ_OUT_OF_BOUNDS);
    }

    @Test
    void aReadWithAnIncrementInvokedOnlyAfterItEnded_isOutOfBounds() {
        read(10, 0, 1);
        add(10, 2, 3, Outcome.OK);

        assertThat(kinds(check(10))).containsExactly(Anomaly.Kind.READ_OUT_OF_BOUNDS);
    }

    @Test
    void anIncrementCountedTwice_isAFinalValueNoSubsetMakes() {
        add(10, 0, 1, Outcome.OK);
        add(200, 2, 3, Outcome.UNKNOWN);

        assertThat(kinds(check(20))).containsExactly(Anomaly.Kind.FINAL_VALUE);
        assertThat(kinds(check(410))).containsExactly(Anomaly.Kind.FINAL_VALUE);
        assertThat(check(20).anomalies().get(0).message()).contains("counted twice");
    }

    @Test
    void anAcknowledgedIncrementLost_isAFinalValueNoSubsetMakes() {
        add(10, 0, 1, Outcome.OK);
        add(200, 2, 3, Outcome.OK);

        assertThat(check(10).anomalies()).singleElement().satisfies(anomaly -> {
            assertThat(anomaly.kind()).isEqualTo(Anomaly.Kind.FINAL_VALUE);
            assertThat(anomaly.message()).contains("acknowledged increments were lost");
        });
    }

    @Test
    void anIncrementThatFailedButLanded_isCaught() {
        add(10, 0, 1, Outcome.FAILED);

        assertThat(kinds(check(10))).containsExactly(Anomaly.Kind.FINAL_VALUE);
    }

    @Test
    void anAddAndGet_mustSeeItsOwnIncrement() {
        add(10, 0, 1, Outcome.OK);
        record(Kind.ADD_AND_GET, C, 5, null, 2, 3, Outcome.OK, Map.of(C, 10L), null);

        assertThat(kinds(check(15))).containsExactly(Anomaly.Kind.READ_OUT_OF_BOUNDS);
    }

    @Test
    void aStockReadBelowZero_breaksItsLimit() {
        record(Kind.RESTOCK, STOCK, 5, null, 0, 1, Outcome.OK, Map.of(), null);
        record(Kind.SELL, STOCK, -3, null, 2, 3, Outcome.OK, Map.of(), null);
        record(Kind.SELL, STOCK, -3, null, 2, 3, Outcome.OK, Map.of(), null);
        record(Kind.READ, STOCK, 0, null, 4, 5, Outcome.OK, Map.of(STOCK, -1L), null);

        CheckReport report = HistoryChecker.check(history, Map.of(STOCK, -1L), Map.of(STOCK, Limits.atLeast(0)));
        assertThat(kinds(report)).as("the read, the moment after the second sale, and the final value")
                .containsExactly(Anomaly.Kind.LIMIT_BROKEN, Anomaly.Kind.LIMIT_BROKEN, Anomaly.Kind.LIMIT_BROKEN);
    }

    @Test
    void moreSoldThanStocked_isCaughtWithoutAReadAtThatMoment_andEvenIfRestockedAfter() {
        record(Kind.RESTOCK, STOCK, 5, null, 0, 1, Outcome.OK, Map.of(), null);
        record(Kind.SELL, STOCK, -3, null, 2, 3, Outcome.OK, Map.of(), null);
        record(Kind.SELL, STOCK, -3, null, 4, 5, Outcome.OK, Map.of(), null);
        record(Kind.RESTOCK, STOCK, 1, null, 6, 7, Outcome.OK, Map.of(), null);

        CheckReport report = HistoryChecker.check(history, Map.of(STOCK, 0L), Map.of(STOCK, Limits.atLeast(0)));
        assertThat(kinds(report)).containsExactly(Anomaly.Kind.LIMIT_BROKEN);
    }

    @Test
    void aSaleWhileARestockIsUnderWay_mayHaveComeAfterIt() {
        record(Kind.RESTOCK, STOCK, 5, null, 0, 10, Outcome.OK, Map.of(), null);
        record(Kind.SELL, STOCK, -3, null, 2, 3, Outcome.OK, Map.of(), null);

        CheckReport report = HistoryChecker.check(history, Map.of(STOCK, 2L), Map.of(STOCK, Limits.atLeast(0)));
        assertThat(report.anomalies()).isEmpty();
    }

    @Test
    void aKeyAppliedByTwoAttempts_isCaught_evenWhereTheSumsCannotTell() {
        record(Kind.ADD_KEYED, C, 10, "k", 0, 1, Outcome.OK, Map.of(), true);
        record(Kind.ADD_KEYED, C, 10, "k", 2, 3, Outcome.OK, Map.of(), true);

        assertThat(kinds(check(10))).containsExactly(Anomaly.Kind.KEY, Anomaly.Kind.KEY);
    }

    @Test
    void aKeyWhoseAttemptsAreOneIncrement_isCheckedOnce() {
        record(Kind.ADD_KEYED, C, 10, "k", 0, 1, Outcome.UNKNOWN, Map.of(), null);
        record(Kind.ADD_KEYED, C, 10, "k", 2, 3, Outcome.OK, Map.of(), false);
        record(Kind.ADD_KEYED, C, 10, "k", 4, 5, Outcome.OK, Map.of(), false);

        assertThat(check(10).anomalies()).isEmpty();
        assertThat(kinds(check(20))).as("applied twice").containsExactly(Anomaly.Kind.FINAL_VALUE);
    }

    @Test
    void aReplayAnsweringAppliedBefore_whenNothingCouldHaveApplied_isCaught() {
        record(Kind.ADD_KEYED, C, 10, "k", 0, 1, Outcome.FAILED, Map.of(), null);
        record(Kind.ADD_KEYED, C, 10, "k", 2, 3, Outcome.OK, Map.of(), false);

        assertThat(kinds(check(10))).containsExactly(Anomaly.Kind.KEY);
    }

    @Test
    void anOperationThatNeverAnswered_isAStall() {
        add(10, 0, Long.MAX_VALUE, Outcome.UNKNOWN);

        assertThat(kinds(check(10))).containsExactly(Anomaly.Kind.STALL);
    }

    private void set(long value, long invoked, long completed, Outcome outcome) {
        record(Kind.SET, C, value, null, invoked, completed, outcome, Map.of(), null);
    }

    @Test
    void aSet_replacesWhatWasAcknowledgedBefore_andCountsWhatCameAfter() {
        add(10, 0, 1, Outcome.OK);
        add(200, 2, 3, Outcome.UNKNOWN); // may land before the set or after it
        set(1_000, 4, 5, Outcome.OK);
        read(1_000, 6, 7);
        add(3_000, 8, 9, Outcome.OK);
        read(4_000, 10, 11);

        assertThat(check(4_000).anomalies()).isEmpty();
        assertThat(check(4_200).anomalies()).as("the unknown one landed after the set").isEmpty();
        assertThat(kinds(check(4_010))).as("the increment before the set was not replaced")
                .containsExactly(Anomaly.Kind.FINAL_VALUE);
        assertThat(kinds(check(1_000))).as("the increment after the set was lost")
                .containsExactly(Anomaly.Kind.FINAL_VALUE);
    }

    @Test
    void aReadAfterASet_thatStillHoldsWhatTheSetReplaced_isCaught() {
        add(10, 0, 1, Outcome.OK);
        set(1_000, 2, 3, Outcome.OK);
        read(1_010, 4, 5);

        assertThat(kinds(check(1_000))).containsExactly(Anomaly.Kind.READ_OUT_OF_BOUNDS);
    }

    @Test
    void aFailedSet_changesNothing_andOneOfUnknownOutcome_leavesWhatFollowsUnchecked() {
        add(10, 0, 1, Outcome.OK);
        set(1_000, 2, 3, Outcome.FAILED);
        read(10, 4, 5);
        set(5_000, 6, 7, Outcome.UNKNOWN);
        read(10, 8, 9);

        CheckReport report = check(10);
        assertThat(report.anomalies()).isEmpty();
        assertThat(report.unchecked()).as("the read and the final value after the unknown set").isEqualTo(2);
    }

    @Test
    void racingSets_leaveEitherValue_neverTheirSum() {
        add(10, 0, 1, Outcome.OK);
        set(1_000, 2, 6, Outcome.OK);
        set(2_000, 3, 5, Outcome.OK);   // overlaps the first: either may have come last
        read(1_000, 7, 8);
        add(5, 9, 10, Outcome.OK);

        assertThat(check(1_005).anomalies()).isEmpty();
        assertThat(check(2_005).anomalies()).isEmpty();
        assertThat(kinds(check(3_005))).as("the second set added its value to the first's")
                .containsExactly(Anomaly.Kind.FINAL_VALUE);
        read(3_005, 11, 12);
        assertThat(kinds(check(1_005))).containsExactly(Anomaly.Kind.READ_OUT_OF_BOUNDS);
    }

    @Test
    void aSetThatEndedBeforeTheNextBegan_isReplacedByIt() {
        set(1_000, 2, 3, Outcome.OK);
        set(2_000, 4, 5, Outcome.OK);

        assertThat(kinds(check(1_000))).containsExactly(Anomaly.Kind.FINAL_VALUE);
        assertThat(check(2_000).anomalies()).isEmpty();
    }

    @Test
    void aSetThatFailed_butTookEffect_isCaught() {
        add(10, 0, 1, Outcome.OK);
        set(1_000, 2, 3, Outcome.FAILED);
        read(1_000, 4, 5);

        assertThat(kinds(check(1_000))).containsExactly(Anomaly.Kind.READ_OUT_OF_BOUNDS, Anomaly.Kind.FINAL_VALUE);
    }

    @Test
    void subsetSums_findTheSubset_andFallBackToTheRangeWhenTooMany() {
        assertThat(SubsetSums.contains(List.of(3L, 5L, -7L), 1L)).isEqualTo(new SubsetSums.Answer(true, true));
        assertThat(SubsetSums.contains(List.of(3L, 5L, -7L), 2L)).isEqualTo(new SubsetSums.Answer(false, true));
        List<Long> many = new ArrayList<>();
        for (long i = 0; i < 40; i++) {
            many.add(1L << i);
        }
        assertThat(SubsetSums.contains(many, 12_345L)).isEqualTo(new SubsetSums.Answer(true, false));
    }

    private static final long MS = 1_000_000L;

    private void expire(long at, long invoked, long completed, Outcome outcome, boolean set) {
        record(Kind.EXPIRE, C, at, null, invoked, completed, outcome, Map.of(), outcome == Outcome.OK ? set : null);
    }

    @Test
    void anExpiry_clearsTheCounterAtItsMoment_andAnIncrementRacingItMayCountOnEitherSide() {
        add(10, 0, MS, Outcome.OK);
        expire(1_000 * MS, 2 * MS, 3 * MS, Outcome.OK, true);
        read(10, 4 * MS, 5 * MS);
        add(200, 990 * MS, 1_010 * MS, Outcome.OK); // under way as the counter expires
        read(0, 1_200 * MS, 1_201 * MS);            // expired, and nothing after it yet
        add(3_000, 1_300 * MS, 1_301 * MS, Outcome.OK);
        read(3_000, 1_400 * MS, 1_401 * MS);

        assertThat(check(3_000).anomalies()).as("the racing increment counted before the expiry").isEmpty();
        assertThat(check(3_200).anomalies()).as("or after it").isEmpty();
        assertThat(kinds(check(3_010))).as("what came before the expiry counted after it")
                .containsExactly(Anomaly.Kind.FINAL_VALUE);
        assertThat(kinds(check(0))).as("an increment after the expiry was lost")
                .containsExactly(Anomaly.Kind.FINAL_VALUE);
    }

    @Test
    void aReadAfterAnExpiry_thatStillSeesWhatCameBefore_isOutOfBounds() {
        add(10, 0, MS, Outcome.OK);
        expire(1_000 * MS, 2 * MS, 3 * MS, Outcome.OK, true);
        read(10, 1_200 * MS, 1_201 * MS);

        assertThat(kinds(check(0))).containsExactly(Anomaly.Kind.READ_OUT_OF_BOUNDS);
    }

    @Test
    void anExpiryThatWasNotSet_changesNothing_andOneOfUnknownOutcome_leavesTheValueUnchecked() {
        add(10, 0, MS, Outcome.OK);
        expire(1_000 * MS, 2 * MS, 3 * MS, Outcome.OK, false);
        read(10, 1_200 * MS, 1_201 * MS);
        assertThat(check(10).anomalies()).as("the counter already had an expiry, or read 0").isEmpty();

        expire(3_000 * MS, 4 * MS, 5 * MS, Outcome.UNKNOWN, false);
        read(10, 3_200 * MS, 3_201 * MS);
        CheckReport unknown = check(10);
        assertThat(unknown.anomalies()).isEmpty();
        assertThat(check(0).anomalies()).as("it may have expired").isEmpty();
    }
}
