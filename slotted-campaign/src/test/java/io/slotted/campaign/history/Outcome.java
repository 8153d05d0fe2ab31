package io.slotted.campaign.history;

/** What the caller of an operation learned of it. */
public enum Outcome {
    /** Applied (a write) or answered (a read). */
    OK,
    /** Surely not applied: refused, or failed with an error that says nothing changed. */
    FAILED,
    /** May or may not have been applied: it stays open for ever, as Jepsen keeps it. */
    UNKNOWN
}
