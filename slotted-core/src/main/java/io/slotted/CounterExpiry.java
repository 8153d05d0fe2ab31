package io.slotted;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Counters that expire, as Redis keys do: a counter of an expiring type
 * ({@link SlottedCountersBuilder#expiring}) may be given a time after which it reads 0 and counts
 * from 0 again, without its expiry. Increments racing the expiry each count either in the counter
 * before it expired, and vanish with it, or in the counter after; none is counted in both, and
 * none comes back into a counter that has read 0 since. Times are decided by the process's
 * clock. What an expired counter leaves in the table is removed by a sweep in the background, a
 * bounded batch at a time.
 */
public interface CounterExpiry {
    /**
     * Whether a type's counters may expire: this process was told so
     * ({@link SlottedCountersBuilder#expiring}), or another process recorded it in the type
     * registry, as this process last read it.
     *
     * @param recordType the counter type
     * @return true if its counters take expiries
     */
    boolean expiring(int recordType);

    /**
     * Gives a counter an expiry, as Redis's {@code PEXPIREAT} does: a time already past clears
     * the counter now.
     *
     * @param recordType an expiring counter type
     * @param recordId the counter
     * @param at when it expires
     * @param rule when the new time replaces the current one
     * @return true if the expiry was set; false if the counter reads 0 (it does not exist, in
     *     Redis's words) or the rule kept the current one
     * @throws IllegalArgumentException if the type does not expire
     * @throws SlottedException if the database fails; the expiry may not have been set
     */
    boolean expireAt(int recordType, long recordId, Instant at, ExpiryRule rule);

    /**
     * Gives a counter an expiry, replacing any it has.
     *
     * @param recordType an expiring counter type
     * @param recordId the counter
     * @param at when it expires
     * @return true if set; false if the counter reads 0
     */
    default boolean expireAt(int recordType, long recordId, Instant at) {
        return expireAt(recordType, recordId, at, ExpiryRule.ALWAYS);
    }

    /**
     * Gives a counter an expiry a time to live from now, by the process's clock.
     *
     * @param recordType an expiring counter type
     * @param recordId the counter
     * @param timeToLive how long from now it lives; zero or less clears it now
     * @return true if set; false if the counter reads 0
     */
    boolean expireIn(int recordType, long recordId, Duration timeToLive);

    /**
     * When a counter expires.
     *
     * @param recordType an expiring counter type
     * @param recordId the counter
     * @return its expiry; empty when it has none, or has expired
     */
    Optional<Instant> expiresAt(int recordType, long recordId);

    /**
     * Takes a counter's expiry away, as Redis's {@code PERSIST} does.
     *
     * @param recordType an expiring counter type
     * @param recordId the counter
     * @return true if it had one
     */
    boolean persist(int recordType, long recordId);

    /**
     * Sets a counter exactly and gives it an expiry, as Redis's {@code SET key n PX ms} does, in
     * one transaction.
     *
     * @param recordType an expiring counter type
     * @param recordId the counter
     * @param count the new total
     * @param at when it expires
     */
    void setUntil(int recordType, long recordId, long count, Instant at);
}
