package io.slotted.server.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.slotted.Increment;
import io.slotted.server.config.CounterType;
import io.slotted.server.config.TypeNames;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The body of {@code POST /v1/increments}: {@code {"increments": [{"type": "downloads", "id": 1,
 * "delta": 1}, …]}}, at most {@value #MAX_INCREMENTS} of them. Each item's {@code type} is a
 * configured name or a {@code record_type} number (as a JSON string or integer), {@code id} a JSON
 * integer, and {@code delta} as for a single increment: a non-zero JSON integer, 1 when absent.
 *
 * @param increments the increments, in the order given
 */
record BatchRequest(List<Increment> increments) {
    /** The most increments one batch may hold. */
    static final int MAX_INCREMENTS = HttpFrontEnd.MAX_INCREMENTS;

    private static final String EXAMPLE =
            "{\"increments\": [{\"type\": \"downloads\", \"id\": 1, \"delta\": 1}]}";
    private static final String ITEM_EXAMPLE = "{\"type\": \"downloads\", \"id\": 1, \"delta\": 1}";

    BatchRequest {
        increments = List.copyOf(increments);
    }

    /**
     * Reads a batch.
     *
     * @param body the parsed body
     * @param types the configured type names
     * @return the batch
     * @throws HttpError for a malformed batch or item, or an unknown type name; the message names
     *     the item
     */
    static BatchRequest parse(JsonNode body, TypeNames types) {
        ObjectNode root = JsonBody.object(body, "the body", Set.of("increments"), EXAMPLE);
        JsonNode items = root.get("increments");
        if (items == null || !items.isArray()) {
            throw new HttpError(ErrorCode.BAD_BODY, "the body must hold an array \"increments\","
                    + " as in " + EXAMPLE);
        }
        if (items.size() > MAX_INCREMENTS) {
            throw new HttpError(ErrorCode.TOO_MANY_INCREMENTS, "a batch may hold at most "
                    + MAX_INCREMENTS + " increments, but had " + items.size()
                    + ": split it into several requests");
        }
        List<Increment> increments = new ArrayList<>(items.size());
        for (int i = 0; i < items.size(); i++) {
            increments.add(item(items.get(i), "increments[" + i + "]", types));
        }
        return new BatchRequest(increments);
    }

    private static Increment item(JsonNode node, String where, TypeNames types) {
        ObjectNode item = JsonBody.object(node, where, Set.of("type", "id", "delta"), ITEM_EXAMPLE);
        CounterType type = type(item.get("type"), where + ".type", types);
        JsonNode id = item.get("id");
        if (id == null || !id.isIntegralNumber() || !id.canConvertToLong()) {
            throw new HttpError(ErrorCode.BAD_ID, where + ".id must be a JSON integer from "
                    + Long.MIN_VALUE + " to " + Long.MAX_VALUE + ", but was "
                    + (id == null ? "missing" : JsonBody.brief(id)));
        }
        return new Increment(type.recordType(), id.longValue(),
                JsonBody.delta(item.get("delta"), where + ".delta"));
    }

    private static CounterType type(JsonNode node, String where, TypeNames types) {
        if (node == null || !(node.isTextual() || node.isIntegralNumber())) {
            throw new HttpError(ErrorCode.BAD_TYPE, where + " must be a type name or a record_type"
                    + " number, but was " + (node == null ? "missing" : JsonBody.brief(node)));
        }
        try {
            return types.resolve(node.isTextual() ? node.textValue() : node.asText());
        } catch (IllegalArgumentException e) {
            throw HttpError.ofType(e, where + ": ");
        }
    }
}
