package io.slotted.campaign.check;

import io.slotted.Limits;
import io.slotted.campaign.history.Counter;
import io.slotted.campaign.history.Operation;
import io.slotted.campaign.history.Outcome;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks a whole history of counter operations, as Jepsen checks counters and Maelstrom its
 * final values, and the rules Slotted adds:
 * <ul>
 *   <li>every total answered lies between the increments acknowledged before the read began and
 *       those invoked before it ended ({@link ReadBounds}), counted from the value last set
 *       ({@link Segments});</li>
 *   <li>each counter's final value is its acknowledged sum plus some subset of the deltas whose
 *       outcome stayed unknown ({@link SubsetSums}): exactly the acknowledged sum if none did;</li>
 *   <li>no total answered, and no final value, lies outside its type's limits: a stock never
 *       below 0, so never more sold than stocked;</li>
 *   <li>each idempotency key is applied at most once, exactly once if any attempt was
 *       acknowledged, and a replay answers what the original did ({@link KeyChecker});</li>
 *   <li>every operation answered: none waits for ever on a stalled database.</li>
 * </ul>
 */
public final class HistoryChecker {
    private HistoryChecker() {
    }

    /**
     * @param operations the history
     * @param finals each counter's value read once every fault was healed and every operation had
     *     answered
     * @param limits the limits of each counter that has them
     * @return what was found wrong, and how much of the history stayed unknown
     */
    public static CheckReport check(List<Operation> operations, Map<Counter, Long> finals, Map<Counter, Limits> limits) {
        List<Anomaly> anomalies = new ArrayList<>();
        Map<Counter, Integer> unknowns = new LinkedHashMap<>();
        int inexact = 0;
        int unchecked = 0;
        for (CounterHistory counter : CounterHistory.of(operations).values()) {
            List<Segments.Segment> segments = Segments.of(counter);
            int checkedReads = 0;
            for (Segments.Segment segment : segments) {
                if (segment.known()) {
                    checkReads(counter.counter(), segment, anomalies);
                    checkedReads += segment.reads().size();
                }
            }
            unchecked += counter.reads().size() - checkedReads;
            Long last = finals.get(counter.counter());
            Segments.Segment lastSegment = segments.get(segments.size() - 1);
            if (last == null) {
                anomalies.add(new Anomaly(Anomaly.Kind.FINAL_VALUE, counter.counter(), "no final value was read",
                        List.of()));
            } else if (!lastSegment.known()) {
                unchecked++;
            } else if (!checkFinal(counter.counter(), lastSegment, last, anomalies)) {
                inexact++;
            }
            checkLimits(counter, last, limits.get(counter.counter()), anomalies);
            unknowns.put(counter.counter(), (int) counter.increments().stream()
                    .filter(CounterHistory.Increment::unknown).count());
        }
        anomalies.addAll(KeyChecker.check(operations));
        operations.stream().filter(Operation::stalled).forEach(stalled -> anomalies.add(new Anomaly(
                Anomaly.Kind.STALL, null, "operation " + stalled + " never answered", List.of(stalled.id()))));
        return new CheckReport(operations.size(), anomalies, unknowns, inexact, unchecked);
    }

    private static void checkReads(Counter counter, Segments.Segment segment, List<Anomaly> anomalies) {
        ReadBounds bounds = new ReadBounds(segment.increments());
        for (CounterHistory.Read read : segment.reads()) {
            long low = bounds.low(read);
            long high = bounds.high(read);
            if (segment.bases().stream().noneMatch(base -> read.value() >= base + low && read.value() <= base + high)) {
                long nearest = nearest(segment.bases(), read.value() - low);
                anomalies.add(new Anomaly(Anomaly.Kind.READ_OUT_OF_BOUNDS, counter, "operation #"
                        + read.operation() + " read " + read.value() + ", outside [" + (nearest + low) + ", "
                        + (nearest + high) + "]" + from(segment) + ": " + (read.value() < nearest + low
                                ? "an acknowledged increment is missing"
                                : "more than every increment invoked was counted"), List.of(read.operation())));
            }
        }
    }

    /** The base closest to a value. */
    private static long nearest(List<Long> bases, long value) {
        return bases.stream().min(Comparator.comparingLong(base -> Math.abs(value - base))).orElseThrow();
    }

