package io.slotted.server.resp.command;

import io.slotted.server.config.CounterType;
import io.slotted.server.config.TypeNames;

/**
 * A Redis key naming a counter: {@code TYPE:ID}, where the type is a configured name or a
 * {@code record_type} number and the id a signed 64-bit decimal, leading zeros allowed
 * ({@code counter:000000012345} is id 12345, as {@code redis-benchmark -r} writes them).
 *
 * @param type the counter type
 * @param id the record id
 */
record RespKey(CounterType type, long id) {
    /** Why a key was refused: the shape every key must have. */
    static final String SHAPE = "ERR key must be TYPE:ID, such as downloads:456";
    /** Why a hash and field were refused: the shape they must have. */
    static final String HASH_SHAPE = "ERR a hash is a counter type and its fields are record ids,"
            + " such as HINCRBY downloads 456 1";

    /**
     * Parses a key.
     *
     * @param key the key as sent
     * @param types the configured type names
     * @return the counter
     * @throws RespError with {@link #SHAPE} for a key of another shape, or naming the type when
     *     it is not configured
     */
    static RespKey parse(String key, TypeNames types) {
        int colon = key.indexOf(':');
        if (colon <= 0 || !isDecimal(key, colon + 1)) {
            throw new RespError(SHAPE);
        }
        CounterType type;
        try {
            type = types.resolve(key.substring(0, colon));
        } catch (IllegalArgumentException e) {
            throw new RespError("ERR " + e.getMessage());
        }
        return new RespKey(type, parseId(key.substring(colon + 1)));
    }

    /**
     * The counter a hash command names: the hash is the type, the field the id.
     *
     * @param type the hash's name, a type name or number
     * @param id the field, a record id
     * @param types the configured type names
     * @return the counter, the same as the key {@code type:id}
     * @throws RespError as {@link #parse} does
     */
    static RespKey of(String type, String id, TypeNames types) {
        if (type.indexOf(':') >= 0 || !isDecimal(id, 0)) {
            throw new RespError(HASH_SHAPE);
        }
        return parse(type + ":" + id, types);
    }

    /** Whether the text from {@code from} on is {@code -?[0-9]+}: checked by hand, once per command. */
    private static boolean isDecimal(String text, int from) {
        int first = from < text.length() && text.charAt(from) == '-' ? from + 1 : from;
        if (first == text.length()) {
            return false;
        }
        for (int i = first; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    private static long parseId(String digits) {
        try {
            return Long.parseLong(digits);
        } catch (NumberFormatException e) {
            throw new RespError("ERR the id in the key is outside the signed 64-bit range: "
                    + SHAPE.substring("ERR ".length()));
        }
    }
}
