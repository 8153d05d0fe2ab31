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
 */
public record CheckReport(int operations, List<Anomaly> anomalies, Map<Counter, Integer> unknowns, int inexactFinals) {
    /** Whether no rule was broken. */
    public boolean valid() {
        return anomalies.isEmpty();
    }
}
