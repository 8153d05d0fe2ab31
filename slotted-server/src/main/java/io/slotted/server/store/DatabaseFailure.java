package io.slotted.server.store;

/**
 * A database that could not be used: unreachable, a URL the driver refuses, or a failure while
 * working on it. The message names the database (its password masked) and the cause, in one line,
 * so that a front end can show it as it is.
 */
public final class DatabaseFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the failure.
     *
     * @param message what could not be done and why, naming the database
     * @param cause the failure underneath
     */
    public DatabaseFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
