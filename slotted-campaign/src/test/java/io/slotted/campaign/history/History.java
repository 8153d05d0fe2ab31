package io.slotted.campaign.history;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Every operation's invocation and outcome, recorded by many client threads at once. An
 * operation is invoked before it is sent and completed when its caller learns the outcome; one
 * still open when the campaign ends is recorded as never answered, with an unknown outcome.
 */
public final class History {
    private final AtomicLong ids = new AtomicLong();
    private final long start = System.nanoTime();
    /** The wall clock's milliseconds at {@link #start}, for times the processes' clocks decide. */
    private final long wallStart = System.currentTimeMillis();
    private final Queue<Operation> ended = new ConcurrentLinkedQueue<>();
    private final Map<Long, Invocation> open = new ConcurrentHashMap<>();

    /** Records that an operation is about to be sent. */
    public Invocation invoke(String process, Kind kind, Map<Counter, Long> deltas, String key) {
        Invocation invocation = new Invocation(this, ids.incrementAndGet(), process, kind, Map.copyOf(deltas), key,
                now());
        open.put(invocation.id(), invocation);
        return invocation;
    }

    /**
     * A moment of the wall clock, which the library's processes decide expiries by, in the
     * history's nanoseconds: to within the millisecond the two clocks were read apart.
     *
     * @param wallMillis epoch milliseconds
     * @return nanoseconds since the history began
     */
    public long fromWallMillis(long wallMillis) {
        return (wallMillis - wallStart) * 1_000_000L;
    }

    /** Nanoseconds since the history began. */
    long now() {
        return System.nanoTime() - start;
    }

    void end(Invocation invocation, Operation operation) {
        if (open.remove(invocation.id()) != null) {
            ended.add(operation);
        }
    }

    /**
     * Every operation in the order of invocation, those still open as never answered and of
     * unknown outcome.
     */
    public List<Operation> operations() {
        List<Operation> all = new ArrayList<>(ended);
        open.values().forEach(invocation -> all.add(invocation.neverAnswered()));
        all.sort(Comparator.comparingLong(Operation::id));
        return all;
    }
}
