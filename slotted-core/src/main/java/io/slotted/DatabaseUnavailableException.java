package io.slotted;

/**
 * The database could not be reached, or the connection was lost before the work was done.
 *
 * <p>When this exception is thrown by a write, the increment was not applied and may be retried.
 * The one exception to that rule is its subclass {@link OutcomeUnknownException}.
 */
public class DatabaseUnavailableException extends SlottedException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what could not be reached and why
     * @param cause the driver's or pool's failure
     */
    public DatabaseUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
