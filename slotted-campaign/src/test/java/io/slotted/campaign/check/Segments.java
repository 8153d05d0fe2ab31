package io.slotted.campaign.check;

import io.slotted.campaign.history.Outcome;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A counter's history cut at each set, so that each piece is checked as a counter of its own
 * starting from the value set. The workload sets a counter only while no other operation on it is
 * under way, so every acknowledged increment is surely before a set (replaced by it) or surely
 * after it (counted on top). An increment whose outcome stayed unknown may have landed at any
 * time, before a set or after it, so it stays possible in every later piece.
 *
 * <p>A set that surely failed changes nothing. One whose outcome is unknown leaves the value
 * unknown until the next acknowledged set: reads in between, and a final value after it, are not
 * checked, and the report counts them.
 */
final class Segments {
    /**
     * One piece of a counter's history.
     *
     * @param base the value it starts from: 0, or the value set
     * @param known false after a set whose outcome is unknown: nothing in it can be checked
     * @param increments the increments that may count in it
     * @param reads the reads made in it
     */
    record Segment(long base, boolean known, List<CounterHistory.Increment> increments,
            List<CounterHistory.Read> reads) {
    }

    private Segments() {
    }

    /**
     * The pieces of a counter's history, the last one holding its final value. Each piece takes
     * the increments acknowledged from its set until the next set began, and every increment of
     * unknown outcome; found by binary search in increments and reads sorted once, so that an
     * hour's history of thousands of sets is cut in linear time.
     */
    static List<Segment> of(CounterHistory counter) {
        List<CounterHistory.SetTo> sets = counter.sets().stream().filter(set -> set.outcome() != Outcome.FAILED)
                .sorted(Comparator.comparingLong(CounterHistory.SetTo::invoked)).toList();
        List<Segment> segments = new ArrayList<>();
        long until = sets.isEmpty() ? Long.MAX_VALUE : sets.get(0).invoked();
        List<CounterHistory.Read> reads = counter.reads().stream()
                .sorted(Comparator.comparingLong(CounterHistory.Read::invoked)).toList();
        long[] readsInvoked = reads.stream().mapToLong(CounterHistory.Read::invoked).toArray();
        segments.add(new Segment(0, true, counter.increments(), readsBetween(reads, readsInvoked, Long.MIN_VALUE,
                until)));
        if (sets.isEmpty()) {
            return segments;
        }
        List<CounterHistory.Increment> applied = counter.increments().stream()
                .filter(CounterHistory.Increment::applied)
                .sorted(Comparator.comparingLong(CounterHistory.Increment::surelyInAt)).toList();
        long[] appliedAt = applied.stream().mapToLong(CounterHistory.Increment::surelyInAt).toArray();
        List<CounterHistory.Increment> unknown = counter.increments().stream()
                .filter(CounterHistory.Increment::unknown).toList();
        for (int i = 0; i < sets.size(); i++) {
            CounterHistory.SetTo set = sets.get(i);
            long next = i + 1 < sets.size() ? sets.get(i + 1).invoked() : Long.MAX_VALUE;
            List<CounterHistory.Increment> counted = new ArrayList<>(applied.subList(firstAfter(appliedAt,
                    set.invoked()), firstAfter(appliedAt, next - 1)));
            counted.addAll(unknown);
            segments.add(new Segment(set.value(), set.outcome() == Outcome.OK, counted,
                    readsBetween(reads, readsInvoked, set.completed(), next)));
        }
        return segments;
    }

    /** The reads that began after {@code from} and ended before {@code until}. */
    private static List<CounterHistory.Read> readsBetween(List<CounterHistory.Read> reads, long[] invoked, long from,
            long until) {
        return reads.subList(firstAfter(invoked, from), firstAfter(invoked, until - 1)).stream()
                .filter(read -> read.completed() < until).toList();
    }

    /** The index of the first time strictly after {@code time} in sorted {@code times}. */
    private static int firstAfter(long[] times, long time) {
        int low = 0;
        int high = times.length;
        while (low < high) {
            int middle = (low + high) >>> 1;
            if (times[middle] <= time) {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        return low;
    }
}
