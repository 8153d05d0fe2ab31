package io.slotted;

/**
 * Follows a call that walks a whole table — {@link CounterAdmin#recount recount},
 * {@link CounterAdmin#shrink shrink}, {@link OwnerColumns#release release},
 * {@link OwnerColumns#adopt adopt}, {@link SlottedCounters#migrate migrate} — and may stop it.
 *
 * <p>The call names each step as it begins and reports how far the step has got, from the thread
 * that called it; {@code slotted} draws these as a progress bar. Between transactions, where
 * stopping leaves nothing half done, it asks {@link #stopRequested()}; when that answers true it
 * stops and throws {@link StoppedException}, whose message says what was done and what was not.
 * What a committed transaction did stays done, and running the call again goes on from there.
 */
public interface Progress {
    /** Follows nothing and never asks to stop: what the calls without a {@code Progress} use. */
    Progress NONE = new Progress() {
        @Override
        public void begin(String step, long total, String unit) {
        }

        @Override
        public void advance(long done) {
        }
    };

    /**
     * A step begins.
     *
     * @param step what it does, such as {@code "reading the counters"}
     * @param total how many units it holds, or -1 when that is not known ahead
     * @param unit what a unit is, plural, such as {@code "counters"} or {@code "rows"}
     */
    void begin(String step, long total, String unit);

    /**
     * The current step has got further.
     *
     * @param done units of the step done so far
     */
    void advance(long done);

    /**
     * Whether to stop at the next point where stopping leaves nothing half done.
     *
     * @return true to stop; the call then throws {@link StoppedException}
     */
    default boolean stopRequested() {
        return false;
    }
}
