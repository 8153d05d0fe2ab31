package io.slotted.campaign.check;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Whether a number is the sum of some subset of the deltas whose outcome stayed unknown
 * (Maelstrom's final check of a counter). The deltas of a campaign are drawn distinct and large, so a
 * double count or a lost increment rarely hides as another subset. The sums are enumerated while
 * there are at most {@link #MAX_SUMS} of them, which covers the few dozen unknown outcomes of a
 * run; past that only the range of all subsets is checked, and the answer says so.
 */
final class SubsetSums {
    static final int MAX_SUMS = 1 << 21;

    /** The answer: whether the target can be reached, and whether that was checked exactly. */
    record Answer(boolean reachable, boolean exact) {
    }

    private SubsetSums() {
    }

    static Answer contains(List<Long> deltas, long target) {
        Set<Long> sums = new HashSet<>();
        sums.add(0L);
        for (long delta : deltas) {
            Set<Long> next = new HashSet<>(sums);
            for (long sum : sums) {
                next.add(sum + delta);
            }
            if (next.size() > MAX_SUMS) {
                return new Answer(withinRange(deltas, target), false);
            }
            sums = next;
        }
        return new Answer(sums.contains(target), true);
    }

    private static boolean withinRange(List<Long> deltas, long target) {
        long low = deltas.stream().filter(d -> d < 0).mapToLong(Long::longValue).sum();
        long high = deltas.stream().filter(d -> d > 0).mapToLong(Long::longValue).sum();
        return target >= low && target <= high;
    }
}
