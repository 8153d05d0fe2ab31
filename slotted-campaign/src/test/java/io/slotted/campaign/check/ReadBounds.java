package io.slotted.campaign.check;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Jepsen's bounds for a read of a counter, for increments of either sign: the total a read
 * answers holds every increment acknowledged before the read began, may hold any increment
 * invoked before it ended and not known to have failed, and holds nothing else. So it lies
 * between the surely-in increments plus every possible negative one, and the surely-in ones plus
 * every possible positive one. Sums by time are kept as prefix sums, so that each read is checked
 * in logarithmic time however long the history.
 */
final class ReadBounds {
    private final long[] surelyInTimes;
    private final long[] surelyInPositive;
    private final long[] surelyInNegative;
    private final long[] possibleTimes;
    private final long[] possiblePositive;
    private final long[] possibleNegative;

    ReadBounds(List<CounterHistory.Increment> increments) {
        List<CounterHistory.Increment> surely = increments.stream().filter(CounterHistory.Increment::applied)
                .sorted(Comparator.comparingLong(CounterHistory.Increment::surelyInAt)).toList();
        List<CounterHistory.Increment> possible = increments.stream()
                .filter(CounterHistory.Increment::possiblyApplied)
                .sorted(Comparator.comparingLong(CounterHistory.Increment::invoked)).toList();
        surelyInTimes = surely.stream().mapToLong(CounterHistory.Increment::surelyInAt).toArray();
        surelyInPositive = prefixSums(surely, true);
        surelyInNegative = prefixSums(surely, false);
        possibleTimes = possible.stream().mapToLong(CounterHistory.Increment::invoked).toArray();
        possiblePositive = prefixSums(possible, true);
        possibleNegative = prefixSums(possible, false);
    }

    /** The least total a read may answer. */
    long low(CounterHistory.Read read) {
        return sumBefore(surelyInTimes, surelyInPositive, read.invoked())
                + sumBefore(possibleTimes, possibleNegative, read.completed()) + Math.max(read.own(), 0);
    }

    /** The greatest total a read may answer. */
    long high(CounterHistory.Read read) {
        return sumBefore(possibleTimes, possiblePositive, read.completed())
                + sumBefore(surelyInTimes, surelyInNegative, read.invoked()) + Math.min(read.own(), 0);
    }

    /** The sum of the parts whose time is strictly before {@code time}. */
    private static long sumBefore(long[] times, long[] sums, long time) {
        int index = Arrays.binarySearch(times, time);
        if (index < 0) {
            index = -index - 1;
        } else {
            while (index > 0 && times[index - 1] == time) {
                index--;
            }
        }
        return sums[index];
    }

    private static long[] prefixSums(List<CounterHistory.Increment> increments, boolean positive) {
        long[] sums = new long[increments.size() + 1];
        for (int i = 0; i < increments.size(); i++) {
            long delta = increments.get(i).delta();
            sums[i + 1] = sums[i] + ((delta > 0) == positive ? delta : 0);
        }
        return sums;
    }
}
