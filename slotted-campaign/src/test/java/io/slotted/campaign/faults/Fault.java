package io.slotted.campaign.faults;

/**
 * The faults a {@link FaultProxy} makes. The first six are armed for the next request that carries
 * a commit (the word {@code COMMIT}, or Slotted's flush comment); the last two act at once.
 */
public enum Fault {
    /** The client's connection is cut and the request never reaches the server, which rolls back. */
    RESET_BEFORE_COMMIT,
    /** The request reaches the server, which commits; the client is cut before any answer reaches it. */
    RESET_AFTER_COMMIT,
    /**
     * The request reaches the server and its answer is swallowed; the client's connection stays open
     * and silent until the client's own timeout gives up, or the proxy closes it later.
     */
    ANSWER_DROPPED,
    /**
     * The request is held and the client cut at once; the request reaches the server later, on the
     * same server connection, when the client has long given up and moved on.
     */
    LATE_DELIVERY,
    /**
     * The request is held and the client left waiting; once the client's own timeout gives up and
     * closes its connection, the request reaches the server.
     */
    HELD_PAST_TIMEOUT,
    /** The first part of the request reaches the server, then both sides are cut. */
    CUT_MID_PACKET,
    /** Every open connection is cut at once. */
    RESET_ALL,
    /** Every open connection is cut, and new ones are refused for a while. */
    BLACKOUT
}
