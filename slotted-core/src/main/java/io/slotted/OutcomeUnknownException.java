package io.slotted;

/**
 * The connection was lost while a write was committing, and whether it committed could not be
 * established.
 *
 * <p>Retrying blindly could count the increment twice; not retrying could lose it. Callers that
 * need exactly-once across such failures use an idempotency key and retry with the same key.
 */
public class OutcomeUnknownException extends DatabaseUnavailableException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what was being written when the connection was lost
     * @param cause the driver's failure
     */
    public OutcomeUnknownException(String message, Throwable cause) {
        super(message, cause);
    }
}
