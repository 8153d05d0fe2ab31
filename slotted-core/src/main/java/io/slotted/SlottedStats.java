package io.slotted;

/**
 * What a {@link SlottedCounters} instance has done since it was built.
 *
 * @param incrementsApplied increments acknowledged to callers as durable
 * @param retries attempts repeated after a deadlock, lock-wait timeout, serialization failure or
 *     (on H2) a duplicate-key race
 */
public record SlottedStats(long incrementsApplied, long retries) {
}
