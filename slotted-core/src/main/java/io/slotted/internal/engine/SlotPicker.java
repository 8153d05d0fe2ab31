package io.slotted.internal.engine;

import io.slotted.SlottedConfig;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Chooses the slot row an increment goes to.
 *
 * <p>Uniformly at random over {@code [0, slots)} for the counter's type, in Java: the seed's
 * {@code RAND() * 100} stored into an INT column rounds, giving 101 slots with the two ends at half
 * weight. Random choice needs no coordination between threads, processes or hosts, and spreads
 * concurrent writers over the rows so that they rarely wait on the same row lock.
 */
public final class SlotPicker {
    private final SlottedConfig config;

    /**
     * Creates a picker for the configured slot counts.
     *
     * @param config where the slot count per type comes from
     */
    public SlotPicker(SlottedConfig config) {
        this.config = config;
    }

    /**
     * Picks a slot for one increment.
     *
     * @param recordType the counter's type
     * @return a slot in {@code [0, config.slots(recordType))}
     */
    public int pick(int recordType) {
        return ThreadLocalRandom.current().nextInt(config.slots(recordType));
    }
}
