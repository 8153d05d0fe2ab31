package io.slotted.campaign;

import io.slotted.campaign.faults.Fault;

/**
 * Every fault the campaign mixes into its workload: the wire's, made by the fault proxy (each a
 * {@link Fault} of the same name, armed for the next one to three commits or made at once), the
 * database server's, and the application processes'.
 */
public enum CampaignFault {
    /** {@link Fault#RESET_BEFORE_COMMIT}. */
    RESET_BEFORE_COMMIT,
    /** {@link Fault#RESET_AFTER_COMMIT}. */
    RESET_AFTER_COMMIT,
    /** {@link Fault#ANSWER_DROPPED}, the connection closed after 30 s if its client has not given up. */
    ANSWER_DROPPED,
    /** {@link Fault#LATE_DELIVERY}: half the time 10 to 300 ms late, while the retry runs; half 0.5 to 5 s late. */
    LATE_DELIVERY,
    /** {@link Fault#HELD_PAST_TIMEOUT}. */
    HELD_PAST_TIMEOUT,
    /** {@link Fault#CUT_MID_PACKET}. */
    CUT_MID_PACKET,
    /** {@link Fault#RESET_ALL}. */
    RESET_ALL,
    /** {@link Fault#BLACKOUT}, for 0.5 to 4 s. */
    BLACKOUT,
    /** The database server is paused (SIGSTOP) for 0.5 to 8 s, then continued. */
    PAUSE_DATABASE,
    /** The database server is killed (SIGKILL) and started again, recovering from the crash. */
    KILL_DATABASE,
    /** A library instance's pool is shut under it, cutting what is on the wire; a new instance takes its place. */
    CRASH_PROCESS,
    /** A library instance is closed while its flushes are under way; a new one takes its place. */
    CLOSE_PROCESS
}
