package io.slotted.campaign.check;

import io.slotted.campaign.history.Operation;
import io.slotted.campaign.history.Outcome;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The rules of idempotency keys, over every attempt with one key: at most one attempt answers
 * that it applied the increment; none answers so after another attempt was acknowledged; and a
 * replay that answers "applied before" has an attempt that could have applied it.
 */
final class KeyChecker {
    private KeyChecker() {
    }

    static List<Anomaly> check(List<Operation> operations) {
        Map<String, List<Operation>> byKey = new LinkedHashMap<>();
        operations.stream().filter(o -> o.key() != null)
                .forEach(o -> byKey.computeIfAbsent(o.key(), k -> new ArrayList<>()).add(o));
        List<Anomaly> anomalies = new ArrayList<>();
        byKey.forEach((key, attempts) -> checkKey(key, attempts, anomalies));
        return anomalies;
    }

    private static void checkKey(String key, List<Operation> attempts, List<Anomaly> anomalies) {
        List<Operation> appliedNow = attempts.stream().filter(a -> Boolean.TRUE.equals(a.applied())).toList();
        List<Long> ids = attempts.stream().map(Operation::id).toList();
        if (appliedNow.size() > 1) {
            anomalies.add(new Anomaly(Anomaly.Kind.KEY, null, "key " + key + " was applied by " + appliedNow.size()
                    + " attempts: " + appliedNow, ids));
        }
        for (Operation applied : appliedNow) {
            attempts.stream().filter(a -> a.outcome() == Outcome.OK && a.completed() < applied.invoked()).findFirst()
                    .ifPresent(earlier -> anomalies.add(new Anomaly(Anomaly.Kind.KEY, null, "key " + key
                            + " was applied by " + applied + " after " + earlier + " had been acknowledged", ids)));
        }
        boolean replayed = attempts.stream().anyMatch(a -> Boolean.FALSE.equals(a.applied()));
        boolean couldHaveApplied = attempts.stream().anyMatch(a -> a.outcome() == Outcome.UNKNOWN
                || Boolean.TRUE.equals(a.applied()));
        if (replayed && !couldHaveApplied) {
            anomalies.add(new Anomaly(Anomaly.Kind.KEY, null, "key " + key + " was answered as applied before, but"
                    + " no attempt could have applied it: " + attempts, ids));
        }
    }
}
