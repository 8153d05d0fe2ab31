package io.slotted.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Answers the errors Jetty raises before a request reaches Javalin — a path that is not valid
 * URI syntax, headers or a URI too large — in the contract's JSON error shape instead of Jetty's
 * HTML page, so that every error a client sees has the same form.
 */
final class ProtocolErrorHandler extends ErrorHandler {
    @Override
    protected void generateResponse(Request request, Response response, int code, String message,
            Throwable cause, Callback callback) {
        String reason = message == null || message.isBlank() ? "HTTP " + code : message;
        ApiError error = new ApiError(code, codeFor(code), "the request was refused before it"
                + " reached the service (" + reason + "): " + hintFor(code));
        try {
            byte[] body = JsonBody.MAPPER.writeValueAsBytes(JsonResponse.errorBody(error));
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
            response.write(true, ByteBuffer.wrap(body), callback);
        } catch (JsonProcessingException e) {
            callback.failed(e);
        }
    }

    private static String hintFor(int status) {
        return switch (status) {
            case 400 -> "check the request line, the path's percent-escapes and the headers";
            case 414 -> "shorten the URI, for example by reading fewer ids per request";
            case 431 -> "send smaller headers";
            default -> "see the HTTP status";
        };
    }

    private static String codeFor(int status) {
        return switch (status) {
            case 400 -> "bad_request";
            case 413 -> "body_too_large";
            case 414 -> "uri_too_long";
            case 431 -> "headers_too_large";
            default -> "http_" + status;
        };
    }
}
