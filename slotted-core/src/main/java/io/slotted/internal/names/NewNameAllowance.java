package io.slotted.internal.names;

import io.slotted.Ticker;
import java.util.concurrent.TimeUnit;

/**
 * How many new names a process may still record: a token bucket refilled at a rate per second and
 * holding at most one second's worth, so a burst of new names is served up to that size and a
 * steady stream at the rate. Shared by the lookup threads.
 */
final class NewNameAllowance {
    private final int perSecond;
    private final Ticker ticker;
    private double tokens;
    private long filledAt;

    NewNameAllowance(int perSecond, Ticker ticker) {
        this.perSecond = perSecond;
        this.ticker = ticker;
        this.tokens = perSecond;
        this.filledAt = ticker.read();
    }

    /**
     * Takes up to {@code wanted} names from the allowance.
     *
     * @param wanted how many names would be new
     * @return how many of them may be recorded now
     */
    synchronized int take(int wanted) {
        long now = ticker.read();
        double elapsedSeconds = (now - filledAt) / (double) TimeUnit.SECONDS.toNanos(1);
        tokens = Math.min(perSecond, tokens + elapsedSeconds * perSecond);
        filledAt = now;
        int granted = (int) Math.min(wanted, Math.floor(tokens));
        tokens -= granted;
        return granted;
    }

    int perSecond() {
        return perSecond;
    }
}
