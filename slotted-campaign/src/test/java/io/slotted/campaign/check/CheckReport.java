package io.slotted.campaign.check;

import io.slotted.campaign.history.Counter;
import java.util.List;
import java.util.Map;

/**
 * What checking a history found.
 *
 * @param operations how many operations it held
 * @param anomalies every rule broken; none in a correct run
 * @param unknowns each counter's increments whose outcome stayed unknown
 * @param inexactFinals counters with so many unknown outcomes that only the range of their
 *     subsets was checked
 * @param unchecked reads and final values that could not be checked, coming after a set whose
 *     outcome is unknown
 */
public record CheckReport(int operations, List<Anomaly> anomalies, Map<Counter, Integer> unknowns, int inexactFinals,
        int unchecked) {
    /** Whether no rule was broken. */
    public boolean valid() {
        return anomalies.isEmpty();
    }

    /** This report with {@code more} anomalies, found outside the history. */
    public CheckReport plus(List<Anomaly> more) {
        List<Anomaly> all = new java.util.ArrayList<>(anomalies);
        all.addAll(more);
        return new CheckReport(operations, List.copyOf(all), unknowns, inexactFinals, unchecked);
    }
}
