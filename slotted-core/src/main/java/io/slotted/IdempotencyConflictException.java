package io.slotted;

/**
 * An idempotency key was used again for a different increment. Nothing was applied: a key stands
 * for one increment (one counter, one delta), and reusing it for another would make a retry
 * indistinguishable from a new request.
 */
public class IdempotencyConflictException extends SlottedException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message the key, what it was first used for, and what it was used for now
     */
    public IdempotencyConflictException(String message) {
        super(message);
    }
}
