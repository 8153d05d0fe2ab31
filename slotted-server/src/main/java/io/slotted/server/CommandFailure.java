package io.slotted.server;

/**
 * A command that was well formed but could not be carried out, such as one whose database cannot
 * be reached. The command line prints the message as one line and exits with status 1, so the
 * message names the cause.
 */
public final class CommandFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the failure.
     *
     * @param message what could not be done and why, naming the thing that failed
     * @param cause the failure underneath
     */
    public CommandFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
