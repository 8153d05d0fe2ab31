package io.slotted;

/**
 * The root of every failure Slotted reports about the database or the data in it.
 *
 * <p>Unchecked, like JDBC wrappers in Jdbi and Spring. When the failure came from the driver the
 * {@link java.sql.SQLException} is kept as the cause and its SQLState and vendor code are in the
 * message. Mistakes in the caller's own arguments (a delta of 0, a bad builder setting) are
 * reported as {@link IllegalArgumentException} instead, the Java convention for programming errors.
 */
public class SlottedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates an exception with a message that says what happened and what to do about it.
     *
     * @param message the explanation shown to a person
     */
    public SlottedException(String message) {
        super(message);
    }

    /**
     * Creates an exception that wraps the failure underneath it.
     *
     * @param message the explanation shown to a person
     * @param cause the failure underneath, usually a {@link java.sql.SQLException}
     */
    public SlottedException(String message, Throwable cause) {
        super(message, cause);
    }
}
