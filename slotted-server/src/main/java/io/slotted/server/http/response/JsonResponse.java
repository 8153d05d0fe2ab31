package io.slotted.server.http.response;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.javalin.http.ContentType;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import io.slotted.server.http.error.HttpError;

/** Writes JSON responses: a success as its record, an error as {@code {"error": {…}}}. */
public final class JsonResponse {
    /** The media type of every body the service writes but {@code /metrics}. */
    public static final String CONTENT_TYPE = ContentType.JSON;
    /** The request attribute that holds the {@link io.slotted.server.http.error.ErrorCode} answered. */
    public static final String ERROR_CODE = "slotted.error";

    private static final ObjectMapper MAPPER = JsonMapper.builder().build();

    private JsonResponse() {
    }

    /**
     * Answers 200 with a JSON body.
     *
     * @param ctx the request
     * @param body one of the response records
     */
    public static void ok(Context ctx, Object body) {
        send(ctx, HttpStatus.OK.getCode(), body);
    }

    /**
     * Answers 202 with a JSON body: taken on, not yet done.
     *
     * @param ctx the request
     * @param body one of the response records
     */
    public static void accepted(Context ctx, Object body) {
        send(ctx, HttpStatus.ACCEPTED.getCode(), body);
    }

    /**
     * Answers with an error, in the status its code carries.
     *
     * @param ctx the request
     * @param error the code and message
     */
    public static void error(Context ctx, HttpError error) {
        ctx.attribute(ERROR_CODE, error.code());
        send(ctx, error.code().status(), error.body());
    }

    /**
     * A body as JSON bytes.
     *
     * @param body one of the response records
     * @return its JSON, UTF-8
     */
    public static byte[] bytes(Object body) {
        try {
            return MAPPER.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("records of strings and numbers always serialize", e);
        }
    }

    private static void send(Context ctx, int status, Object body) {
        ctx.status(status).contentType(CONTENT_TYPE).result(bytes(body));
    }
}
