package io.slotted.campaign.check;

import io.slotted.campaign.history.Counter;
import io.slotted.campaign.history.Kind;
import io.slotted.campaign.history.Operation;
import io.slotted.campaign.history.Outcome;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One counter's part of a history: its increments, each an operation or, for an idempotency key,
 * all the attempts with that key taken as one increment, its reads, each a read or an
 * increment that answered the total right after itself, and its sets.
 */
final class CounterHistory {
    /**
     * One increment of the counter.
     *
     * @param delta what it adds
     * @param invoked when its first attempt was invoked
     * @param surelyInAt when an attempt first answered that it was applied; never if none did
     * @param possiblyApplied whether any attempt may have applied it
     * @param applied whether an attempt answered that it was applied
     * @param operations its attempts
     */
    record Increment(long delta, long invoked, long surelyInAt, boolean possiblyApplied, boolean applied,
            List<Long> operations) {
        boolean unknown() {
            return possiblyApplied && !applied;
        }
    }

    /**
     * One answer with the counter's total.
     *
     * @param operation the operation that answered it
     * @param value the total
     * @param invoked when the operation was invoked
     * @param completed when it answered
     * @param own what the operation itself added, surely in the total; 0 for a read
     */
    record Read(long operation, long value, long invoked, long completed, long own) {
    }

    /**
     * A set of the counter to an exact value.
     *
     * @param operation the operation that set it
     * @param value the value
     * @param invoked when it was invoked
     * @param completed when it answered
     * @param outcome what its caller learned
     */
    record SetTo(long operation, long value, long invoked, long completed, Outcome outcome) {
    }

    /**
     * An expiry given to the counter.
     *
     * @param operation the operation that gave it
     * @param at when the counter expires, in the history's nanoseconds
     * @param outcome what its caller learned
     * @param set for an acknowledged one, whether it set the expiry
     */
    record Expiry(long operation, long at, Outcome outcome, boolean set) {
    }

    /**
     * How far either side of an expiry's moment the checker takes an operation as racing it: the
     * processes decide by the wall clock, the history by another, read a millisecond apart.
     */
    static final long EXPIRY_MARGIN_NANOS = 100_000_000L;

    private final Counter counter;
    private final List<Increment> increments = new ArrayList<>();
    private final List<Expiry> expiries = new ArrayList<>();
    private final List<Read> reads = new ArrayList<>();
    private final List<SetTo> sets = new ArrayList<>();

    private CounterHistory(Counter counter) {
        this.counter = counter;
    }

    /** Each counter's part of the operations. */
    static Map<Counter, CounterHistory> of(List<Operation> operations) {
        Map<Counter, CounterHistory> counters = new LinkedHashMap<>();
        Map<Counter, Map<String, List<Operation>>> keyed = new LinkedHashMap<>();
        for (Operation operation : operations) {
            for (Map.Entry<Counter, Long> delta : operation.deltas().entrySet()) {
                CounterHistory history = counters.computeIfAbsent(delta.getKey(), CounterHistory::new);
                if (operation.kind() == Kind.EXPIRE) {
                    history.expiries.add(new Expiry(operation.id(), delta.getValue(), operation.outcome(),
                            Boolean.TRUE.equals(operation.applied())));
                } else if (operation.kind() == Kind.SET) {
                    history.sets.add(new SetTo(operation.id(), delta.getValue(), operation.invoked(),
                            operation.completed(), operation.outcome()));
                } else if (operation.key() == null) {
                    history.increments.add(increment(delta.getValue(), List.of(operation)));
                } else {
                    keyed.computeIfAbsent(delta.getKey(), c -> new LinkedHashMap<>())
                            .computeIfAbsent(operation.key(), k -> new ArrayList<>()).add(operation);
                }
            }
            for (Map.Entry<Counter, Long> value : operation.values().entrySet()) {
                long own = operation.deltas().getOrDefault(value.getKey(), 0L);
                counters.computeIfAbsent(value.getKey(), CounterHistory::new).reads.add(new Read(operation.id(),
                        value.getValue(), operation.invoked(), operation.completed(), own));
            }
        }
        keyed.forEach((counter, byKey) -> byKey.values().forEach(attempts -> counters.get(counter).increments
                .add(increment(attempts.get(0).deltas().get(counter), attempts))));
        counters.values().forEach(CounterHistory::expiriesAsSets);
        return counters;
    }

    /**
     * Each moment the counter expired, as a set to 0 spanning the margin around it: surely, when
     * an acknowledged expiry set it (nothing takes an expiry away before it passes), possibly,
     * when one whose outcome is unknown may have. An increment under way across such a moment
     * may count on either side of it, so it is taken as of unknown outcome: possible everywhere
     * after it began, needed nowhere. Reads across it are left out by the cut ({@link Segments}).
     */
    private void expiriesAsSets() {
        if (expiries.isEmpty()) {
            return;
        }
        Map<Long, List<Expiry>> byMoment = new java.util.TreeMap<>();
        expiries.forEach(expiry -> byMoment.computeIfAbsent(expiry.at(), at -> new ArrayList<>()).add(expiry));
        List<long[]> moments = new ArrayList<>();
        byMoment.forEach((at, given) -> {
            boolean surely = given.stream().anyMatch(e -> e.outcome() == Outcome.OK && e.set());
            boolean possibly = given.stream().anyMatch(e -> e.outcome() == Outcome.UNKNOWN);
            if (surely || possibly) {
                sets.add(new SetTo(given.get(0).operation(), 0, at - EXPIRY_MARGIN_NANOS, at + EXPIRY_MARGIN_NANOS,
                        surely ? Outcome.OK : Outcome.UNKNOWN));
                moments.add(new long[] {at - EXPIRY_MARGIN_NANOS, at + EXPIRY_MARGIN_NANOS});
            }
        });
        increments.replaceAll(increment -> increment.applied() && moments.stream().anyMatch(moment ->
                increment.invoked() <= moment[1] && increment.surelyInAt() >= moment[0])
                ? new Increment(increment.delta(), increment.invoked(), Long.MAX_VALUE, true, false,
                        increment.operations())
                : increment);
    }

    /** Attempts with one key, or one operation without a key, as one increment. */
    private static Increment increment(long delta, List<Operation> attempts) {
        long invoked = Long.MAX_VALUE;
        long surelyInAt = Long.MAX_VALUE;
        boolean possibly = false;
        List<Long> ids = new ArrayList<>();
        for (Operation attempt : attempts) {
            invoked = Math.min(invoked, attempt.invoked());
            if (attempt.outcome() == Outcome.OK) {
                surelyInAt = Math.min(surelyInAt, attempt.completed());
            }
            possibly |= attempt.outcome() != Outcome.FAILED;
            ids.add(attempt.id());
        }
        return new Increment(delta, invoked, surelyInAt, possibly, surelyInAt != Long.MAX_VALUE, ids);
    }

    Counter counter() {
        return counter;
    }

    List<Increment> increments() {
        return increments;
    }

    List<Read> reads() {
        return reads;
    }

    /** Its sets, in the order they were invoked. */
    List<SetTo> sets() {
        return sets;
    }
}
