package io.slotted;

/**
 * A long call stopped because its {@link Progress} asked it to, at a point where nothing was left
 * half done. The message says how far it got and what running it again does; what it committed
 * stays committed.
 */
public class StoppedException extends SlottedException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message how far the call got, and what running it again does
     */
    public StoppedException(String message) {
        super(message);
    }
}
