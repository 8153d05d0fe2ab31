package io.slotted;

/**
 * A write kept failing with deadlocks, lock-wait timeouts or serialization failures and was given
 * up after the configured number of attempts. Nothing was applied.
 *
 * <p>Usually a sign that something else holds locks on the counter rows for a long time, or that
 * the counter needs more slots.
 */
public class ContentionException extends SlottedException {
    private static final long serialVersionUID = 1L;

    private final int attempts;

    /**
     * Creates the exception.
     *
     * @param message what failed and how many times it was tried
     * @param attempts how many times the write was tried
     * @param cause the last attempt's failure
     */
    public ContentionException(String message, int attempts, Throwable cause) {
        super(message, cause);
        this.attempts = attempts;
    }

    /**
     * How many times the write was tried before giving up.
     *
     * @return the number of attempts, at least 1
     */
    public int attempts() {
        return attempts;
    }
}
