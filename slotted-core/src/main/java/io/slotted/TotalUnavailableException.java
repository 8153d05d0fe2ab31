package io.slotted;

/**
 * An increment made with {@link SlottedCounters#addAndGet} was applied, durably, but the counter's
 * total could not be read after it (the write could not learn it in its own round trip, and the
 * read that followed failed). Do not apply the increment again: read the counter instead.
 */
public class TotalUnavailableException extends SlottedException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message which counter, and why its total could not be read
     * @param cause the failure of the read
     */
    public TotalUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}
