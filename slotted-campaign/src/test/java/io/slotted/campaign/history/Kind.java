package io.slotted.campaign.history;

/** The operations of the workload. */
public enum Kind {
    /** An increment without a key. */
    ADD,
    /** An increment with an idempotency key; its replays carry the same key and delta. */
    ADD_KEYED,
    /** An increment that answers the counter's total right after it. */
    ADD_AND_GET,
    /** Increments of several counters, all or nothing. */
    BATCH,
    /** A read of one counter. */
    READ,
    /** A sale from a stock that must never go below 0: an increment the limits may refuse. */
    SELL,
    /** Stock added back. */
    RESTOCK,
    /** A charge to a quota per window: an increment the window's limit may refuse. */
    CHARGE,
    /** A charge given back in its window, which may not go below 0. */
    REFUND,
    /**
     * A counter set to an exact value, its {@code deltas} holding the value: sent only while no
     * other operation on that counter is under way, so that every acknowledged increment is
     * surely before or surely after it.
     */
    SET,
    /** A release of a type bound to an owner column: everything moved into the column, the type unbound. */
    RELEASE,
    /**
     * An expiry given to a counter of the expiring type, if it has none ({@code NX}): its
     * {@code deltas} hold the time it expires at, in the history's nanoseconds; {@code applied}
     * whether it was set (false: the counter read 0, or had one).
     */
    EXPIRE;

    /** Whether the operation writes. */
    public boolean writes() {
        return this != READ;
    }
}
