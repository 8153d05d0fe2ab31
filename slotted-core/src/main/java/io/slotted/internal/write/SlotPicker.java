package io.slotted.internal.write;

import io.slotted.internal.registry.TypeRegistry;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Chooses the slot row an increment goes to.
 *
 * <p>Uniformly at random in Java: the original pattern's {@code RAND() * 100} stored into an INT column rounds,
 * giving 101 slots with the two ends at half weight. Random choice needs no coordination between
 * threads, processes or hosts, and spreads concurrent writers over the rows so that they rarely
 * wait on the same row lock.
 *
 * <p>A group-commit flusher picks only among the slots it owns: with {@code F} flushers, flusher
 * {@code f} owns the slots {@code s} with {@code s % F == f}, so the flushers of one process never
 * wait on each other's row locks, and random choice among its own keeps flushers of different
 * processes mostly apart too. It keeps to one of them for a while ({@link #pickOwned}),
 * so a hot counter changes a few rows between two roll-ups rather than all of them.
 */
public final class SlotPicker {
    private final TypeRegistry registry;

    /**
     * Creates a picker for the slot counts the registry and the configuration set.
     *
     * @param registry where the slot count per type comes from
     */
    public SlotPicker(TypeRegistry registry) {
        this.registry = registry;
    }

    /**
     * How many slots a type has now.
     *
     * @param recordType the type
     * @return its slot count
     */
    public int count(int recordType) {
        return registry.slots(recordType);
    }

    /**
     * Picks any slot of the counter's type.
     *
     * @param recordType the counter's type
     * @return a slot from 0 to the type's slot count, exclusive
     */
    public int pick(int recordType) {
        return ThreadLocalRandom.current().nextInt(registry.slots(recordType));
    }

    /**
     * Picks the slot a draw names among those owned by one of several writers,
     * {@code s % owners == owner}, so that a writer that keeps its draw keeps to one slot of each
     * type whatever the type's slot count. When the type has no more slots than there are owners,
     * owners share: owner {@code f} writes slot {@code f % slots}.
     *
     * @param recordType the counter's type
     * @param owner the writer's index, from 0
     * @param owners how many writers share the slots
     * @param draw any number from 0, drawn at random
     * @return a slot from 0 to the type's slot count, exclusive
     */
    public int pickOwned(int recordType, int owner, int owners, int draw) {
        int slots = registry.slots(recordType);
        if (slots <= owners) {
            return owner % slots;
        }
        int owned = (slots - owner + owners - 1) / owners;
        return owner + owners * (draw % owned);
    }
}
