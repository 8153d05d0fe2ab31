package io.slotted.server.http.body;

import io.javalin.http.ContentType;
import io.javalin.http.Context;
import io.slotted.server.config.Excerpt;
import io.slotted.server.http.error.ErrorCode;
import io.slotted.server.http.error.HttpError;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.eclipse.jetty.http.HttpField;

/**
 * What a request says about its body — how it is framed on the wire, what it is and how it is
 * encoded — checked strictly, so that no two readers could see two different bodies in it and no
 * encoding is guessed.
 *
 * <p>A body is either sent with a {@code Content-Length} or in plain {@code chunked} transfer
 * coding: any other coding (such as {@code gzip, chunked}) would be passed on undecoded, and
 * {@code chunked} on HTTP/1.0, which has no transfer codings, is what request smuggling is made
 * of; both are refused before any route runs. A body must be {@code application/json} in UTF-8,
 * the only encoding JSON allows: a {@code charset} other than {@code utf-8} is refused with 415,
 * and the bytes are decoded as UTF-8 whatever they look like ({@link JsonBody}).
 */
public final class MessageFraming {
    private static final String CHUNKED = "chunked";
    private static final List<String> UTF_8_NAMES = List.of("utf-8", "utf8");

    private MessageFraming() {
    }

    /**
     * Refuses a request with a transfer coding other than plain {@code chunked}, or with
     * {@code chunked} on HTTP/1.0. Runs before every route.
     *
     * @param ctx the request
     * @throws HttpError {@link ErrorCode#BAD_TRANSFER_ENCODING}
     */
    public static void checkTransferCoding(Context ctx) {
        List<String> codings = transferCodings(ctx);
        if (codings.isEmpty()) {
            return;
        }
        if (!codings.equals(List.of(CHUNKED))) {
            throw new HttpError(ErrorCode.BAD_TRANSFER_ENCODING, "the only transfer coding"
                    + " accepted is plain 'chunked', but the request has '"
                    + Excerpt.of(String.join(", ", codings)) + "': send the body as it is, with a"
                    + " Content-Length or chunked");
        }
        if ("HTTP/1.0".equals(ctx.req().getProtocol())) {
            throw new HttpError(ErrorCode.BAD_TRANSFER_ENCODING, "HTTP/1.0 has no chunked transfer"
                    + " coding: send the body with a Content-Length, or use HTTP/1.1");
        }
    }

    /**
     * Refuses a path whose percent-escapes are malformed: a {@code %} not followed by two hex
     * digits. Jetty refuses such a path itself, except inside a segment that begins with
     * {@code ;} (path parameters), which it passes on undecoded; the router's decoding of the
     * path's parameters would then fail, and the request would be answered 500. Runs before every
     * route.
     *
     * @param ctx the request
     * @throws HttpError {@link ErrorCode#BAD_REQUEST}
     */
    public static void checkPercentEscapes(Context ctx) {
        String path = ctx.req().getRequestURI();
        for (int at = path.indexOf('%'); at >= 0; at = path.indexOf('%', at + 1)) {
            if (at + 2 >= path.length() || Character.digit(path.charAt(at + 1), 16) < 0
                    || Character.digit(path.charAt(at + 2), 16) < 0) {
                throw new HttpError(ErrorCode.BAD_REQUEST, "the path has a '%' that is not followed by"
                        + " two hex digits: write '%25' for a percent sign, and percent-encode the rest");
            }
        }
    }

    private static List<String> transferCodings(Context ctx) {
        List<String> codings = new ArrayList<>();
        for (String header : Collections.list(ctx.req().getHeaders("Transfer-Encoding"))) {
            for (String coding : header.split(",")) {
                if (!coding.isBlank()) {
                    codings.add(coding.strip().toLowerCase(Locale.ROOT));
                }
            }
        }
        return codings;
    }

    /**
     * Whether the request carries a body: a {@code Content-Length} above 0, or a transfer coding.
     *
     * @param ctx the request
     * @return true if there are body bytes to read
     */
    public static boolean hasBody(Context ctx) {
        return ctx.req().getContentLengthLong() > 0 || ctx.header("Transfer-Encoding") != null;
    }

    /**
     * Refuses a body that is not declared as JSON in UTF-8. The header is read as it came, not
     * through the Servlet API, which fails on a charset the JVM does not know.
     *
     * @param ctx the request
     * @throws HttpError {@link ErrorCode#UNSUPPORTED_MEDIA_TYPE}
     */
    public static void requireJson(Context ctx) {
        String type = ctx.header("Content-Type");
        Map<String, String> parameters = new LinkedHashMap<>();
        String mediaType = mediaType(type, parameters);
        if (mediaType == null || !ContentType.JSON.equalsIgnoreCase(mediaType.strip())) {
            throw new HttpError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, "the body must be JSON, sent with"
                    + " Content-Type: application/json, but the Content-Type was "
                    + (type == null ? "missing" : "'" + Excerpt.of(type) + "'"));
        }
        parameters.forEach((name, value) -> {
            if (name.strip().equalsIgnoreCase("charset") && (value == null
                    || !UTF_8_NAMES.contains(value.strip().toLowerCase(Locale.ROOT)))) {
                throw new HttpError(ErrorCode.UNSUPPORTED_MEDIA_TYPE, "JSON is read in UTF-8 only,"
                        + " but the Content-Type declares charset '" + Excerpt.of(String.valueOf(value))
                        + "': send UTF-8 and declare it as charset=utf-8, or declare no charset");
            }
        });
    }

    /**
     * The media type of a {@code Content-Type} header, its parameters put in {@code parameters};
     * null when there is no header, or one that is empty or does not parse (an unterminated
     * quote, say), which declares no media type at all.
     */
    private static String mediaType(String header, Map<String, String> parameters) {
        if (header == null) {
            return null;
        }
        try {
            return HttpField.getValueParameters(header, parameters);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }
}
