package io.slotted.campaign.service;

import io.slotted.campaign.CampaignFault;

/**
 * Every fault the service campaign mixes into its workload: the wire's and the database server's,
 * as {@link CampaignFault} makes them, and the service processes'.
 */
public enum ServiceFault {
    /** {@link CampaignFault#RESET_BEFORE_COMMIT}. */
    RESET_BEFORE_COMMIT,
    /** {@link CampaignFault#RESET_AFTER_COMMIT}. */
    RESET_AFTER_COMMIT,
    /** {@link CampaignFault#ANSWER_DROPPED}. */
    ANSWER_DROPPED,
    /** {@link CampaignFault#LATE_DELIVERY}. */
    LATE_DELIVERY,
    /** {@link CampaignFault#HELD_PAST_TIMEOUT}. */
    HELD_PAST_TIMEOUT,
    /** {@link CampaignFault#CUT_MID_PACKET}. */
    CUT_MID_PACKET,
    /** {@link CampaignFault#RESET_ALL}. */
    RESET_ALL,
    /** {@link CampaignFault#BLACKOUT}. */
    BLACKOUT,
    /** {@link CampaignFault#PAUSE_DATABASE}. */
    PAUSE_DATABASE,
    /** {@link CampaignFault#KILL_DATABASE}. */
    KILL_DATABASE,
    /**
     * A service process killed with SIGKILL, as a host that dies kills it, and started again after
     * 0.2 to 2 s: what it had accepted and not written is lost, unacknowledged.
     */
    KILL_SERVICE,
    /**
     * A service process stopped with SIGTERM, as a redeploy stops it — requests in flight finish,
     * accepted increments are written — and started again.
     */
    RESTART_SERVICE
}
