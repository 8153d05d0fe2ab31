package io.slotted.server.config;

/**
 * A well-formed counter type name that is not configured. It is told apart from a malformed type
 * (a plain {@link IllegalArgumentException}) because a client asked for something that does not
 * exist rather than for something that cannot: HTTP answers 404 to one and 400 to the other.
 */
public final class UnknownTypeException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message the name asked for and the names that are configured
     */
    public UnknownTypeException(String message) {
        super(message);
    }
}
