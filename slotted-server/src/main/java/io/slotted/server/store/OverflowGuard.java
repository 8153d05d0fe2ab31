package io.slotted.server.store;

import io.slotted.CounterOverflowException;
import io.slotted.Increment;
import io.slotted.OutcomeUnknownException;
import io.slotted.SlottedCounters;
import io.slotted.WriteMode;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * Refuses increments that could take a counter's total out of the signed 64-bit range, before
 * anything is written, exactly, however many writes are in flight at once.
 *
 * <p>The database checks each slot: it refuses a slot value that leaves its {@code BIGINT} column.
 * A total, though, is a sum over slots and could pass {@link Long#MAX_VALUE} while every slot stays
 * in range; reads would then fail. So the guard keeps, per counter, what this process knows of the
 * total: an interval {@code [low, high]} that holds it whatever the outcome of the writes this
 * guard let through, and the sums of the writes still in flight, upwards and downwards. A write is
 * let through only if the total stays in range in the worst case — every write in flight upwards
 * landing with it, or every one downwards — and is then counted as in flight until its future
 * settles: applied moves the interval, not applied drops it, an unknown outcome widens the
 * interval by it. Concurrent increments therefore never carry the total past the range, and a
 * counter at the edge can always be brought back by a subtraction, which only moves it inwards.
 *
 * <p>A counter is read once, when the guard first meets it, and again only before a refusal, in
 * case the total moved since (another process subtracted): the fresh sum may or may not include
 * the writes in flight, so it is widened by them. The guard sees what this process writes; two
 * processes near the edge of one counter can still pass it together, which the database then
 * reports on read and a subtraction repairs. In {@code BUFFERED} mode an accepted increment counts
 * as applied although its flush is still to come, so no fresh read is trusted over what is known.
 * The {@value #REMEMBERED} most recently used counters are remembered; one with writes in flight is
 * never forgotten.
 */
public final class OverflowGuard {
    static final int REMEMBERED = 100_000;
    private static final BigInteger MIN = BigInteger.valueOf(Long.MIN_VALUE);
    private static final BigInteger MAX = BigInteger.valueOf(Long.MAX_VALUE);

    private final SlottedCounters counters;
    private final boolean rereadAllowed;
    /** Reads of one counter before a refusal stands, when writes keep settling meanwhile. */
    private static final int MAX_READS = 3;

    private final Map<Counter, Known> known = new LinkedHashMap<>(1024, 0.75f, true);
    /** How many counters were forgotten so far: a read that spans a forgetting is not trusted. */
    private long forgotten;

    /**
     * Creates the guard for the counters a service writes through.
     *
     * @param counters where totals are read
     */
    public OverflowGuard(SlottedCounters counters) {
        this.counters = counters;
        this.rereadAllowed = counters.config().writeMode() != WriteMode.BUFFERED;
    }

    /**
     * Runs {@code write} if the increments cannot carry any counter's total past the signed 64-bit
     * range, whatever the outcome of every write this guard has in flight. The reservation is
     * settled when the write's future completes: with true, applied; with false, applied nothing
     * (an idempotency key showed a replay); with {@link OutcomeUnknownException}, maybe applied;
     * with anything else, not applied. If {@code write.get()} throws, the reservation is settled
     * the same way and the exception rethrown. Blocking: it may read totals first.
     *
     * @param increments the write's increments, all or nothing
     * @param write starts the write; its future says whether the increments were applied
     * @return the write's future, completed once the reservation is settled
     * @throws CounterOverflowException at once if a counter could leave the range; nothing was
     *     written
     */
    public CompletableFuture<Boolean> write(List<Increment> increments,
            Supplier<CompletableFuture<Boolean>> write) {
        Map<Counter, BigInteger> sums = sums(increments);
        reserve(sums);
        CompletableFuture<Boolean> started;
        try {
            started = write.get();
        } catch (RuntimeException e) {
            settle(sums, Outcome.of(null, e));
            throw e;
        }
        return started.whenComplete((applied, failure) -> settle(sums, Outcome.of(applied, failure)));
    }

    /** The batch's sum per counter, in the order first seen; exact, so a sum never wraps. */
    private static Map<Counter, BigInteger> sums(List<Increment> increments) {
        Map<Counter, BigInteger> sums = new LinkedHashMap<>();
        for (Increment increment : increments) {
            sums.merge(new Counter(increment.recordType(), increment.recordId()),
                    BigInteger.valueOf(increment.delta()), BigInteger::add);
        }
        return sums;
    }

    /** Reserves every counter's sum, or none: a refusal releases what was already reserved. */
    private void reserve(Map<Counter, BigInteger> sums) {
        List<Counter> reserved = new ArrayList<>();
        try {
            for (Map.Entry<Counter, BigInteger> sum : sums.entrySet()) {
                reserve(sum.getKey(), sum.getValue());
                reserved.add(sum.getKey());
            }
        } catch (RuntimeException e) {
            reserved.forEach(counter -> release(counter, sums.get(counter), Outcome.NOT_APPLIED));
            throw e;
        }
    }

    /**
     * Reserves one counter's delta, reading its total when nothing is known of it or when what
     * is known would refuse it. A sum read while another write settled, or while counters were
     * forgotten, may miss that write, so it is thrown away and read again, a few times at most.
     */
    private void reserve(Counter counter, BigInteger delta) {
        for (int pass = 1; ; pass++) {
            Known before;
            long settledBefore;
            long forgottenBefore;
            synchronized (this) {
                before = known.get(counter);
                if (before != null && before.tryReserve(delta)) {
                    return;
                }
                if (before != null && (!rereadAllowed || pass > MAX_READS)) {
                    throw refusal(counter, delta, before);
                }
                settledBefore = before == null ? 0 : before.settled;
                forgottenBefore = forgotten;
            }
            BigInteger total = readTotal(counter);
            synchronized (this) {
                Known now = known.get(counter);
                boolean unchanged = now == before && forgotten == forgottenBefore
                        && (now == null || now.settled == settledBefore);
                if (unchanged) {
                    Known state = now == null ? remember(counter, total) : now.reread(total);
                    if (state.tryReserve(delta)) {
                        return;
                    }
                    throw refusal(counter, delta, state);
                }
            }
        }
    }

    private Known remember(Counter counter, BigInteger total) {
        Known state = new Known(total);
        known.put(counter, state);
        forgetIdleBeyondLimit();
        return state;
    }

    private BigInteger readTotal(Counter counter) {
        try {
            return BigInteger.valueOf(counters.get(counter.recordType(), counter.recordId()));
        } catch (CounterOverflowException e) {
            if (e.total() == null) {
                throw e;
            }
            return e.total();
        }
    }

    private void settle(Map<Counter, BigInteger> sums, Outcome outcome) {
        sums.forEach((counter, delta) -> release(counter, delta, outcome));
    }

    private synchronized void release(Counter counter, BigInteger delta, Outcome outcome) {
        known.get(counter).settle(delta, outcome);
    }

    /** Forgets the least recently used counters past the limit, skipping any with writes in flight. */
    private void forgetIdleBeyondLimit() {
        Iterator<Known> eldest = known.values().iterator();
        while (known.size() > REMEMBERED && eldest.hasNext()) {
            if (eldest.next().idle()) {
                eldest.remove();
                forgotten++;
            }
        }
    }

    private static CounterOverflowException refusal(Counter counter, BigInteger delta, Known state) {
        return new CounterOverflowException("counter " + counter + " " + state.describe()
                + "; adding " + delta + " could take its total out of the signed 64-bit range");
    }

    /** How a settled write ended, as far as the total is concerned. */
    private enum Outcome {
        APPLIED, NOT_APPLIED, MAYBE_APPLIED;

        static Outcome of(Boolean applied, Throwable failure) {
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            if (cause == null) {
                return Boolean.TRUE.equals(applied) ? APPLIED : NOT_APPLIED;
            }
            return cause instanceof OutcomeUnknownException ? MAYBE_APPLIED : NOT_APPLIED;
        }
    }

    /** A counter, as the guard keys it. */
    private record Counter(int recordType, long recordId) {
        @Override
        public String toString() {
            return "(record_type=" + recordType + ", record_id=" + recordId + ")";
        }
    }

    /**
     * What is known of one counter's total: it lies in {@code [low, high]} once every write in
     * flight has settled as not applied; {@code up} and {@code down} are the sums of the writes in
     * flight upwards and downwards. Guarded by the enclosing guard's lock.
     */
    private static final class Known {
        private BigInteger low;
        private BigInteger high;
        private BigInteger up = BigInteger.ZERO;
        private BigInteger down = BigInteger.ZERO;
        private int inFlight;
        private long settled;

        Known(BigInteger total) {
            this.low = total;
            this.high = total;
        }

        /** Reserves {@code delta} if the total stays in range however the writes in flight end. */
        boolean tryReserve(BigInteger delta) {
            boolean fits = delta.signum() >= 0
                    ? high.add(up).add(delta).compareTo(MAX) <= 0
                    : low.add(down).add(delta).compareTo(MIN) >= 0;
            if (fits) {
                if (delta.signum() >= 0) {
                    up = up.add(delta);
                } else {
                    down = down.add(delta);
                }
                inFlight++;
            }
            return fits;
        }

        void settle(BigInteger delta, Outcome outcome) {
            if (delta.signum() >= 0) {
                up = up.subtract(delta);
            } else {
                down = down.subtract(delta);
            }
            inFlight--;
            settled++;
            if (outcome == Outcome.APPLIED || (outcome == Outcome.MAYBE_APPLIED && delta.signum() < 0)) {
                low = low.add(delta);
            }
            if (outcome == Outcome.APPLIED || (outcome == Outcome.MAYBE_APPLIED && delta.signum() > 0)) {
                high = high.add(delta);
            }
        }

        /**
         * A fresh sum, read while writes were in flight: it holds some of them, so the total
         * without them lies between the sum less every one upwards and less every one downwards.
         */
        Known reread(BigInteger total) {
            low = total.subtract(up);
            high = total.subtract(down);
            return this;
        }

        boolean idle() {
            return inFlight == 0;
        }

        String describe() {
            String at = low.equals(high) ? "is at " + low : "is between " + low + " and " + high;
            return inFlight == 0 ? at : at + " with " + inFlight + " writes in flight";
        }
    }
}
