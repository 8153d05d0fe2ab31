package io.slotted.server.store;

import io.slotted.CounterOverflowException;
import io.slotted.Increment;
import io.slotted.OutcomeUnknownException;
import io.slotted.SlottedCounters;
import io.slotted.WriteMode;
import java.math.BigInteger;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
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
 *
 * <p>A set ({@link #set}) replaces the total: increments committed before it are gone, those
 * committed after it count on top. A set first waits (up to a second) for the writes let through
 * before it began to settle: they were checked against the old total only, and could otherwise
 * land on top of a count near the edge. While it is in flight the total is either the old one or the
 * new count, so the interval covers both and nothing is reread (a read could see either). A write
 * whose flight overlapped a set may have committed on either side of it, so it settles as maybe
 * applied, and the guard sums what such writes may have added. When a set lands with no other set
 * of the counter beside it, the interval becomes the new count plus those sums: later increments
 * are checked against the new total. A set that failed, or ran beside another, leaves the
 * interval covering every possible total, and a refusal rereads it as usual. In {@code BUFFERED}
 * mode an increment accepted before a set but flushed after it also lands on top of it, which the
 * guard cannot see: there the total check after a set is exact only once earlier increments have
 * been flushed.
 */
public final class OverflowGuard {
    static final int REMEMBERED = 100_000;
    /** How long a set waits for the writes let through before it to settle. */
    static final Duration SET_WAITS_FOR_EARLIER_WRITES = Duration.ofSeconds(1);
    private static final BigInteger MIN = BigInteger.valueOf(Long.MIN_VALUE);
    private static final BigInteger MAX = BigInteger.valueOf(Long.MAX_VALUE);

    private final TotalReader reader;
    private final boolean rereadAllowed;
    /** Reads of one counter before a refusal stands, when writes keep settling meanwhile. */
    private static final int MAX_READS = 3;

    private final Map<Counter, Known> known = new LinkedHashMap<>(1024, 0.75f, true);
    /** How many counters were forgotten so far: a read that spans a forgetting is not trusted. */
    private long forgotten;

    /**
     * Creates the guard for the counters a service writes through, reading totals on the calling
     * thread.
     *
     * @param counters where totals are read
     */
    public OverflowGuard(SlottedCounters counters) {
        this(counters, (recordType, recordId) -> {
            try {
                return CompletableFuture.completedFuture(counters.get(recordType, recordId));
            } catch (RuntimeException e) {
                return CompletableFuture.failedFuture(e);
            }
        });
    }

    /**
     * Creates the guard for the counters a service writes through, reading totals through
     * {@code reader}, such as {@link CoalescedReads#read}, so that {@link #writeAsync} never
     * blocks.
     *
     * @param counters the counters written through, for their write mode
     * @param reader reads one counter's total
     */
    public OverflowGuard(SlottedCounters counters, TotalReader reader) {
        this.reader = reader;
        this.rereadAllowed = counters.config().writeMode() != WriteMode.BUFFERED;
    }

    /** Reads one counter's total, now or later. */
    @FunctionalInterface
    public interface TotalReader {
        /**
         * Reads a total.
         *
         * @param recordType what is counted
         * @param recordId whose count it is
         * @return the total, or the read's failure: {@link CounterOverflowException} with the
         *     total when it is out of range
         */
        CompletableFuture<Long> read(int recordType, long recordId);
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
        List<Reservation> reserved = await(reserve(sums(increments)));
        CompletableFuture<Boolean> started;
        try {
            started = write.get();
        } catch (RuntimeException e) {
            settle(reserved, Outcome.of(null, e));
            throw e;
        }
        return started.whenComplete((applied, failure) -> settle(reserved, Outcome.of(applied, failure)));
    }

    /**
     * Does what {@link #write} does without blocking: totals the guard must read first are read
     * through the reader, and {@code write} is started by whichever thread completes the last of
     * them (the caller's, when the guard knows every counter already). A refusal, or what
     * {@code write.get()} threw, fails the returned future instead of being thrown.
     *
     * @param increments the write's increments, all or nothing
     * @param write starts the write; its future says whether the increments were applied
     * @return the write's future, completed once the reservation is settled; failed with
     *     {@link CounterOverflowException} if a counter could leave the range, and nothing was
     *     written
     */
    public CompletableFuture<Boolean> writeAsync(List<Increment> increments,
            Supplier<CompletableFuture<Boolean>> write) {
        return reserve(sums(increments)).thenCompose(reserved -> {
            CompletableFuture<Boolean> started;
            try {
                started = write.get();
            } catch (RuntimeException e) {
                settle(reserved, Outcome.of(null, e));
                return CompletableFuture.failedFuture(e);
            }
            return started.whenComplete((applied, failure) -> settle(reserved, Outcome.of(applied, failure)));
        });
    }

    /** The future's value, or what it failed with, rethrown as it was. */
    private static <T> T await(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            throw e;
        }
    }

    /**
     * Runs {@code write}, which sets a counter to {@code count}, and then checks later increments of
     * the counter against the new total. Never refused: a set is how a counter out of range is
     * brought back. The set is settled as applied when {@code write} returns, as maybe applied if it
     * throws {@link OutcomeUnknownException} (or an {@link Error}), and as not applied if it throws
     * anything else. Blocking: it reads the counter's total first when the guard does not know it.
     *
     * @param recordType what is counted
     * @param recordId whose count it is
     * @param count the new total
     * @param write sets the counter, blocking until the set is durable
     * @throws RuntimeException what {@code write} threw, once the set is settled; or what reading
     *     the total threw, before anything was written
     */
    public void set(int recordType, long recordId, long count, Runnable write) {
        Counter counter = new Counter(recordType, recordId);
        BigInteger value = BigInteger.valueOf(count);
        long begun = await(claim(counter, state -> state.beginSet(value), state -> new IllegalStateException(
                "a set is never refused, but " + counter + " " + state.describe()), 1));
        Outcome outcome = Outcome.MAYBE_APPLIED;
        try {
            awaitWritesBefore(counter, begun);
            write.run();
            outcome = Outcome.APPLIED;
        } catch (RuntimeException e) {
            outcome = Outcome.of(null, e);
            throw e;
        } finally {
            endSet(counter, value, begun, outcome);
        }
    }

    /**
     * Waits, up to {@link #SET_WAITS_FOR_EARLIER_WRITES}, until every write the guard let through
     * before a set began has settled. Such a write was checked against the total before the set,
     * not against the set's count, and could land on top of a count near the edge and carry the
     * total past the range; a write let through since was checked against both. Writes settle once
     * their flush commits or fails, in milliseconds; one that takes longer still settles as maybe
     * applied, as before.
     */
    private synchronized void awaitWritesBefore(Counter counter, long begun) {
        long deadline = System.nanoTime() + SET_WAITS_FOR_EARLIER_WRITES.toNanos();
        boolean interrupted = false;
        for (long left = SET_WAITS_FOR_EARLIER_WRITES.toMillis();
                left > 0 && known.get(counter).writesInFlightBefore(begun);
                left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())) {
            try {
                wait(left);
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private synchronized void endSet(Counter counter, BigInteger count, long begun, Outcome outcome) {
        known.get(counter).endSet(count, begun, outcome);
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
    private CompletableFuture<List<Reservation>> reserve(Map<Counter, BigInteger> sums) {
        List<Reservation> reserved = new ArrayList<>(sums.size());
        CompletableFuture<Void> chain = CompletableFuture.completedFuture(null);
        for (Map.Entry<Counter, BigInteger> sum : sums.entrySet()) {
            chain = chain.thenCompose(done -> reserve(sum.getKey(), sum.getValue()))
                    .thenAccept(reserved::add);
        }
        return chain.handle((done, failure) -> {
            if (failure != null) {
                settle(reserved, Outcome.NOT_APPLIED);
                throw failure instanceof CompletionException wrapped ? wrapped
                        : new CompletionException(failure);
            }
            return reserved;
        });
    }

    private CompletableFuture<Reservation> reserve(Counter counter, BigInteger delta) {
        return claim(counter, state -> state.tryReserve(delta)
                        ? new Reservation(counter, delta, state.setEvents()) : null,
                state -> refusal(counter, delta, state), 1);
    }

    /**
     * Runs {@code attempt} on what is known of a counter, under the guard's lock, reading the
     * counter's total first when nothing is known of it, or when the attempt fails on what is
     * known. A sum read while another write settled, a set began or ended, or counters were
     * forgotten, may miss that change, so it is thrown away and read again, a few times at most.
     * Nothing is reread while a set of the counter is in flight: the read could see the total
     * before the set or after it.
     *
     * @param attempt what to do; null when what is known refuses it
     * @param refusal what to fail with when the attempt fails on a total that is as fresh as it gets
     * @param pass how many reads this claim has made, plus one
     * @return what the attempt returned
     */
    private <T> CompletableFuture<T> claim(Counter counter, Function<Known, T> attempt,
            Function<Known, RuntimeException> refusal, int pass) {
        Known before;
        long changesBefore;
        long forgottenBefore;
        synchronized (this) {
            before = known.get(counter);
            T done = before == null ? null : attempt.apply(before);
            if (done != null) {
                return CompletableFuture.completedFuture(done);
            }
            if (before != null && (!rereadAllowed || before.setting() || pass > MAX_READS)) {
                return CompletableFuture.failedFuture(refusal.apply(before));
            }
            changesBefore = before == null ? 0 : before.changes();
            forgottenBefore = forgotten;
        }
        return readTotal(counter).thenCompose(total -> {
            synchronized (this) {
                Known now = known.get(counter);
                boolean unchanged = now == before && forgotten == forgottenBefore
                        && (now == null || now.changes() == changesBefore);
                if (unchanged) {
                    Known state = now == null ? remember(counter, total) : now.reread(total);
                    T done = attempt.apply(state);
                    return done != null ? CompletableFuture.completedFuture(done)
                            : CompletableFuture.failedFuture(refusal.apply(state));
                }
            }
            return claim(counter, attempt, refusal, pass + 1);
        });
    }

    private Known remember(Counter counter, BigInteger total) {
        Known state = new Known(total);
        known.put(counter, state);
        forgetIdleBeyondLimit();
        return state;
    }

    private CompletableFuture<BigInteger> readTotal(Counter counter) {
        return reader.read(counter.recordType(), counter.recordId()).handle((total, failure) -> {
            if (failure == null) {
                return BigInteger.valueOf(total);
            }
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            if (cause instanceof CounterOverflowException overflow && overflow.total() != null) {
                return overflow.total();
            }
            throw failure instanceof CompletionException wrapped ? wrapped
                    : new CompletionException(failure);
        });
    }

    private synchronized void settle(List<Reservation> reserved, Outcome outcome) {
        reserved.forEach(reservation -> known.get(reservation.counter()).settle(reservation, outcome));
        notifyAll();
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

    /**
     * One counter's part of a write, as reserved.
     *
     * @param setEvents how many sets of the counter had begun or ended when it was reserved: if
     *     that changed by the time it settles, its flight overlapped a set
     */
    private record Reservation(Counter counter, BigInteger delta, long setEvents) {
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
     * flight upwards and downwards. While sets are in flight, {@code overlapUp} and
     * {@code overlapDown} sum what writes overlapping them may have added since the first began.
     * Guarded by the enclosing guard's lock.
     */
    private static final class Known {
        private BigInteger low;
        private BigInteger high;
        private BigInteger up = BigInteger.ZERO;
        private BigInteger down = BigInteger.ZERO;
        private BigInteger overlapUp = BigInteger.ZERO;
        private BigInteger overlapDown = BigInteger.ZERO;
        private int inFlight;
        /** Writes in flight by the set events seen when they were let through. */
        private final TreeMap<Long, Integer> writesBySetEvents = new TreeMap<>();
        private int setsInFlight;
        private long settled;
        private long setEvents;

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
                writesBySetEvents.merge(setEvents, 1, Integer::sum);
            }
            return fits;
        }

        /**
         * Settles a write. One that overlapped a set may have committed before it, and been
         * replaced, or after it: applied or not, it settles as maybe applied.
         */
        void settle(Reservation reservation, Outcome outcome) {
            BigInteger delta = reservation.delta();
            if (delta.signum() >= 0) {
                up = up.subtract(delta);
            } else {
                down = down.subtract(delta);
            }
            inFlight--;
            writesBySetEvents.computeIfPresent(reservation.setEvents(), (events, n) -> n == 1 ? null : n - 1);
            settled++;
            boolean overlapped = setsInFlight > 0 || setEvents != reservation.setEvents();
            Outcome landed = overlapped && outcome == Outcome.APPLIED ? Outcome.MAYBE_APPLIED : outcome;
            if (overlapped && landed == Outcome.MAYBE_APPLIED) {
                if (delta.signum() >= 0) {
                    overlapUp = overlapUp.add(delta);
                } else {
                    overlapDown = overlapDown.add(delta);
                }
            }
            move(delta, landed);
        }

        private void move(BigInteger delta, Outcome outcome) {
            if (outcome == Outcome.APPLIED || (outcome == Outcome.MAYBE_APPLIED && delta.signum() < 0)) {
                low = low.add(delta);
            }
            if (outcome == Outcome.APPLIED || (outcome == Outcome.MAYBE_APPLIED && delta.signum() > 0)) {
                high = high.add(delta);
            }
        }

        /**
         * A set begins: until it settles, the total is the old one or the new count.
         *
         * @return the set events so far, this one included, for {@link #endSet}
         */
        Long beginSet(BigInteger count) {
            if (setsInFlight == 0) {
                overlapUp = BigInteger.ZERO;
                overlapDown = BigInteger.ZERO;
            }
            setsInFlight++;
            inFlight++;
            low = low.min(count);
            high = high.max(count);
            return ++setEvents;
        }

        /**
         * A set settles. Applied with no other set beside it (none began or ended meanwhile, none
         * is still in flight), the total is the count plus what overlapping writes may have added;
         * otherwise the interval already covers every possible total.
         */
        void endSet(BigInteger count, long begun, Outcome outcome) {
            setsInFlight--;
            inFlight--;
            settled++;
            boolean alone = setEvents == begun && setsInFlight == 0;
            setEvents++;
            if (outcome == Outcome.APPLIED && alone) {
                low = count.add(overlapDown);
                high = count.add(overlapUp);
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

        /** Whether a write let through before set event {@code begun} is still in flight. */
        boolean writesInFlightBefore(long begun) {
            return !writesBySetEvents.headMap(begun).isEmpty();
        }

        boolean setting() {
            return setsInFlight > 0;
        }

        long setEvents() {
            return setEvents;
        }

        /** Changes a read must not span: writes settled, sets begun or ended. */
        long changes() {
            return settled + setEvents;
        }

        String describe() {
            String at = low.equals(high) ? "is at " + low : "is between " + low + " and " + high;
            int writes = inFlight - setsInFlight;
            String flying = (writes == 0 ? "" : " with " + writes + " writes in flight")
                    + (setsInFlight == 0 ? "" : (writes == 0 ? " with " : " and ") + setsInFlight
                            + " sets in flight");
            return at + flying;
        }
    }
}
