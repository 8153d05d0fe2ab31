package io.slotted.server.auth;

/**
 * Decides whether a caller may do something, from the token it presented and the scope the action
 * needs. It knows no protocol: each front end finds the token in its own way (an HTTP
 * {@code Authorization: Bearer} header, a Redis {@code AUTH} command) and answers a refusal in its
 * own terms.
 *
 * <p>With tokens ({@link AccessTokens}), the token must be known and hold the scope. Without them
 * ({@link #open()}), everyone may, which the service allows only when it listens on a loopback
 * address.
 */
@FunctionalInterface
public interface AccessCheck {
    /**
     * Decides on one call.
     *
     * @param token the presented token, or null when none was presented
     * @param required the scope the action needs
     * @return {@link AccessDecision#GRANTED}, or why not
     */
    AccessDecision check(String token, Scope required);

    /**
     * No checks: for a service reachable only from its own machine.
     *
     * @return a check that grants everything
     */
    static AccessCheck open() {
        return (token, required) -> AccessDecision.GRANTED;
    }
}
