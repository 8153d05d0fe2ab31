package io.slotted.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublisher;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Real HTTP to a service under test, through the JDK's client: what a client outside the JVM
 * sends, header for header.
 */
final class ServiceClient {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    private final URI base;

    /** What came back. */
    record Response(int status, String text, HttpResponse<String> raw) {
        JsonNode json() {
            try {
                return JSON.readTree(text);
            } catch (IOException e) {
                throw new AssertionError("not JSON (status " + status + "): " + text, e);
            }
        }

        String errorCode() {
            return json().path("error").path("code").asText(null);
        }

        @Override
        public String toString() {
            return status + " " + text;
        }
    }

    /** A request being put together. */
    final class Call {
        private final String method;
        private final String path;
        private final Map<String, String> headers = new LinkedHashMap<>();
        private BodyPublisher body;

        private Call(String method, String path) {
            this.method = method;
            this.path = path;
        }

        Call token(String token) {
            return token == null ? this : header("Authorization", "Bearer " + token);
        }

        Call header(String name, String value) {
            headers.put(name, value);
            return this;
        }

        /** A body, sent as application/json unless a Content-Type header says otherwise. */
        Call body(String body) {
            return body(body.getBytes(StandardCharsets.UTF_8));
        }

        /** A body of any bytes, sent as application/json unless a Content-Type header says otherwise. */
        Call body(byte[] body) {
            this.body = BodyPublishers.ofByteArray(body);
            return this;
        }

        Response send() {
            HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path))
                    .timeout(Duration.ofSeconds(60))
                    .method(method, body == null ? BodyPublishers.noBody() : body);
            if (body != null && !headers.containsKey("Content-Type")) {
                request.header("Content-Type", "application/json");
            }
            headers.forEach(request::header);
            try {
                HttpResponse<String> response = http.send(request.build(), BodyHandlers.ofString());
                return new Response(response.statusCode(), response.body(), response);
            } catch (IOException e) {
                throw new UncheckedIOException(method + " " + path + " failed", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
    }

    ServiceClient(int port) {
        this.base = URI.create("http://127.0.0.1:" + port);
    }

    Call call(String method, String path) {
        return new Call(method, path);
    }

    Call get(String path) {
        return call("GET", path);
    }

    Call post(String path) {
        return call("POST", path);
    }
}
