package io.slotted.server;

import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;

/**
 * Restates the errors Javalin raises itself — no route, wrong method, body too large — in the
 * contract's error shape, with a message that says what to do.
 */
final class HttpErrors {
    private HttpErrors() {
    }

    static ApiError of(HttpResponseException e, Context ctx) {
        int status = e.getStatus();
        String request = ctx.method().name() + " " + TypeNames.abbreviated(ctx.path());
        return switch (status) {
            case 404 -> new ApiError(404, "not_found", "there is no endpoint " + request
                    + ": the endpoints are under /v1/counters, /v1/increments, /healthz, /readyz"
                    + " and /metrics");
            case 405 -> {
                String allowed = e.getDetails().getOrDefault("availableMethods", "");
                if (!allowed.isEmpty()) {
                    ctx.header("Allow", allowed);
                }
                yield new ApiError(405, "method_not_allowed", request + " is not allowed: this path"
                        + " takes " + (allowed.isEmpty() ? "other methods" : allowed));
            }
            case 413 -> JsonBody.tooLarge();
            default -> new ApiError(status, "http_" + status, e.getMessage());
        };
    }
}
