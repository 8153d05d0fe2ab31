package io.slotted.server.cli.progress;

/** How the steps of a command are shown: a bar on a terminal, or plain lines. */
interface StepDisplay {
    /**
     * A step begins; the one before it, if any, has ended.
     *
     * @param step what it does
     * @param total its units, or -1 when not known ahead
     * @param unit what a unit is, plural
     */
    void begin(String step, long total, String unit);

    /**
     * The current step got further.
     *
     * @param done its units done so far
     */
    void advance(long done);

    /** The last step has ended, or the command stopped. */
    void finish();
}
