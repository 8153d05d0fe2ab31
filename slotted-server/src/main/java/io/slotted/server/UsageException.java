package io.slotted.server;

/**
 * A mistake in how the command line or the service was configured: a bad option value, a token file
 * that cannot be read, a non-loopback address without tokens. The command prints the message as one
 * line and exits with status 2, so a message must say what to change, in one sentence.
 */
public final class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what is wrong and how to fix it, one line
     */
    public UsageException(String message) {
        super(message);
    }

    /**
     * Creates the exception around the failure that revealed the mistake.
     *
     * @param message what is wrong and how to fix it, one line
     * @param cause what failed, such as the read of a file named by an option
     */
    public UsageException(String message, Throwable cause) {
        super(message, cause);
    }
}
