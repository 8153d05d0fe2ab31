package io.slotted.internal.mutation;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * A known way to break exactness, planted in the engine only when the JVM is started with
 * {@code -Dslotted.mutation=NAME}: the fault campaign runs with one planted and must report the
 * anomaly it causes. A checker that never saw the bugs it is meant to find proves nothing.
 *
 * <p>The switch is read once, when this class loads, into a constant: with none planted, as in
 * every real process, each check is a constant {@code false} that the JIT removes. An unknown name
 * fails the class's loading, loudly, rather than running a campaign that plants nothing.
 */
public enum Mutation {
    /** A retry that writes a lost flush again does not fence the flusher's mark. */
    FENCE_REMOVED,
    /** An idempotency key is recorded without looking for it first: a replay applies again. */
    KEY_LOOKUP_SKIPPED,
    /** A flush's callers are told their increments are durable before its COMMIT. */
    ACK_BEFORE_COMMIT,
    /** A bounded counter's allowance is spent without checking that it covers the spend. */
    SPEND_UNCHECKED,
    /**
     * A copy-mode type's release commits each chunk's move into the owner column, slot rows
     * deleted, on its own: a failure between chunks leaves the type bound with counts that only
     * the column holds, which its reads do not see.
     */
    COPY_RELEASE_BY_CHUNK,
    /**
     * A set locks only the counter's slot rows, not the counter first: on PostgreSQL and H2 a set
     * that waited for another adds its total to the rows the other wrote.
     */
    SET_WITHOUT_COUNTER_LOCK,
    /** A charge to a quota per window is applied without checking that its window has room. */
    WINDOW_UNCHECKED,
    /**
     * A write of an expiring counter reads the counter's expiry, and clears it when it has passed,
     * without locking its expiry row first: a write racing the clearing can carry an expired
     * increment into the counter's next life, or two clearings delete each other's increments.
     */
    EXPIRY_WITHOUT_LOCK,
    /**
     * A read of time buckets sums the bucket table alone, leaving out the increments a flush wrote
     * as pending rows of the counter table that the bucket keeper has not moved yet.
     */
    BUCKET_READ_WITHOUT_PENDING;

    /** The system property that plants one. */
    public static final String PROPERTY = "slotted.mutation";

    private static final Mutation PLANTED = fromProperty();

    /** Whether this bug is planted in this JVM. */
    public boolean planted() {
        return this == PLANTED;
    }

    private static Mutation fromProperty() {
        String name = System.getProperty(PROPERTY, "").trim();
        if (name.isEmpty()) {
            return null;
        }
        try {
            return valueOf(name.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(PROPERTY + " must be one of "
                    + Arrays.stream(values()).map(Enum::name).collect(Collectors.joining(", ")) + ", but was " + name, e);
        }
    }
}
