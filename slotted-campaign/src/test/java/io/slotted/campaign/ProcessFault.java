package io.slotted.campaign;

/**
 * The faults the campaign makes to its application processes, beside the wire's and the database
 * server's ({@link io.slotted.campaign.faults.ServerFault}).
 */
enum ProcessFault {
    /** A library instance's pool is shut under it, cutting what is on the wire; a new instance takes its place. */
    CRASH_PROCESS,
    /** A library instance is closed while its flushes are under way; a new one takes its place. */
    CLOSE_PROCESS
}
