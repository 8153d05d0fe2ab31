package io.slotted.server.http;

import io.slotted.server.http.error.ErrorCode;
import io.slotted.server.http.error.HttpError;
import io.slotted.server.http.response.JsonResponse;
import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Answers the errors Jetty raises before a request reaches Javalin — a path that is not valid
 * URI syntax, headers or a URI too large, a request while the server stops — in the contract's
 * JSON error shape instead of Jetty's HTML page, so that every error a client sees has the same
 * form.
 *
 * <p>Jetty chooses only a status; the code is the one {@link ErrorCode#forBareStatus} gives for it,
 * and the response goes out with that code's status, so a status no code has is answered as
 * {@link ErrorCode#BAD_REQUEST}, the original status named in the message. Jetty writes error
 * bodies only for GET, POST and HEAD by default; here every method gets one, {@code OPTIONS *}
 * included.
 */
final class ProtocolErrorHandler extends ErrorHandler {
    @Override
    public boolean errorPageForMethod(String method) {
        return true;
    }

    @Override
    protected void generateResponse(Request request, Response response, int status, String message,
            Throwable cause, Callback callback) {
        ErrorCode code = ErrorCode.forBareStatus(status);
        HttpError error = new HttpError(code, "the request was refused before it reached the"
                + " service (" + reason(status, message, code) + "): " + hintFor(code));
        response.setStatus(code.status());
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, JsonResponse.CONTENT_TYPE);
        response.write(true, ByteBuffer.wrap(JsonResponse.bytes(error.body())), callback);
    }

    /** Jetty's message, led by the status when the response goes out with another one. */
    private static String reason(int status, String message, ErrorCode code) {
        if (message == null || message.isBlank()) {
            return "HTTP " + status;
        }
        return code.status() == status ? message : "HTTP " + status + " " + message;
    }

    private static String hintFor(ErrorCode code) {
        return switch (code) {
            case BAD_REQUEST ->
                    "check the request line, the path's percent-escapes and the headers";
            case URI_TOO_LONG -> "shorten the URI, for example by reading fewer ids per request";
            case NOT_FOUND -> ErrorMapping.ENDPOINTS;
            case HEADERS_TOO_LARGE -> "send smaller headers";
            default -> "see the HTTP status";
        };
    }
}
