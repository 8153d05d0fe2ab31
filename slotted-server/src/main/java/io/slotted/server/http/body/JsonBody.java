package io.slotted.server.http.body;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import io.slotted.SlottedCounters;
import io.slotted.server.config.Excerpt;
import io.slotted.server.http.HttpFrontEnd;
import io.slotted.server.http.error.ErrorCode;
import io.slotted.server.http.error.HttpError;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.function.Function;

/**
 * A request's JSON body, read strictly and as a stream of tokens, so that every mistake is
 * answered with a 4xx that names it, none is guessed away, and no request can make the server
 * build more than the values it asked for.
 *
 * <p>The body is never parsed into a tree first: the readers ({@link BatchRequest}, the delta of
 * an increment) walk the tokens and check each value as it arrives, so a batch of a million
 * items is refused at item 10,001, and a value of the wrong shape (an array where a number
 * belongs) is refused at its first token, without reading what it holds. The parser bounds what
 * remains: nesting depth, the length of numbers, strings and field names. A number keeps its exact
 * kind — {@code "5"}, {@code 1.5} or {@code 1e3} is no integer, and an integer past 64 bits is
 * refused rather than wrapped. Duplicate keys and anything after the value are errors too.
 *
 * <p>JSON is UTF-8. The bytes are decoded as UTF-8 whatever they look like — never guessed to be
 * UTF-16 or UTF-32 from their zero bytes — and a byte sequence that is not UTF-8 is an error.
 */
public final class JsonBody implements AutoCloseable {
    /** The largest body accepted. */
    public static final long MAX_BYTES = HttpFrontEnd.MAX_BODY_BYTES;
    /** Deeper than any body of the contract ({@code {"increments": [{…}]}} is 3). */
    private static final int MAX_DEPTH = 8;
    /** Longer than any integer of interest, so that a long one is refused as out of range. */
    private static final int MAX_NUMBER_CHARS = 64;
    private static final int MAX_STRING_CHARS = 1024;
    private static final int MAX_NAME_CHARS = 64;

