package io.slotted.server.auth;

import java.net.InetAddress;

/**
 * The access check as a client at an address meets it: every wrong token it presents is counted
 * against its address ({@link FailedAuthentications}), and once the address has used up its
 * failures, its tokens are not checked until it has waited. Both front ends share one, so an
 * address's failures count the same over HTTP and the Redis protocol.
 */
public final class GuardedAccess {
    private final AccessCheck access;
    private final FailedAuthentications failures;

    /**
     * Guards a check.
     *
     * @param access who may do what
     * @param failures the failures of each address
     */
    public GuardedAccess(AccessCheck access, FailedAuthentications failures) {
        this.access = access;
        this.failures = failures;
    }

    /**
     * Decides on a token a client presents.
     *
     * @param from the client's address
     * @param token the presented token, or null when none was presented
     * @param required the scope the action needs
     * @return {@link AccessDecision#GRANTED}, or why not; {@link AccessDecision#HELD_BACK} when the
     *     address must wait before its token is checked
     */
    public AccessDecision check(InetAddress from, String token, Scope required) {
        boolean presented = token != null && !token.isBlank();
        if (presented && !failures.allows(from)) {
            return AccessDecision.HELD_BACK;
        }
        AccessDecision decision = access.check(token, required);
        if (decision == AccessDecision.UNKNOWN_TOKEN) {
            failures.failed(from);
        }
        return decision;
    }

    /**
     * Decides on a token this connection presented before and had accepted, as the Redis protocol
     * asks on every command after {@code AUTH}: no guess, so nothing to count.
     *
     * @param token the accepted token, or null when none was
     * @param required the scope the action needs
     * @return {@link AccessDecision#GRANTED}, or why not
     */
    public AccessDecision checkAccepted(String token, Scope required) {
        return access.check(token, required);
    }

    /**
     * Whether the service asks for tokens at all.
     *
     * @return false when every caller may do everything
     */
    public boolean needsTokens() {
        return access.check(null, Scope.ADMIN) != AccessDecision.GRANTED;
    }

    /**
     * How long an address that was {@link AccessDecision#HELD_BACK held back} should wait.
     *
     * @param from the client's address
     * @return whole seconds, at least 1
     */
    public long secondsToWait(InetAddress from) {
        return failures.secondsToWait(from);
    }
}
