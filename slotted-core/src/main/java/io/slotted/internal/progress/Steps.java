package io.slotted.internal.progress;

import io.slotted.Progress;
import io.slotted.StoppedException;
import java.util.function.Supplier;

/**
 * A long call's side of its {@link Progress}: the steps it begins, how far they got, and the points
 * where it may stop. A call asks {@link #stopIfAsked} only where stopping leaves nothing half done
 * — between transactions, or anywhere in a read — and says there, in the exception's message, how
 * far it got.
 */
public final class Steps {
    /** Rows read between two reports of a read, each also a point where the read may stop. */
    public static final int ROWS_PER_REPORT = 10_000;

    private final Progress progress;

    /**
     * Reports to {@code progress}.
     *
     * @param progress what follows the call
     */
    public Steps(Progress progress) {
        this.progress = progress;
    }

    /**
     * Steps that nobody follows: for the same work done in the background.
     *
     * @return steps reporting to {@link Progress#NONE}
     */
    public static Steps none() {
        return new Steps(Progress.NONE);
    }

    /**
     * A step begins.
     *
     * @param step what it does
     * @param total its units, or -1 when not known ahead
     * @param unit what a unit is, plural
     */
    public void begin(String step, long total, String unit) {
        progress.begin(step, total, unit);
    }

    /**
     * The step got further.
     *
     * @param done its units done so far
     */
    public void advance(long done) {
        progress.advance(done);
    }

    /**
     * One more row read: every {@value #ROWS_PER_REPORT} rows, reports them and stops if asked,
     * which a read may do anywhere.
     *
     * @param rows rows read so far, this one included
     * @param howFar what the exception says if it stops
     * @throws StoppedException if asked to stop
     */
    public void rowRead(long rows, Supplier<String> howFar) {
        if (rows % ROWS_PER_REPORT == 0) {
            progress.advance(rows);
            stopIfAsked(howFar);
        }
    }

    /**
     * Stops here if asked to.
     *
     * @param howFar how far the call got, and what running it again does
     * @throws StoppedException if asked to stop
     */
    public void stopIfAsked(Supplier<String> howFar) {
        if (progress.stopRequested()) {
            throw new StoppedException(howFar.get());
        }
    }
}
