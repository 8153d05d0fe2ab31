package io.slotted.server.http;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.javalin.http.Context;
import io.slotted.server.config.Excerpt;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Iterator;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a request's JSON body strictly, so that every mistake is answered with a 4xx that names it
 * and none is guessed away.
 *
 * <p>The body is parsed into a tree, not bound to classes: binding would coerce {@code "5"} or
 * {@code 1.5} into a {@code long}, or reject them with messages about Java types. On the tree a
 * number keeps its exact kind, and an integer too large for 64 bits arrives as a big integer that
 * {@link JsonNode#canConvertToLong()} refuses, instead of wrapping. Duplicate keys and anything after
 * the value are errors too.
 */
final class JsonBody {
    /** The largest body accepted. */
    static final long MAX_BYTES = HttpFrontEnd.MAX_BODY_BYTES;
    /** How much of a body that is too large is read and discarded before answering 413. */
    static final long DRAIN_BYTES = 4 * MAX_BYTES;

    /** The mapper for requests and responses. */
    static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private JsonBody() {
    }

    /**
     * Reads the body as a JSON value.
     *
     * @param ctx the request
     * @return the value, or empty when the request has no body
     * @throws HttpError {@link ErrorCode#UNSUPPORTED_MEDIA_TYPE} when a body is not declared as
     *     {@code application/json}, {@link ErrorCode#BODY_TOO_LARGE} when it is over
     *     {@link #MAX_BYTES}, {@link ErrorCode#MALFORMED_JSON} when it is not JSON
     */
    static Optional<JsonNode> read(Context ctx) {
        boolean announced = ctx.req().getContentLengthLong() > 0 || ctx.header("Transfer-Encoding") != null;
        if (announced) {
            requireJsonContentType(ctx);
        }
        byte[] bytes = bytes(ctx);
        if (bytes.length == 0) {
            return Optional.empty();
        }
        requireJsonContentType(ctx);
        try {
            JsonNode node = MAPPER.readTree(bytes);
            return node == null || node.isMissingNode() ? Optional.empty() : Optional.of(node);
        } catch (JsonProcessingException e) {
            throw new HttpError(ErrorCode.MALFORMED_JSON, "the body is not valid JSON: "
                    + e.getOriginalMessage() + at(e.getLocation()));
        } catch (IOException e) {
            throw new IllegalStateException("reading a byte array cannot fail", e);
        }
    }

    /**
     * Reads the body, refusing one over {@link #MAX_BYTES}.
     *
     * <p>A client that sent no {@code Expect: 100-continue} is still sending when the server
     * decides, and an answer followed by a closed connection reaches it as a broken pipe, not as a
     * 413. So the rest of a moderately oversized body is read and thrown away first (up to
     * {@link #DRAIN_BYTES}); past that, or when the client waits for {@code 100 Continue}, the answer
     * goes at once.
     */
    private static byte[] bytes(Context ctx) {
        long declared = ctx.req().getContentLengthLong();
        boolean waitsForContinue = "100-continue".equalsIgnoreCase(ctx.header("Expect"));
        if (declared > MAX_BYTES && (waitsForContinue || declared > DRAIN_BYTES)) {
            throw tooLarge();
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        long total = 0;
        byte[] chunk = new byte[8192];
        try (InputStream in = ctx.req().getInputStream()) {
            for (int n; total <= DRAIN_BYTES && (n = in.read(chunk)) != -1; total += n) {
                if (total + n <= MAX_BYTES) {
                    body.write(chunk, 0, n);
                }
            }
        } catch (IOException e) {
            throw new HttpError(ErrorCode.UNREADABLE_BODY, "the body could not be read: "
                    + e.getMessage());
        }
        if (total > MAX_BYTES) {
            throw tooLarge();
        }
        return body.toByteArray();
    }

    /**
     * The answer to a body over {@link #MAX_BYTES}, whether its declared length says so or reading
     * it found out.
     *
     * @return a {@link ErrorCode#BODY_TOO_LARGE} error
     */
    static HttpError tooLarge() {
        return new HttpError(ErrorCode.BODY_TOO_LARGE, "the body is over 1 MiB (" + MAX_BYTES
                + " bytes): send fewer increments per request");
    }

    /**
     * Checks that a value is an object holding only the given fields.
     *
     * @param node the value
     * @param what how to name it in a message, such as {@code the body}
     * @param allowed the field names it may have
     * @param example a correct value, shown in the message
     * @return the object
     * @throws HttpError {@link ErrorCode#BAD_BODY} if it is not an object, or has another field
     */
    static ObjectNode object(JsonNode node, String what, Set<String> allowed, String example) {
        if (!node.isObject()) {
            throw new HttpError(ErrorCode.BAD_BODY, what + " must be a JSON object such as "
                    + example + ", but was " + brief(node));
        }
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!allowed.contains(name)) {
                throw new HttpError(ErrorCode.BAD_BODY, what + " has an unknown field \""
                        + Excerpt.of(name) + "\": it may hold only " + allowed
                        + ", as in " + example);
            }
        }
        return (ObjectNode) node;
    }

    /**
     * Reads a delta: a JSON integer in the signed 64-bit range, other than 0.
     *
     * @param node the field's value, or null when the field is absent
     * @param where how to name the field in a message, such as {@code delta}
     * @return the delta; 1 when absent
     * @throws HttpError {@link ErrorCode#BAD_DELTA} otherwise
     */
    static long delta(JsonNode node, String where) {
        if (node == null) {
            return 1;
        }
        if (!node.isIntegralNumber() || !node.canConvertToLong()) {
            throw new HttpError(ErrorCode.BAD_DELTA, where + " must be a JSON integer from "
                    + Long.MIN_VALUE + " to " + Long.MAX_VALUE + ", other than 0, but was "
                    + brief(node));
        }
        if (node.longValue() == 0) {
            throw new HttpError(ErrorCode.BAD_DELTA, where + " must not be 0: an increment adds a"
                    + " positive or negative amount");
        }
        return node.longValue();
    }

    /**
     * A value as it appeared, shortened for a message.
     *
     * @param node the value
     * @return its JSON text, at most 80 characters
     */
    static String brief(JsonNode node) {
        return Excerpt.of(node.toString());
    }

    private static void requireJsonContentType(Context ctx) {
        String type = ctx.contentType();
        String mediaType = type == null ? "" : type.split(";", 2)[0].strip();
        if (!mediaType.equalsIgnoreCase(JsonResponse.CONTENT_TYPE)) {
            throw new HttpError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, "the body must be JSON, sent with"
                    + " Content-Type: application/json, but the Content-Type was "
                    + (type == null ? "missing" : "'" + Excerpt.of(type) + "'"));
        }
    }

    private static String at(JsonLocation location) {
        return location == null ? ""
                : " (line " + location.getLineNr() + ", column " + location.getColumnNr() + ")";
    }
}
