package io.slotted.server.http.body;

import com.fasterxml.jackson.core.JsonToken;
import io.slotted.CounterNames;
import io.slotted.server.http.HttpFrontEnd;
import io.slotted.server.http.error.ErrorCode;
import io.slotted.server.http.error.HttpError;
import io.slotted.server.names.CounterNaming;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The body of {@code POST /v1/increments}: {@code {"increments": [{"type": "downloads", "id": 1,
 * "delta": 1}, …]}}, at most {@value #MAX_INCREMENTS} of them. Each item's {@code type} is a
 * name or a {@code record_type} number (as a JSON string or integer), {@code id} a JSON integer or
 * a string (a decimal string is that number, any other string a string id), and {@code delta} as
 * for a single increment: a non-zero JSON integer, 1 when absent. Types and ids are checked here,
 * without the database; their names are looked up before the batch is written.
 *
 * <p>Items are checked as they are read, in the order written, so the first mistake is the one
 * named, and the limit is checked at the item past it, before the rest of the body is parsed.
 *
 * @param increments the increments, in the order given
 */
public record BatchRequest(List<Item> increments) {
    /** The most increments one batch may hold. */
    public static final int MAX_INCREMENTS = HttpFrontEnd.MAX_INCREMENTS;

    private static final String EXAMPLE =
            "{\"increments\": [{\"type\": \"downloads\", \"id\": 1, \"delta\": 1}]}";
    private static final String ITEM_EXAMPLE = "{\"type\": \"downloads\", \"id\": 1, \"delta\": 1}";
    private static final Set<String> BODY_FIELDS = Set.of("increments");
    private static final Set<String> ITEM_FIELDS = Set.of("type", "id", "delta");

    /**
     * One increment of the batch, as given.
     *
     * @param type the type: a name or a number
     * @param id the id: a number or a string id
     * @param delta the amount, not 0
     */
    public record Item(String type, String id, long delta) {
        /**
         * The same counter with another delta, so that items naming one counter compare equal.
         *
         * @param other the delta
         * @return the item
         */
        public Item withDelta(long other) {
            return new Item(type, id, other);
        }
    }

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
     * @param naming checks each item's type and id
     * @return the batch
     * @throws HttpError for a missing or malformed body, a malformed item or too many items; the
     *     message names the item
     */
    public static BatchRequest read(byte[] body, CounterNaming naming) {
        BatchRequest batch = JsonBody.read(body, null, json -> parse(json, naming));
        if (batch == null) {
            throw missing();
        }
        return batch;
    }

    private static BatchRequest parse(JsonBody body, CounterNaming naming) {
        body.requireObject("the body", EXAMPLE);
        List<Item> increments = null;
        while (body.nextField("the body", BODY_FIELDS, EXAMPLE) != null) {
            increments = items(body, naming);
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

    private static List<Item> items(JsonBody body, CounterNaming naming) {
        if (body.token() != JsonToken.START_ARRAY) {
            throw new HttpError(ErrorCode.BAD_BODY, "\"increments\" must be an array, as in "
                    + EXAMPLE + ", but was " + body.brief());
        }
        List<Item> increments = new ArrayList<>();
        while (body.next() != JsonToken.END_ARRAY) {
            if (increments.size() == MAX_INCREMENTS) {
                throw new HttpError(ErrorCode.TOO_MANY_INCREMENTS, "a batch may hold at most "
                        + MAX_INCREMENTS + " increments, but had more: split it into several"
                        + " requests");
            }
            increments.add(item(body, "increments[" + increments.size() + "]", naming));
        }
        return increments;
    }

    private static Item item(JsonBody body, String where, CounterNaming naming) {
        body.requireObject(where, ITEM_EXAMPLE);
        String type = null;
        String id = null;
        long delta = 1;
        for (String field; (field = body.nextField(where, ITEM_FIELDS, ITEM_EXAMPLE)) != null; ) {
            switch (field) {
                case "type" -> type = type(body, where + ".type", naming);
                case "id" -> id = id(body, where + ".id");
                default -> delta = body.delta(where + ".delta");
            }
        }
        if (type == null) {
            throw new HttpError(ErrorCode.BAD_TYPE, where + ".type must be a type name or a"
                    + " record_type number, but was missing");
        }
        if (id == null) {
            throw new HttpError(ErrorCode.BAD_ID, where + ".id must be a JSON integer or a string,"
                    + " but was missing");
        }
        return new Item(type, id, delta);
    }

    private static String type(JsonBody body, String where, CounterNaming naming) {
        String text = body.scalarText();
        if (text == null) {
            throw new HttpError(ErrorCode.BAD_TYPE, where + " must be a type name or a record_type"
                    + " number, but was " + body.brief());
        }
        try {
            naming.checkType(text);
            return text;
        } catch (IllegalArgumentException e) {
            throw HttpError.ofType(e, where + ": ");
        }
    }

    private static String id(JsonBody body, String where) {
        String text = body.scalarText();
        if (text == null) {
            throw new HttpError(ErrorCode.BAD_ID, where + " must be a JSON integer or a string, but was "
                    + body.brief());
        }
        try {
            CounterNames.numberOf(text);
            return text;
        } catch (IllegalArgumentException e) {
            throw new HttpError(ErrorCode.BAD_ID, where + ": " + e.getMessage());
        }
    }
}
