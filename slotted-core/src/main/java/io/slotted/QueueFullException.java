package io.slotted;

/**
 * An increment could not be queued because the write queue stayed full for the configured wait.
 * Nothing was applied; the caller may retry later. A full queue means the database is writing
 * slower than increments arrive, or is down.
 */
public class QueueFullException extends SlottedException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message the queue's capacity, how many increments wait, and how long the caller waited
     */
    public QueueFullException(String message) {
        super(message);
    }
}