    private static final JsonFactory REQUESTS = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxNestingDepth(MAX_DEPTH)
                    .maxNumberLength(MAX_NUMBER_CHARS)
                    .maxStringLength(MAX_STRING_CHARS)
                    .maxNameLength(MAX_NAME_CHARS)
                    .maxDocumentLength(MAX_BYTES)
                    .build())
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            // Names come from clients: keep them out of the factory's shared symbol table.
            .disable(JsonFactory.Feature.CANONICALIZE_FIELD_NAMES)
            .build();

    private final JsonParser parser;
    private JsonToken token;

    private JsonBody(JsonParser parser) {
        this.parser = parser;
    }

    /**
     * Reads a whole body with {@code reader}, which must consume exactly one JSON value.
     *
     * @param bytes the body
     * @param ifEmpty the result for a body of nothing but whitespace
     * @param reader reads the value, starting on its first token
     * @param <T> what the body is read as
     * @return what the reader made of the body
     * @throws HttpError {@link ErrorCode#MALFORMED_JSON} when the body is not JSON in UTF-8 or has
     *     more after the value, or whatever the reader throws
     */
    public static <T> T read(byte[] bytes, T ifEmpty, Function<JsonBody, T> reader) {
        try (JsonBody body = new JsonBody(REQUESTS.createParser(new InputStreamReader(
                new ByteArrayInputStream(bytes), StandardCharsets.UTF_8.newDecoder())))) {
            if (body.next() == null) {
                return ifEmpty;
            }
            T value = reader.apply(body);
            if (body.next() != null) {
                throw new HttpError(ErrorCode.MALFORMED_JSON, "the body has more after its JSON"
                        + " value" + at(body.parser.currentTokenLocation()) + ": send one value");
            }
            return value;
        } catch (IOException e) {
            throw new UncheckedIOException("opening or closing a parser over bytes cannot fail", e);
        }
    }

    /**
     * The answer to a body over {@link #MAX_BYTES}, whether its declared length says so or reading
     * it found out.
     *
     * @return a {@link ErrorCode#BODY_TOO_LARGE} error
     */
    public static HttpError tooLarge() {
        return new HttpError(ErrorCode.BODY_TOO_LARGE, "the body is over 1 MiB (" + MAX_BYTES
                + " bytes): send fewer increments per request");
    }

    /**
     * Moves to the next token.
     *
     * @return the token, or null after the last one
     * @throws HttpError {@link ErrorCode#MALFORMED_JSON} if the body is not JSON in UTF-8
     */
    JsonToken next() {
        try {
            token = parser.nextToken();
            return token;
        } catch (IOException e) {
            throw malformed(e);
        }
    }

    /**
     * The text of the current token. A string is decoded only now, so a bad escape or a raw
     * control character inside it is found here, not when the token was read.
     */
    private String text() {
        try {
            return parser.getText();
        } catch (IOException e) {
            throw malformed(e);
        }
    }

    /** What a failed read of the body means for the client: its body is not JSON in UTF-8. */
    private RuntimeException malformed(IOException e) {
        if (e instanceof CharacterCodingException) {
            return new HttpError(ErrorCode.MALFORMED_JSON, "the body is not valid UTF-8, the only"
                    + " encoding JSON allows (" + e.getMessage() + ")"
                    + at(parser.currentLocation()));
        }
        if (e instanceof JsonProcessingException json) {
            return new HttpError(ErrorCode.MALFORMED_JSON, "the body is not valid JSON: "
                    + json.getOriginalMessage() + at(json.getLocation()));
        }
        return new UncheckedIOException("reading a byte array cannot fail", e);
    }

    /**
     * The token the body is on.
     *
     * @return the current token
     */
    JsonToken token() {
        return token;
    }

    /**
     * Checks that the value starting here is an object.
     *
     * @param what how to name it in a message, such as {@code the body}
     * @param example a correct value, shown in the message
     * @throws HttpError {@link ErrorCode#BAD_BODY} otherwise
     */
    public void requireObject(String what, String example) {
        if (token != JsonToken.START_OBJECT) {
            throw new HttpError(ErrorCode.BAD_BODY, what + " must be a JSON object such as "
                    + example + ", but was " + brief());
        }
    }

    /**
     * Moves to the next field of the object being read and onto its value.
     *
     * @param what how to name the object in a message
     * @param allowed the field names it may have
     * @param example a correct object, shown in the message
     * @return the field's name, the body then being on its value; null at the object's end
     * @throws HttpError {@link ErrorCode#BAD_BODY} for a field not allowed
     */
    public String nextField(String what, Set<String> allowed, String example) {
        if (next() == JsonToken.END_OBJECT) {
            return null;
        }
        String name = currentName();
        if (!allowed.contains(name)) {
            throw new HttpError(ErrorCode.BAD_BODY, what + " has an unknown field \""
                    + Excerpt.of(name) + "\": it may hold only " + allowed + ", as in " + example);
        }
        next();
        return name;
    }

    private String currentName() {
        try {
            return parser.currentName();
        } catch (IOException e) {
            throw malformed(e);
        }
    }

    /**
     * Reads the value here as a signed 64-bit integer.
     *
     * @param code the error code for any other value
     * @param where how to name the value in a message, such as {@code increments[2].id}
     * @return the integer
     * @throws HttpError with {@code code} unless the value is a JSON integer in range
     */
    long longValue(ErrorCode code, String where) {
        return integer(code, where + " must be a JSON integer from " + Long.MIN_VALUE + " to "
                + Long.MAX_VALUE);
    }

    /**
     * Reads the value here as a delta: a JSON integer other than 0, at most
     * {@link SlottedCounters#MAX_DELTA} either way.
     *
     * @param where how to name the field in a message, such as {@code delta}
     * @return the delta
     * @throws HttpError {@link ErrorCode#BAD_DELTA} otherwise
     */
    public long delta(String where) {
        String rule = " must be a JSON integer from -" + SlottedCounters.MAX_DELTA + " to "
                + SlottedCounters.MAX_DELTA + " (2^52 - 1, the most one slot row holds), other than 0";
        long delta = integer(ErrorCode.BAD_DELTA, where + rule);
        if (delta == 0) {
            throw new HttpError(ErrorCode.BAD_DELTA, where + " must not be 0: an increment adds a"
                    + " positive or negative amount");
        }
        if (delta < -SlottedCounters.MAX_DELTA || delta > SlottedCounters.MAX_DELTA) {
            throw new HttpError(ErrorCode.BAD_DELTA, where + rule + ", but was " + delta
                    + ": add a larger amount as several increments");
        }
        return delta;
    }

    /** A JSON integer in the signed 64-bit range; {@code rule} names the value and says what it must be. */
    private long integer(ErrorCode code, String rule) {
        try {
            if (token != JsonToken.VALUE_NUMBER_INT
                    || parser.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
                throw new HttpError(code, rule + ", but was " + brief());
            }
            return parser.getLongValue();
        } catch (IOException e) {
            throw malformed(e);
        }
    }

    /**
     * The text of the value here: a string's content or a number as written.
     *
     * @return the text, or null for any other value
     */
    String scalarText() {
        if (token != JsonToken.VALUE_STRING && token != JsonToken.VALUE_NUMBER_INT) {
            return null;
        }
        return text();
    }

    /**
     * The value here as it appeared, shortened for a message; a container is named, not quoted.
     *
     * @return at most 80 characters
     */
    String brief() {
        if (token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY) {
            return token == JsonToken.START_OBJECT ? "an object" : "an array";
        }
        String text = text();
        return Excerpt.of(token == JsonToken.VALUE_STRING ? "\"" + text + "\"" : text);
    }

    private static String at(JsonLocation location) {
        return location == null ? ""
                : " (line " + location.getLineNr() + ", column " + location.getColumnNr() + ")";
    }

    @Override
    public void close() throws IOException {
        parser.close();
    }
}
