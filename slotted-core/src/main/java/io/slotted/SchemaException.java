package io.slotted;

/**
 * The counter table is missing or does not have the shape Slotted needs: the columns
 * {@code record_type}, {@code record_id}, {@code slot} and {@code count}, and a unique key over
 * {@code (record_type, record_id, slot)}.
 */
public class SchemaException extends SlottedException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what is missing or wrong, and how to fix it
     */
    public SchemaException(String message) {
        super(message);
    }

    /**
     * Creates the exception around the driver's failure.
     *
     * @param message what is missing or wrong, and how to fix it
     * @param cause the driver's failure
     */
    public SchemaException(String message, Throwable cause) {
        super(message, cause);
    }
}