    /** Which values set a segment starts from, when it starts from more than one. */
    private static String from(Segments.Segment segment) {
        return segment.bases().size() == 1 ? "" : " (from whichever of the racing sets " + segment.bases()
                + " came last)";
    }

    /** @return whether the check was exact, rather than only the range of the unknown deltas */
    private static boolean checkFinal(Counter counter, Segments.Segment segment, long last, List<Anomaly> anomalies) {
        long acknowledged = 0;
        List<Long> unknown = new ArrayList<>();
        for (CounterHistory.Increment increment : segment.increments()) {
            if (increment.applied()) {
                acknowledged += increment.delta();
            } else if (increment.unknown()) {
                unknown.add(increment.delta());
            }
        }
        SubsetSums.Answer answer = null;
        for (long base : segment.bases()) {
            answer = SubsetSums.contains(unknown, last - base - acknowledged);
            if (answer.reachable()) {
                return answer.exact();
            }
        }
        long base = nearest(segment.bases(), last - acknowledged);
        long sum = base + acknowledged;
        anomalies.add(new Anomaly(Anomaly.Kind.FINAL_VALUE, counter, "final value " + last
                + " is the acknowledged sum " + sum + (base == 0 && segment.bases().size() == 1 ? ""
                        : " (from the value " + base + " last set)") + from(segment) + (last > sum ? " + " : " - ")
                + Math.abs(last - sum) + ", which no subset of the " + unknown.size()
                + " unknown deltas " + abbreviated(unknown) + " makes: "
                + (last < sum ? "acknowledged increments were lost" : "increments were counted twice,"
                        + " or counted though they failed"), List.of()));
        return answer.exact();
    }

    private static void checkLimits(CounterHistory counter, Long last, Limits limits, List<Anomaly> anomalies) {
        if (limits == null) {
            return;
        }
        for (CounterHistory.Read read : counter.reads()) {
            if (read.value() < limits.min() || read.value() > limits.max()) {
                anomalies.add(new Anomaly(Anomaly.Kind.LIMIT_BROKEN, counter.counter(), "operation #" + read.operation()
                        + " read " + read.value() + ", outside the limits " + limits, List.of(read.operation())));
            }
        }
        checkTimeline(counter, limits, anomalies);
        if (last != null && (last < limits.min() || last > limits.max())) {
            anomalies.add(new Anomaly(Anomaly.Kind.LIMIT_BROKEN, counter.counter(), "final value " + last
                    + " is outside the limits " + limits + ": more was sold than stocked, or charged than a window"
                    + " allows", List.of()));
        }
    }

    /**
     * Sold never more than stocked: right after each acknowledged increment, the most the total
     * can be — every increase invoked by then, less every decrease acknowledged by then — must
     * not be below the lower limit, and the least it can be not above the upper one. A read need
     * not come at the moment a total went outside the limits for this to show it.
     */
    private static void checkTimeline(CounterHistory counter, Limits limits, List<Anomaly> anomalies) {
        ReadBounds bounds = new ReadBounds(counter.increments());
        for (CounterHistory.Increment increment : counter.increments()) {
            if (!increment.applied()) {
                continue;
            }
            long moment = increment.surelyInAt();
            CounterHistory.Read at = new CounterHistory.Read(increment.operations().get(0), 0, moment + 1, moment, 0);
            long high = bounds.high(at);
            long low = bounds.low(at);
            if (high < limits.min() || low > limits.max()) {
                anomalies.add(new Anomaly(Anomaly.Kind.LIMIT_BROKEN, counter.counter(), "right after operation #"
                        + increment.operations().get(0) + " was acknowledged the total was within [" + low + ", "
                        + high + "], outside the limits " + limits + ": more was sold than stocked, or charged than"
                        + " a window allows",
                        increment.operations()));
                return;
            }
        }
    }

    private static String abbreviated(List<Long> values) {
        return values.size() <= 12 ? values.toString() : values.subList(0, 12) + "…";
    }

    /** How many operations of each outcome a history has. */
    public static Map<Outcome, Long> outcomes(List<Operation> operations) {
        Map<Outcome, Long> counts = new LinkedHashMap<>();
        operations.forEach(operation -> counts.merge(operation.outcome(), 1L, Long::sum));
        return counts;
    }
}
