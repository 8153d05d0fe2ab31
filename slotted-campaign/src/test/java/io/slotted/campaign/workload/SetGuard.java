package io.slotted.campaign.workload;

import io.slotted.campaign.history.Counter;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Keeps the workload's sets apart from every other operation on the same counter: any number of
 * increments and reads of a counter at once, or one set. The checker then knows that each
 * acknowledged increment came wholly before a set or wholly after it; only increments whose
 * outcome stayed unknown may land on either side.
 */
public final class SetGuard {
    private final Map<Counter, ReentrantReadWriteLock> locks;

    /** Something held until closed. */
    public interface Held extends AutoCloseable {
        @Override
        void close();
    }

    public SetGuard(List<Counter> settable) {
        locks = settable.stream().collect(Collectors.toMap(Function.identity(), counter -> new ReentrantReadWriteLock()));
    }

    /** Holds off sets of these counters until closed; counters never set need nothing. */
    public Held shared(Collection<Counter> counters) {
        List<Lock> held = counters.stream().sorted().filter(locks::containsKey)
                .map(counter -> (Lock) locks.get(counter).readLock()).toList();
        held.forEach(Lock::lock);
        return () -> held.forEach(Lock::unlock);
    }

    /** Waits until no other operation on the counter is under way, and holds them off until closed. */
    public Held exclusive(Counter counter) {
        Lock lock = locks.get(counter).writeLock();
        lock.lock();
        return lock::unlock;
    }
}
