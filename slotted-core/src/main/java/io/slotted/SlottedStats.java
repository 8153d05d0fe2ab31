package io.slotted;

/**
 * What a {@link SlottedCounters} instance has done since it was built.
 *
 * @param incrementsApplied increments written durably (in {@code BUFFERED} mode, written; callers
 *     were released earlier)
 * @param retries attempts repeated after a deadlock, lock-wait timeout, serialization failure, lost
 *     connection before COMMIT, or (on H2) a duplicate-key race
 * @param flushes transactions committed by the group-commit flushers
 * @param flushNanos time those flushes took, from the first attempt to the commit, in total;
 *     divided by {@code flushes}, the mean flush duration
 * @param flushedIncrements increments those flushes wrote; divided by {@code flushes}, the mean
 *     flush size
 * @param outcomesUnknown flushes whose connection was lost during COMMIT
 * @param outcomesResolved of those, flushes that the flush ledger showed had committed, so their
 *     retry wrote nothing
 * @param incrementsDropped {@code BUFFERED} increments that could not be written (each is also
 *     logged as an error)
 * @param queued increments waiting for a flush right now
 * @param rollUps roll-ups of a bound counter type this instance completed
 * @param countersRolledUp counters whose owner column this instance's roll-ups wrote
 * @param rollUpLagMillis how far the owner columns may trail, over every bound type: the time since
 *     the start of the type's last completed roll-up by any process (everything committed before
 *     that start is in the column); -1 when no type is bound or the registry was never read
 */
public record SlottedStats(long incrementsApplied, long retries, long flushes, long flushNanos,
        long flushedIncrements, long outcomesUnknown, long outcomesResolved, long incrementsDropped,
        int queued, long rollUps, long countersRolledUp, long rollUpLagMillis) {
}
