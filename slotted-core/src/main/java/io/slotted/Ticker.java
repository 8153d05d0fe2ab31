package io.slotted;

/**
 * A source of elapsed time in nanoseconds, for the timing of the write path: flush durations, how
 * long a flusher has been idle, and how long a commit whose outcome is unknown may take to resolve.
 * The default reads {@link System#nanoTime()}; tests pass one they move by hand, so that a timeout
 * can be reached without waiting for it. Only differences between two readings mean anything.
 */
@FunctionalInterface
public interface Ticker {

    /**
     * The current reading.
     *
     * @return nanoseconds since an arbitrary, fixed origin
     */
    long read();

    /**
     * The ticker of the running JVM.
     *
     * @return a ticker that reads {@link System#nanoTime()}
     */
    static Ticker systemTicker() {
        return System::nanoTime;
    }
}
