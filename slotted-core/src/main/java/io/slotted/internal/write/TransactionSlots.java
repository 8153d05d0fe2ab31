package io.slotted.internal.write;

import io.slotted.internal.sql.CounterKey;
import java.sql.Connection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The slot each counter was given on a caller's connection, so that an increment made in the
 * caller's transaction goes to the slot row an earlier increment of the same counter in that
 * transaction already locked.
 *
 * <p>Why: a transaction that increments one hot counter twice, each time in a random slot, holds
 * the first row's lock while it waits for the second; two such transactions that picked each
 * other's rows deadlock, and the database rolls one of them back whole. On MariaDB, 64 threads
 * incrementing one counter twice per transaction lost 23% of their transactions to deadlocks
 * that way (docs/benchmarks.md). Going back to the row already held takes no new lock and cannot
 * deadlock.
 *
 * <p>Connections are remembered weakly, by identity: a pool lends a new connection handle for
 * each borrow, so a handle lives about as long as one transaction and is forgotten with it. A
 * connection the caller keeps for many transactions keeps its slots, which only narrows that
 * connection's spread over the slots. At most {@value #COUNTERS_PER_CONNECTION} counters are
 * remembered per connection.
 */
final class TransactionSlots {
    private static final int COUNTERS_PER_CONNECTION = 64;

    private final Map<Connection, Map<CounterKey, Integer>> byConnection =
            Collections.synchronizedMap(new WeakHashMap<>());
    private final SlotPicker slots;

    TransactionSlots(SlotPicker slots) {
        this.slots = slots;
    }

    /**
     * The slot for an increment of {@code key} on {@code connection}: the one it had before on
     * this connection while that is still one of the type's slots, else a new random one.
     */
    int slotFor(Connection connection, CounterKey key) {
        int slotCount = slots.count(key.recordType());
        Map<CounterKey, Integer> given = byConnection.computeIfAbsent(connection, c -> recentCounters());
        synchronized (given) {
            Integer slot = given.get(key);
            if (slot == null || slot >= slotCount) {
                slot = slots.pick(key.recordType());
                given.put(key, slot);
            }
            return slot;
        }
    }

    private static Map<CounterKey, Integer> recentCounters() {
        return new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<CounterKey, Integer> eldest) {
                return size() > COUNTERS_PER_CONNECTION;
            }
        };
    }
}
