package io.slotted.campaign.faults;

/** The faults made to the database server's processes, beside the wire's ({@link Fault}). */
public enum DatabaseFault {
    /** The database server is paused (SIGSTOP) for 0.5 to 8 s, then continued. */
    PAUSE_DATABASE,
    /** The database server is killed (SIGKILL) and started again, recovering from the crash. */
    KILL_DATABASE
}
