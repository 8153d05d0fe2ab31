package io.slotted.internal.group;

import io.slotted.LimitExceededException;
import io.slotted.SlottedException;
import io.slotted.internal.sql.CounterKey;
import io.slotted.internal.write.Deltas;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeSet;

/**
 * The increments one transaction writes: the callers' increments summed per counter, in counter
 * order.
 *
 * <p>Increments of a type that keeps time buckets are also summed per bucket, by when each was
 * accepted. Summing is what makes group commit pay: a thousand increments of one hot counter become one
 * row update. Rows are kept sorted so that every flusher, in every process, locks rows in the same
 * order, and two flushes can never deadlock on each other.
 */
final class Flush {
    private final List<Pending> pending = new ArrayList<>();
    private final Deltas deltas = new Deltas();
    /**
     * The increments its limits refused, as decided by the attempt that committed, or by the
     * latest attempt to decide while none has yet.
     */
    private final Map<Pending, LimitExceededException> refused = new IdentityHashMap<>();
    /** The window's count right after each applied increment of a windowed type, as decided. */
    private final Map<Pending, Long> windowCounts = new IdentityHashMap<>();

    /**
     * Groups increments into as few flushes as possible. A counter's in-flush sum must be what one
     * slot row may take at once ({@code SlotRange.MAX_DELTA} either way); an increment that would
     * take it further goes to another flush rather than being refused, since its own slot write
     * may well fit.
     */
    static List<Flush> of(List<Pending> increments) {
        List<Flush> flushes = new ArrayList<>();
        for (Pending increment : increments) {
            placeIn(flushes, increment);
        }
        return flushes;
    }

    private static void placeIn(List<Flush> flushes, Pending increment) {
        for (Flush flush : flushes) {
            if (flush.tryAdd(increment)) {
                return;
            }
        }
        Flush fresh = new Flush();
        fresh.tryAdd(increment);
        flushes.add(fresh);
    }

    private boolean tryAdd(Pending increment) {
        if (!deltas.tryAdd(increment.key(), increment.bucketStart(), increment.delta())) {
            return false;
        }
        pending.add(increment);
        return true;
    }

    /** Per counter, in counter order; a sum may be 0 when increments cancelled out. */
    NavigableMap<CounterKey, Long> sums() {
        return deltas.counters();
    }

    /** Per counter and, for types that keep them, per time bucket. */
    Deltas deltas() {
        return deltas;
    }

    List<Pending> pending() {
        return pending;
    }

    /** Each increment's counter, in the increments' order, as {@code BoundedCounters} takes them. */
    static List<CounterKey> keysOf(List<Pending> increments) {
        return increments.stream().map(Pending::key).toList();
    }

    /** Each increment's amount, in the increments' order, as {@code BoundedCounters} takes them. */
    static List<Long> deltasOf(List<Pending> increments) {
        return increments.stream().map(Pending::delta).toList();
    }

    /**
     * Each increment's time bucket, the start of its window for a windowed type, in the
     * increments' order, as {@code BoundedCounters} takes them.
     */
    static List<Long> windowsOf(List<Pending> increments) {
        return increments.stream().map(Pending::bucketStart).toList();
    }

    /**
     * The increments that carry an idempotency key, in key order: every transaction records keys
     * in the same order, so two flushes holding some of the same keys cannot deadlock.
     */
    List<Pending> keyed() {
        return pending.stream().filter(p -> p.idempotencyKey() != null)
                .sorted(Comparator.comparing(Pending::idempotencyKey)).toList();
    }

    /** Forgets what an earlier attempt decided, before this attempt decides again. */
    void clearRefusals() {
        refused.clear();
        windowCounts.clear();
    }

    /** Records the count of an applied increment's window right after it, which its caller is answered. */
    void countInWindow(Pending increment, long count) {
        windowCounts.put(increment, count);
    }

    /** Records that the limits refuse an increment. */
    void refuse(Pending increment, LimitExceededException reason) {
        refused.put(increment, reason);
    }

