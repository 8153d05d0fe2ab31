package io.slotted.server;

import io.javalin.http.Context;
import java.util.Set;

/**
 * Decides whether a request may use an endpoint: with tokens, the {@code Authorization: Bearer}
 * token must be known and hold the endpoint's scope; without tokens, every request may, which the
 * service allows only when it listens on a loopback address (see {@link ServerSettings}).
 */
final class AccessControl {
    private static final String BEARER = "bearer ";

    private final AccessTokens tokens;

    private AccessControl(AccessTokens tokens) {
        this.tokens = tokens;
    }

    /**
     * Access checked against tokens.
     *
     * @param tokens the accepted tokens
     * @return the access control
     */
    static AccessControl withTokens(AccessTokens tokens) {
        return new AccessControl(tokens);
    }

    /**
     * No checks: for a service reachable only from its own machine.
     *
     * @return the access control
     */
    static AccessControl open() {
        return new AccessControl(null);
    }

    /**
     * Lets the request through or stops it.
     *
     * @param ctx the request
     * @param required the scope the endpoint needs
     * @throws ApiError 401 without a known token, 403 when the token lacks the scope
     */
    void require(Context ctx, Scope required) {
        if (tokens == null) {
            return;
        }
        String header = ctx.header("Authorization");
        if (header == null || !header.regionMatches(true, 0, BEARER, 0, BEARER.length())
                || header.substring(BEARER.length()).isBlank()) {
            ctx.header("WWW-Authenticate", "Bearer");
            throw new ApiError(401, "unauthorized", "this endpoint needs a token: send"
                    + " 'Authorization: Bearer <token>' with a token from the server's token file");
        }
        Set<Scope> scopes = tokens.scopesOf(header.substring(BEARER.length()).strip())
                .orElseThrow(() -> {
                    ctx.header("WWW-Authenticate", "Bearer error=\"invalid_token\"");
                    return new ApiError(401, "unauthorized", "the token is not known to this"
                            + " server: check it against the server's token file");
                });
        if (scopes.stream().noneMatch(scope -> scope.covers(required))) {
            throw new ApiError(403, "forbidden", "the token lacks the '" + required.label()
                    + "' scope this endpoint needs: use a token with " + required.label()
                    + (required == Scope.ADMIN ? "" : " (or a wider scope)"));
        }
    }
}
