package io.slotted.server;

/**
 * A service whose settings were sound but which could not start serving, such as one whose port is
 * taken: {@code cannot listen on ADDRESS:PORT: reason}. The message names the address and the
 * cause in one line.
 */
public final class ServiceFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the failure.
     *
     * @param message what could not be done and why
     * @param cause the failure underneath
     */
    public ServiceFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
