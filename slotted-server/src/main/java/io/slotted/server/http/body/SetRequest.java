package io.slotted.server.http.body;

import io.slotted.server.http.error.ErrorCode;
import io.slotted.server.http.error.HttpError;
import java.util.Set;

/**
 * The body of {@code PUT /v1/counters/{type}/{id}}: {@code {"count": 1000}}, the counter's new
 * total, a JSON integer in the signed 64-bit range (0 and negative counts included). The field is
 * required: a set has no default to fall back on.
 *
 * @param count the new total
 */
public record SetRequest(long count) {
    private static final String EXAMPLE = "{\"count\": 1000}";
    private static final Set<String> FIELDS = Set.of("count");

    /**
     * Reads a set.
     *
     * @param body the request's body
     * @return the set
     * @throws HttpError {@link ErrorCode#BAD_COUNT} for a missing body or count, or a count that is
     *     not an integer in range; {@link ErrorCode#BAD_BODY} for a body that is not an object or
     *     has another field; {@link ErrorCode#MALFORMED_JSON} for a body that is not JSON
     */
    public static SetRequest read(byte[] body) {
        Long count = JsonBody.read(body, null, SetRequest::count);
        if (count == null) {
            throw new HttpError(ErrorCode.BAD_COUNT, "the body must hold the new total as an integer"
                    + " \"count\", as in " + EXAMPLE + ", sent with Content-Type: application/json");
        }
        return new SetRequest(count);
    }

    private static Long count(JsonBody body) {
        body.requireObject("the body", EXAMPLE);
        Long count = null;
        while (body.nextField("the body", FIELDS, EXAMPLE) != null) {
            count = body.longValue(ErrorCode.BAD_COUNT, "count");
        }
        return count;
    }
}
