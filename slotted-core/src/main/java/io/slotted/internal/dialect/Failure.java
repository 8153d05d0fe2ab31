package io.slotted.internal.dialect;

/** What a {@link java.sql.SQLException} means for Slotted, as decided by a {@link Dialect}. */
public enum Failure {
    /** Deadlock, lock-wait timeout or serialization failure: nothing was applied; try again. */
    CONTENTION("lock conflict (deadlock, lock-wait timeout or serialization failure)"),
    /**
     * Two sessions inserted the same new row at once. Upserts meet this only on H2, whose
     * {@code MERGE} can race on a new slot row: nothing was applied and trying again finds the row.
     */
    DUPLICATE_KEY("two writers created the same row at once"),
    /** The connection could not be made or was lost. */
    CONNECTION("database connection failed"),
    /** A value left its column's range. */
    OVERFLOW("value out of range"),
    /** The counter table does not exist. */
    MISSING_TABLE("table does not exist"),
    /** The table exists but a column Slotted uses is missing. */
    WRONG_SHAPE("table lacks a column Slotted uses"),
    /** The database user lacks a privilege the statement needs. */
    NOT_PERMITTED("the database user lacks a privilege"),
    /** Anything else: not retried, reported as it is. */
    OTHER("database error");

    private final String description;

    Failure(String description) {
        this.description = description;
    }

    /**
     * Whether the failed work may simply be tried again because nothing was applied.
     *
     * @return true for contention and duplicate-key races
     */
    public boolean retryable() {
        return this == CONTENTION || this == DUPLICATE_KEY;
    }

    /**
     * A few words for messages.
     *
     * @return what this failure is, for a person
     */
    public String description() {
        return description;
    }
}
