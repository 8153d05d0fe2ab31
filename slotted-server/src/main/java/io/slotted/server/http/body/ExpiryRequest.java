package io.slotted.server.http.body;

import io.slotted.server.config.Excerpt;
import io.slotted.server.http.error.ErrorCode;
import io.slotted.server.http.error.HttpError;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Set;

/**
 * The body of {@code PUT /v1/counters/{type}/{id}/expiry}: when the counter expires, either at a
 * time, {@code {"at": "2026-12-02T10:00:00Z"}} (ISO-8601, with its offset), or after a time to
 * live from now, {@code {"in": "PT1H"}} (an ISO-8601 duration). One of the two, never both. A time
 * already past expires the counter at once.
 *
 * @param at the time, or null when {@code in} was given
 * @param in the time to live, or null when {@code at} was given
 */
public record ExpiryRequest(Instant at, Duration in) {
    private static final String EXAMPLE = "{\"at\": \"2026-12-02T10:00:00Z\"} or {\"in\": \"PT1H\"}";
    private static final Set<String> FIELDS = Set.of("at", "in");

    /**
     * Reads an expiry.
     *
     * @param body the request's body
     * @return the expiry
     * @throws HttpError {@link ErrorCode#BAD_EXPIRY} for a missing, doubled or malformed time;
     *     {@link ErrorCode#BAD_BODY} for a body that is not an object or has another field
     */
    public static ExpiryRequest read(byte[] body) {
        ExpiryRequest request = JsonBody.read(body, null, ExpiryRequest::fields);
        if (request == null || (request.at == null) == (request.in == null)) {
            throw new HttpError(ErrorCode.BAD_EXPIRY, "the body must hold either \"at\", a time, or \"in\", a time"
                    + " to live, as in " + EXAMPLE + ", sent with Content-Type: application/json");
        }
        return request;
    }

    /**
     * When the counter expires.
     *
     * @param now the time now
     * @return {@code at}, or {@code in} from now
     * @throws HttpError {@link ErrorCode#BAD_EXPIRY} if that is beyond what a time holds
     */
    public Instant from(Instant now) {
        if (at != null) {
            return at;
        }
        try {
            return now.plus(in);
        } catch (ArithmeticException | java.time.DateTimeException e) {
            throw new HttpError(ErrorCode.BAD_EXPIRY, "\"in\" is too long: give a time to live of at most a few"
                    + " thousand years, such as \"P365D\"");
        }
    }

    private static ExpiryRequest fields(JsonBody body) {
        body.requireObject("the body", EXAMPLE);
        Instant at = null;
        Duration in = null;
        String field;
        while ((field = body.nextField("the body", FIELDS, EXAMPLE)) != null) {
            String text = body.scalarText();
            if (field.equals("at")) {
                at = parse(text, "at", "a time such as \"2026-12-02T10:00:00Z\"", Instant::parse);
            } else {
                in = parse(text, "in", "an ISO-8601 duration such as \"PT1H\" or \"PT90S\"", Duration::parse);
            }
        }
        return new ExpiryRequest(at, in);
    }

    private static <T> T parse(String text, String field, String shape, java.util.function.Function<String, T> parser) {
        if (text == null) {
            throw new HttpError(ErrorCode.BAD_EXPIRY, "\"" + field + "\" must be " + shape + ", as a JSON string");
        }
        try {
            return parser.apply(text);
        } catch (DateTimeParseException e) {
            throw new HttpError(ErrorCode.BAD_EXPIRY, "\"" + field + "\" must be " + shape + ", but was \""
                    + Excerpt.of(text) + "\"");
        }
    }
}
