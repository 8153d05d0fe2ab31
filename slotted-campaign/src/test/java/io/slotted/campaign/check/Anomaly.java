package io.slotted.campaign.check;

import io.slotted.campaign.history.Counter;
import java.util.List;

/**
 * What the checker found wrong with a history.
 *
 * @param kind which rule was broken
 * @param counter the counter, or null for a rule about a key
 * @param message what was found, with the numbers
 * @param operations the ids of the operations it concerns
 */
public record Anomaly(Kind kind, Counter counter, String message, List<Long> operations) {
    /** The rules of the checker. */
    public enum Kind {
        /** A read outside what was acknowledged before it began and invoked before it ended. */
        READ_OUT_OF_BOUNDS,
        /** A final value that is not the acknowledged sum plus a subset of the unknown deltas. */
        FINAL_VALUE,
        /** A total outside the type's limits. */
        LIMIT_BROKEN,
        /** An idempotency key applied twice, or a replay answering what did not happen. */
        KEY,
        /** An operation that never answered: a door without a deadline. */
        STALL,
        /** An owner column that differs from its counter's total after a last roll-up. */
        OWNER_COLUMN,
        /** Time buckets that do not add up to their counter's total. */
        BUCKETS,
        /** A recount that found counters differing from the events they were committed with. */
        RECOUNT
    }

    @Override
    public String toString() {
        return kind + (counter == null ? "" : " on counter " + counter) + ": " + message;
    }
}
