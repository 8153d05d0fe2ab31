package io.slotted;

import java.util.List;

/**
 * What {@link CounterAdmin#recount} found when it compared a counter type with a source of
 * truth.
 *
 * @param recordType the counter type
 * @param checked counters compared: every id the source returned and every counter with a
 *     non-zero total
 * @param differing counters whose total differed from the source
 * @param fixed counters repaired (0 unless asked to fix)
 * @param unsettled differing counters not repaired because their difference changed between the
 *     two readings a fix makes, a sign of increments in flight; run the recount again
 * @param largest the largest differences, largest first (at most ten)
 */
public record RecountReport(int recordType, long checked, long differing, long fixed,
        long unsettled, List<Difference> largest) {

    /** Copies the differences. */
    public RecountReport {
        largest = List.copyOf(largest);
    }

    /**
     * One counter that differs from the source of truth.
     *
     * @param recordId the counter's id
     * @param expected what the source says
     * @param actual what the counter held
     */
    public record Difference(long recordId, long expected, long actual) {
        /**
         * How far the counter is off.
         *
         * @return {@code expected - actual}
         */
        public long difference() {
            return expected - actual;
        }
    }
}
