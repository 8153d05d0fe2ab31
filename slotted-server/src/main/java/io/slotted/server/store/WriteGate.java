package io.slotted.server.store;

import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The one point in a piece of counter work where it may still be given up: just before its write
 * is handed to the library. It decides what a front end may promise when the work's deadline
 * passes.
 *
 * <p>A front end answers its client at the deadline whatever the work is still waiting for (a
 * lock, a connection, a name lookup, a free writer). If the work has not reached its write, the
 * gate is shut: the work writes nothing, ever, and the answer may say so. If the write was already
 * handed over, it cannot be called back: a group commit waiting out a lock commits when the lock
 * goes, so the answer can only say that the outcome is unknown. Both happen under one atomic
 * step, so a write either entered before the deadline and is reported as possibly applied, or
 * never enters at all.
 *
 * <p>Reads pass no gate: a read given up at its deadline changes nothing either way.
 */
public final class WriteGate {
    /** How far the work got. */
    private enum Stage { BEFORE_WRITING, WRITING, GIVEN_UP }

    private final AtomicReference<Stage> stage = new AtomicReference<>(Stage.BEFORE_WRITING);

    /**
     * Lets the work hand its write to the library. Called right before that, on whichever thread
     * does it.
     *
     * @throws CancellationException if the work was given up at its deadline; it must write
     *     nothing (its client has already been answered)
     */
    public void enter() {
        if (!stage.compareAndSet(Stage.BEFORE_WRITING, Stage.WRITING)) {
            throw new CancellationException("given up at the deadline before writing");
        }
    }

    /**
     * Gives the work up at its deadline: unless its write was already handed over, it will write
     * nothing.
     *
     * @return true if the write was handed over and may still be applied (the outcome is
     *     unknown), false if nothing was or will be written
     */
    public boolean giveUp() {
        return stage.getAndUpdate(s -> s == Stage.WRITING ? s : Stage.GIVEN_UP) == Stage.WRITING;
    }

    /**
     * Whether the work was given up at its deadline, so that work still waiting to start need not
     * start at all.
     *
     * @return true once {@link #giveUp()} shut the gate
     */
    public boolean givenUp() {
        return stage.get() == Stage.GIVEN_UP;
    }
}
