package io.slotted.server.auth;

/**
 * What an {@link AccessCheck} decided. Each front end words the refusals in its own protocol: HTTP
 * answers 401 or 403, the Redis protocol {@code NOAUTH} or {@code NOPERM}.
 */
public enum AccessDecision {
    /** The caller may go ahead. */
    GRANTED,
    /** No token was presented, and one is needed. */
    NO_TOKEN,
    /** The presented token is not one of the accepted tokens. */
    UNKNOWN_TOKEN,
    /** The token is known but holds no scope that covers the one required. */
    LACKS_SCOPE,
    /**
     * Too many wrong tokens came from the caller's address lately: this one was not checked, and
     * the caller should wait before it tries again.
     */
    HELD_BACK
}
