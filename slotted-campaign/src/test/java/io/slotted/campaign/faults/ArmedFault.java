package io.slotted.campaign.faults;

import java.time.Duration;

/**
 * A fault waiting for the next request that carries a commit.
 *
 * @param fault what to do
 * @param time how long to wait before delivering ({@link Fault#LATE_DELIVERY}; the longest wait
 *     when it waits for another connection's commit) or before closing the silent connection
 *     ({@link Fault#ANSWER_DROPPED}); zero for the others
 * @param prefix the share of the request to forward, in [0, 1) ({@link Fault#CUT_MID_PACKET})
 * @param withNextCommit for {@link Fault#LATE_DELIVERY}: deliver just before another connection's
 *     next commit passes, or after {@code time} if none does
 */
record ArmedFault(Fault fault, Duration time, double prefix, boolean withNextCommit) {
    ArmedFault(Fault fault) {
        this(fault, Duration.ZERO, 0, false);
    }

    ArmedFault(Fault fault, Duration time, double prefix) {
        this(fault, time, prefix, false);
    }

    /** How many bytes of a request of {@code length} bytes to forward: at least one, never all. */
    int prefixOf(int length) {
        return length < 2 ? 0 : 1 + (int) (prefix * (length - 1));
    }
}