    /**
     * Tells the callers whose increments the limits refused, once the flush committed without
     * them.
     *
     * @return the refusals, by increment
     */
    Map<Pending, LimitExceededException> deliverRefusals() {
        refused.forEach(Pending::fail);
        return refused;
    }

    /** Whether any of its callers wants the counter's total after the commit. */
    boolean wantsTotals() {
        for (Pending increment : pending) {
            if (increment.wantsTotal()) {
                return true;
            }
        }
        return false;
    }

    /** The counters whose totals its callers want. */
    Set<CounterKey> wantedTotals() {
        Set<CounterKey> wanted = new TreeSet<>();
        pending.stream().filter(Pending::wantsTotal).forEach(p -> wanted.add(p.key()));
        return wanted;
    }

    /**
     * Gives the callers that want them their counters' totals, before they are completed: each
     * increment the total right after it, as if the flush's increments of a counter had been
     * applied one after another in the order they came — the counter's total after the flush less
     * what the increments after it added — so that no two callers of one flush are told the same
     * total, as no two Redis {@code INCR}s are. (Flushes of one counter from other flushers may
     * commit at the same time and learn overlapping totals, but for a counter whose writes take a
     * lock, such as an expiring one's.) An increment of a windowed type is answered its window's count
     * right after it. A counter missing from {@code totals} is one whose total could not be read:
     * its callers were already failed, saying that their increments were applied.
     */
    void answer(Map<CounterKey, Long> totals) {
        Map<CounterKey, Long> after = new HashMap<>(totals);
        for (int i = pending.size() - 1; i >= 0; i--) {
            Pending increment = pending.get(i);
            if (windowCounts.containsKey(increment)) {
                if (increment.wantsTotal()) {
                    increment.total(windowCounts.get(increment));
                }
                continue;
            }
            Long total = after.get(increment.key());
            if (total == null) {
                continue;
            }
            if (increment.wantsTotal()) {
                increment.total(total);
            }
            if (applied(increment)) {
                after.put(increment.key(), total - increment.delta());
            }
        }
    }

    /**
     * Whether the flush applied an increment, once its refusals and keys' verdicts are delivered:
     * one the limits refused or whose key conflicted has failed, and a replay applied nothing now.
     */
    private static boolean applied(Pending increment) {
        return !increment.done() && !increment.replayed();
    }

    /** One flush per counter, for isolating a counter whose slot overflows. */
    List<Flush> perCounter() {
        List<Flush> parts = new ArrayList<>();
        for (CounterKey key : sums().keySet()) {
            Flush part = new Flush();
            pending.stream().filter(p -> p.key().equals(key)).forEach(part::tryAdd);
            parts.add(part);
        }
        return parts;
    }

    /** One flush per increment, for finding which of a counter's increments still fit. */
    List<Flush> perIncrement() {
        List<Flush> parts = new ArrayList<>();
        for (Pending increment : pending) {
            Flush part = new Flush();
            part.tryAdd(increment);
            parts.add(part);
        }
        return parts;
    }

    /**
     * Tells the waiting callers that their increments are durable. A caller already failed (its
     * key conflicted, its slot would overflow) keeps its exception: a future completes only once.
     */
    void complete() {
        pending.forEach(Pending::complete);
    }

    /** Tells the waiting callers why their increments were not written. */
    void fail(SlottedException reason) {
        pending.forEach(p -> p.fail(reason));
    }

    int counters() {
        return sums().size();
    }

    /** What the flush does, for messages: {@code add 5 to counter (…) (3 increments grouped)}. */
    String describe() {
        Map.Entry<CounterKey, Long> first = sums().firstEntry();
        if (counters() == 1) {
            return "add " + first.getValue() + " to counter " + first.getKey() + " ("
                    + increments() + " increments grouped)";
        }
        return "write " + increments() + " increments to " + counters()
                + " counters (the first " + first.getKey() + ")";
    }

    int increments() {
        return pending.size();
    }
}
