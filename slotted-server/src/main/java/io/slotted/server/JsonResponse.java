package io.slotted.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.javalin.http.Context;
import java.util.LinkedHashMap;
import java.util.Map;

/** Writes JSON responses: successes as given, errors as {@code {"error": {"code", "message"}}}. */
final class JsonResponse {
    private JsonResponse() {
    }

    /**
     * Answers with a JSON body.
     *
     * @param ctx the request
     * @param status the HTTP status
     * @param body what to serialize, usually an ordered map
     */
    static void send(Context ctx, int status, Object body) {
        try {
            ctx.status(status).contentType("application/json").result(JsonBody.MAPPER.writeValueAsBytes(body));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("maps of strings and numbers always serialize", e);
        }
    }

    /**
     * Answers with an error.
     *
     * @param ctx the request
     * @param error the status, code and message
     */
    static void error(Context ctx, ApiError error) {
        send(ctx, error.status(), errorBody(error));
    }

    /**
     * The body of an error response.
     *
     * @param error the code and message
     * @return {@code {"error": {"code": …, "message": …}}}, in that order
     */
    static Map<String, Object> errorBody(ApiError error) {
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("code", error.code());
        detail.put("message", error.getMessage());
        return Map.of("error", detail);
    }
}
