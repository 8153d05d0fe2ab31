package io.slotted.server.http.body;

import com.fasterxml.jackson.core.JsonToken;
import io.slotted.Increment;
import io.slotted.server.config.CounterType;
import io.slotted.server.config.TypeNames;
import io.slotted.server.http.HttpFrontEnd;
import io.slotted.server.http.error.ErrorCode;
import io.slotted.server.http.error.HttpError;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The body of {@code POST /v1/increments}: {@code {"increments": [{"type": "downloads", "id": 1,
 * "delta": 1}, …]}}, at most {@value #MAX_INCREMENTS} of them. Each item's {@code type} is a
 * configured name or a {@code record_type} number (as a JSON string or integer), {@code id} a JSON
 * integer, and {@code delta} as for a single increment: a non-zero JSON integer, 1 when absent.
 *
 * <p>Items are checked as they are read, in the order written, so the first mistake is the one
 * named, and the limit is checked at the item past it, before the rest of the body is parsed.
 *
 * @param increments the increments, in the order given
 */
public record BatchRequest(List<Increment> increments) {
    /** The most increments one batch may hold. */
    public static final int MAX_INCREMENTS = HttpFrontEnd.MAX_INCREMENTS;

    private static final String EXAMPLE =
            "{\"increments\": [{\"type\": \"downloads\", \"id\": 1, \"delta\": 1}]}";
    private static final String ITEM_EXAMPLE = "{\"type\": \"downloads\", \"id\": 1, \"delta\": 1}";
    private static final Set<String> BODY_FIELDS = Set.of("increments");
    private static final Set<String> ITEM_FIELDS = Set.of("type", "id", "delta");

    /**
     * A batch of increments.
     *
     * @param increments the increments, copied
     */
    public BatchRequest {
        increments = List.copyOf(increments);
    }

    /**
     * Reads a batch.
     *
     * @param body the request's body
     * @param types the configured type names
     * @return the batch
     * @throws HttpError for a missing or malformed body, a malformed item, too many items, or an
     *     unknown type name; the message names the item
     */
    public static BatchRequest read(byte[] body, TypeNames types) {
        BatchRequest batch = JsonBody.read(body, null, json -> parse(json, types));
        if (batch == null) {
            throw missing();
        }
        return batch;
    }

    private static BatchRequest parse(JsonBody body, TypeNames types) {
        body.requireObject("the body", EXAMPLE);
        List<Increment> increments = null;
        while (body.nextField("the body", BODY_FIELDS, EXAMPLE) != null) {
            increments = items(body, types);
        }
        if (increments == null) {
            throw missing();
        }
        return new BatchRequest(increments);
    }

    private static HttpError missing() {
        return new HttpError(ErrorCode.BAD_BODY, "the body must hold an array \"increments\","
                + " as in " + EXAMPLE + ", sent with Content-Type: application/json");
    }

    private static List<Increment> items(JsonBody body, TypeNames types) {
        if (body.token() != JsonToken.START_ARRAY) {
            throw new HttpError(ErrorCode.BAD_BODY, "\"increments\" must be an array, as in "
                    + EXAMPLE + ", but was " + body.brief());
        }
        List<Increment> increments = new ArrayList<>();
        while (body.next() != JsonToken.END_ARRAY) {
            if (increments.size() == MAX_INCREMENTS) {
                throw new HttpError(ErrorCode.TOO_MANY_INCREMENTS, "a batch may hold at most "
                        + MAX_INCREMENTS + " increments, but had more: split it into several"
                        + " requests");
            }
            increments.add(item(body, "increments[" + increments.size() + "]", types));
        }
        return increments;
    }

    private static Increment item(JsonBody body, String where, TypeNames types) {
        body.requireObject(where, ITEM_EXAMPLE);
        CounterType type = null;
        Long id = null;
        long delta = 1;
        for (String field; (field = body.nextField(where, ITEM_FIELDS, ITEM_EXAMPLE)) != null; ) {
            switch (field) {
                case "type" -> type = type(body, where + ".type", types);
                case "id" -> id = body.longValue(ErrorCode.BAD_ID, where + ".id");
                default -> delta = body.delta(where + ".delta");
            }
        }
        if (type == null) {
            throw new HttpError(ErrorCode.BAD_TYPE, where + ".type must be a type name or a"
                    + " record_type number, but was missing");
        }
        if (id == null) {
            throw new HttpError(ErrorCode.BAD_ID, where + ".id must be a JSON integer from "
                    + Long.MIN_VALUE + " to " + Long.MAX_VALUE + ", but was missing");
        }
        return new Increment(type.recordType(), id, delta);
    }

    private static CounterType type(JsonBody body, String where, TypeNames types) {
        String text = body.scalarText();
        if (text == null) {
            throw new HttpError(ErrorCode.BAD_TYPE, where + " must be a type name or a record_type"
                    + " number, but was " + body.brief());
        }
        try {
            return types.resolve(text);
        } catch (IllegalArgumentException e) {
            throw HttpError.ofType(e, where + ": ");
        }
    }
}
