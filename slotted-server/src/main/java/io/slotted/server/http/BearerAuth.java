package io.slotted.server.http;

import io.javalin.http.Context;
import io.slotted.server.auth.AccessDecision;
import io.slotted.server.auth.GuardedAccess;
import io.slotted.server.auth.Scope;
import io.slotted.server.http.error.ErrorCode;
import io.slotted.server.http.error.HttpError;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * The access check in HTTP terms: the token comes from the {@code Authorization: Bearer} header,
 * and a refusal is a 401 (with the {@code WWW-Authenticate} challenge RFC 6750 asks for) or a 403.
 */
final class BearerAuth {
    private static final String BEARER = "bearer ";
    private static final String CHALLENGE = "WWW-Authenticate";
    private static final String RETRY_AFTER = "Retry-After";

    private final GuardedAccess access;

    BearerAuth(GuardedAccess access) {
        this.access = access;
    }

    /**
     * Lets the request through or stops it.
     *
     * @param ctx the request
     * @param required the scope the endpoint needs
     * @throws HttpError {@link ErrorCode#UNAUTHORIZED} without a known token,
     *     {@link ErrorCode#FORBIDDEN} when the token lacks the scope,
     *     {@link ErrorCode#AUTH_HELD_BACK} when the caller's address tried too many wrong tokens
     */
    void require(Context ctx, Scope required) {
        InetAddress from = clientAddress(ctx);
        AccessDecision decision = access.check(from, bearerToken(ctx), required);
        if (decision != AccessDecision.GRANTED) {
            throw refusal(ctx, decision, required, from);
        }
    }

    private HttpError refusal(Context ctx, AccessDecision decision, Scope required, InetAddress from) {
        return switch (decision) {
            case HELD_BACK -> heldBack(ctx, access.secondsToWait(from), from);
            case NO_TOKEN -> unauthorized(ctx, "Bearer", "this endpoint needs a token: send"
                    + " 'Authorization: Bearer <token>' with a token from the server's token file");
            case UNKNOWN_TOKEN -> unauthorized(ctx, "Bearer error=\"invalid_token\"", "the token is"
                    + " not known to this server: check it against the server's token file");
            case LACKS_SCOPE -> new HttpError(ErrorCode.FORBIDDEN, "the token lacks the '"
                    + required.label() + "' scope this endpoint needs: use a token with "
                    + required.label() + (required == Scope.ADMIN ? "" : " (or a wider scope)"));
            case GRANTED -> throw new IllegalArgumentException("a granted request is no refusal");
        };
    }

    private static HttpError heldBack(Context ctx, long seconds, InetAddress from) {
        ctx.header(RETRY_AFTER, Long.toString(seconds));
        return new HttpError(ErrorCode.AUTH_HELD_BACK, "too many wrong tokens came from "
                + from.getHostAddress() + " lately: the token was not checked; try again in "
                + seconds + " s with a token from the server's token file");
    }

    /**
     * The connection's peer: the address that knocked, not one a header claims, which a guesser
     * would simply vary.
     */
    private static InetAddress clientAddress(Context ctx) {
        try {
            return InetAddress.getByName(ctx.req().getRemoteAddr()); // a literal: no lookup
        } catch (UnknownHostException e) {
            throw new IllegalStateException("Jetty gave a client address that is no address: "
                    + ctx.req().getRemoteAddr(), e);
        }
    }

    private static HttpError unauthorized(Context ctx, String challenge, String message) {
        ctx.header(CHALLENGE, challenge);
        return new HttpError(ErrorCode.UNAUTHORIZED, message);
    }

    /** The token of an {@code Authorization: Bearer} header, or null when there is none. */
    private static String bearerToken(Context ctx) {
        String header = ctx.header("Authorization");
        if (header == null || !header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return null;
        }
        String token = header.substring(BEARER.length()).strip();
        return token.isEmpty() ? null : token;
    }
}
