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
 * <p>Sets that overlap in time (the workload races two on one counter now and then) cut the
 * history once: either may have been the last, so the piece after them starts from one of their
 * values, never from their sum. A set that surely failed changes nothing. Pieces that start only
 * from sets whose outcome is unknown leave the value unknown until the next acknowledged set:
 * reads in between, and a final value after them, are not checked, and the report counts them.
 */
final class Segments {
    /**
     * One piece of a counter's history.
     *
     * @param bases the values it may start from: 0, or the value set, or, after sets that raced,
     *     each of their values
     * @param known false after sets whose outcome is unknown: nothing in it can be checked
     * @param increments the increments that may count in it
     * @param reads the reads made in it
     */
    record Segment(List<Long> bases, boolean known, List<CounterHistory.Increment> increments,
            List<CounterHistory.Read> reads) {
    }

    /** Sets that overlap in time, in the order they were invoked. */
    private record Race(List<CounterHistory.SetTo> sets) {
        long invoked() {
            return sets.get(0).invoked();
        }

        long completed() {
            return sets.stream().mapToLong(CounterHistory.SetTo::completed).max().orElseThrow();
        }

        List<Long> values() {
            return sets.stream().map(CounterHistory.SetTo::value).distinct().toList();
        }

        boolean acknowledged() {
            return sets.stream().anyMatch(set -> set.outcome() == Outcome.OK);
        }
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
        List<Race> sets = races(counter.sets().stream().filter(set -> set.outcome() != Outcome.FAILED)
                .sorted(Comparator.comparingLong(CounterHistory.SetTo::invoked)).toList());
        List<Segment> segments = new ArrayList<>();
        long until = sets.isEmpty() ? Long.MAX_VALUE : sets.get(0).invoked();
        List<CounterHistory.Read> reads = counter.reads().stream()
                .sorted(Comparator.comparingLong(CounterHistory.Read::invoked)).toList();
        long[] readsInvoked = reads.stream().mapToLong(CounterHistory.Read::invoked).toArray();
        segments.add(new Segment(List.of(0L), true, counter.increments(), readsBetween(reads, readsInvoked,
                Long.MIN_VALUE, until)));
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
            Race set = sets.get(i);
            long next = i + 1 < sets.size() ? sets.get(i + 1).invoked() : Long.MAX_VALUE;
            List<CounterHistory.Increment> counted = new ArrayList<>(applied.subList(firstAfter(appliedAt,
                    set.invoked()), firstAfter(appliedAt, next - 1)));
            counted.addAll(unknown);
            segments.add(new Segment(set.values(), set.acknowledged(), counted,
                    readsBetween(reads, readsInvoked, set.completed(), next)));
        }
        return segments;
    }

    /** Sets sorted by invocation, each joined to the one before it when they overlap in time. */
    private static List<Race> races(List<CounterHistory.SetTo> sets) {
        List<Race> races = new ArrayList<>();
        List<CounterHistory.SetTo> racing = new ArrayList<>();
        long racingUntil = Long.MIN_VALUE;
        for (CounterHistory.SetTo set : sets) {
            if (!racing.isEmpty() && set.invoked() > racingUntil) {
                races.add(new Race(List.copyOf(racing)));
                racing.clear();
            }
            racing.add(set);
            racingUntil = Math.max(racingUntil, set.completed());
        }
        if (!racing.isEmpty()) {
            races.add(new Race(List.copyOf(racing)));
        }
        return races;
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
