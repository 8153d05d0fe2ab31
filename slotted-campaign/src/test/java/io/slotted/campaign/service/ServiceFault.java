package io.slotted.campaign.service;

/**
 * The faults the service campaign makes to its {@code slotted serve} processes, beside the wire's
 * and the database server's ({@link io.slotted.campaign.faults.ServerFault}).
 */
enum ServiceFault {
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
