package io.slotted.server.resp;

import io.slotted.server.config.CounterType;
import io.slotted.server.config.TypeNames;
import java.util.regex.Pattern;

/**
 * A Redis key naming a counter: {@code TYPE:ID}, where the type is a configured name or a
 * {@code record_type} number and the id a signed 64-bit decimal, leading zeros allowed
 * ({@code counter:000000012345} is id 12345, as {@code redis-benchmark -r} writes them).
 *
 * @param type the counter type
 * @param id the record id
 */
record RespKey(CounterType type, long id) {
    private static final Pattern ID = Pattern.compile("-?[0-9]+");

    /** Why a key was refused: the shape every key must have. */
    static final String SHAPE = "ERR key must be TYPE:ID, such as downloads:456";

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
        if (colon <= 0 || !ID.matcher(key).region(colon + 1, key.length()).matches()) {
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

    private static long parseId(String digits) {
        try {
            return Long.parseLong(digits);
        } catch (NumberFormatException e) {
            throw new RespError("ERR the id in the key is outside the signed 64-bit range: "
                    + SHAPE.substring("ERR ".length()));
        }
    }
}
