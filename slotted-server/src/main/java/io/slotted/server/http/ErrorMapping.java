package io.slotted.server.http;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import io.slotted.QuotaExceededException;
import io.slotted.SlottedException;
import io.slotted.server.config.Excerpt;
import io.slotted.server.http.body.JsonBody;
import io.slotted.server.http.error.ErrorCode;
import io.slotted.server.http.error.HttpError;
import io.slotted.server.http.error.QuotaHeaders;
import io.slotted.server.http.response.JsonResponse;
import io.slotted.server.store.FailureMessage;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns whatever a handler throws into the contract's error shape: an {@link HttpError} as it is,
 * a failure the library reported as the code it stands for, the errors Javalin raises itself (no
 * route, wrong method, body too large) with a message that says what to do, and anything else as
 * {@link ErrorCode#INTERNAL_ERROR}, logged with its stack trace.
 */
final class ErrorMapping {
    /** Where the service's endpoints are, for a request that found none. */
    static final String ENDPOINTS = "the endpoints are under /v1/counters, /v1/increments,"
            + " /v1/doctor, /healthz, /readyz and /metrics, and /openapi.json describes them all";

    private static final Logger log = LoggerFactory.getLogger(ErrorMapping.class);

    private ErrorMapping() {
    }

    /**
     * Registers the mapping.
     *
     * @param routes the routes of the app being configured
     */
    static void register(RoutesConfig routes) {
        routes.exception(HttpError.class, (e, ctx) -> JsonResponse.error(ctx, e));
        routes.exception(HttpResponseException.class,
                (e, ctx) -> JsonResponse.error(ctx, ofJavalin(e, ctx)));
        routes.exception(SlottedException.class, ErrorMapping::library);
        routes.exception(Exception.class, (e, ctx) -> {
            log.error("{} {} failed unexpectedly", ctx.method(), ctx.path(), e);
            JsonResponse.error(ctx, new HttpError(ErrorCode.INTERNAL_ERROR, "the server failed"
                    + " unexpectedly and logged why; if this was a write, retry it with the same"
                    + " Idempotency-Key to apply it at most once"));
        });
    }

    private static void library(SlottedException e, Context ctx) {
        HttpError error = HttpError.of(e);
        // An overflow or a reused key is the client's business; a database failure is ours.
        if (error.code().serverFault()) {
            log.warn("{} {} failed: {}", ctx.method(), ctx.path(), FailureMessage.of(e));
        } else {
            log.debug("{} {} refused: {}", ctx.method(), ctx.path(), e.getMessage());
        }
        if (e instanceof QuotaExceededException quota) {
            QuotaHeaders.refused(ctx, quota, Instant.now());
        }
        JsonResponse.error(ctx, error);
    }

    private static HttpError ofJavalin(HttpResponseException e, Context ctx) {
        ErrorCode code = ErrorCode.forBareStatus(e.getStatus());
        String request = ctx.method().name() + " " + Excerpt.of(ctx.path());
        return switch (code) {
            case NOT_FOUND -> new HttpError(code, "there is no endpoint " + request + ": "
                    + ENDPOINTS);
            case METHOD_NOT_ALLOWED -> {
                String allowed = e.getDetails().getOrDefault("availableMethods", "");
                if (!allowed.isEmpty()) {
                    ctx.header("Allow", allowed);
                }
                yield new HttpError(code, request + " is not allowed: this path takes "
                        + (allowed.isEmpty() ? "other methods" : allowed));
            }
            case BODY_TOO_LARGE -> JsonBody.tooLarge();
            default -> new HttpError(code, e.getMessage());
        };
    }
}
