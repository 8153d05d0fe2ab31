package io.slotted.server.resp.command;

import io.slotted.server.names.CounterNaming;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * A Redis key naming a counter, checked but not yet looked up: {@code TYPE:ID}, split at the
 * first colon, so {@code likes:post:8f3a} is type {@code likes} and id {@code post:8f3a}. The type
 * is a name or a {@code record_type} number; the id a decimal number (leading zeros allowed:
 * {@code counter:000000012345} is id 12345, as {@code redis-benchmark -r} writes them) or any other
 * string of UTF-8, which the name dictionary maps ({@link CounterNaming}).
 *
 * <p>Arguments arrive as bytes, each kept in a string of one character per byte; the id's bytes
 * are read here as UTF-8, strictly, so two different byte strings never become one id.
 *
 * @param type the type as sent
 * @param id the id, decoded
 */
record RespKey(String type, String id) {
    /** Why a key was refused: the shape every key must have. */
    static final String SHAPE = "ERR key must be TYPE:ID, such as downloads:456";
    /** Why a hash and field were refused: the shape they must have. */
    static final String HASH_SHAPE = "ERR a hash is a counter type and its fields are record ids,"
            + " such as HINCRBY downloads 456 1";

    /**
     * Parses a key.
     *
     * @param key the key as sent, a character per byte
     * @param naming checks the type and the id
     * @return the key
     * @throws RespError with {@link #SHAPE}, and the reason when the type or id is malformed
     */
    static RespKey parse(String key, CounterNaming naming) {
        int colon = key.indexOf(':');
        if (colon <= 0 || colon == key.length() - 1) {
            throw new RespError(SHAPE);
        }
        String type = key.substring(0, colon);
        String id = utf8(key.substring(colon + 1));
        try {
            naming.check(type, id);
        } catch (IllegalArgumentException e) {
            throw new RespError(SHAPE + ": " + RespText.oneLine(e.getMessage()));
        }
        return new RespKey(type, id);
    }

    /**
     * The counter a hash command names: the hash is the type, the field the id.
     *
     * @param type the hash's name, a type name or number
     * @param id the field
     * @param naming checks the type and the id
     * @return the key, the same as {@code type:id}
     * @throws RespError as {@link #parse} does
     */
    static RespKey of(String type, String id, CounterNaming naming) {
        if (type.isEmpty() || type.indexOf(':') >= 0 || id.isEmpty()) {
            throw new RespError(HASH_SHAPE);
        }
        return parse(type + ":" + id, naming);
    }

    /** The bytes as UTF-8; ASCII, the usual case, as it is. */
    private static String utf8(String bytes) {
        for (int i = 0; i < bytes.length(); i++) {
            if (bytes.charAt(i) >= 0x80) {
                return decode(bytes);
            }
        }
        return bytes;
    }

    private static String decode(String bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes.getBytes(StandardCharsets.ISO_8859_1)))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new RespError(SHAPE + ": the id is not valid UTF-8");
        }
    }

    @Override
    public String toString() {
        return type + ":" + id;
    }
}
