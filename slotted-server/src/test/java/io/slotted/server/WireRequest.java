package io.slotted.server;

import java.util.ArrayList;
import java.util.List;

/**
 * One HTTP/1.1 request written out as it goes on the wire, with {@code Connection: close}, so that
 * a test can send what no client library would — a transfer coding, a header over the limit, any
 * method on any path, a body cut short — and name what it sent. Immutable: each change is a copy.
 */
final class WireRequest {
    private final String name;
    private final String method;
    private final String target;
    private final List<String> headers;
    private final String body;
    private final String coding;

    private WireRequest(String name, String method, String target, List<String> headers, String body,
            String coding) {
        this.name = name;
        this.method = method;
        this.target = target;
        this.headers = List.copyOf(headers);
        this.body = body;
        this.coding = coding;
    }

    /** A request without headers or body; {@code name} says in a failure what it was. */
    static WireRequest of(String name, String method, String target) {
        return new WireRequest(name, method, target, List.of(), null, null);
    }

    WireRequest named(String newName) {
        return new WireRequest(newName, method, target, headers, body, coding);
    }

    WireRequest method(String newMethod) {
        return new WireRequest(name + " (" + newMethod + ")", newMethod, target, headers, body, coding);
    }

    WireRequest target(String newTarget) {
        return new WireRequest(name, method, newTarget, headers, body, coding);
    }

    WireRequest header(String header, String value) {
        List<String> more = new ArrayList<>(headers);
        more.add(header + ": " + value);
        return new WireRequest(name, method, target, more, body, coding);
    }

    /** With {@code Authorization: Bearer token}; unchanged when {@code token} is null. */
    WireRequest token(String token) {
        return token == null ? this : header("Authorization", "Bearer " + token);
    }

    /** Without its {@code Authorization} header. */
    WireRequest withoutToken() {
        List<String> fewer = new ArrayList<>(headers);
        fewer.removeIf(header -> header.startsWith("Authorization:"));
        return new WireRequest(name, method, target, fewer, body, coding);
    }

    boolean hasToken() {
        return headers.stream().anyMatch(header -> header.startsWith("Authorization:"));
    }

    /** With a body declared as {@code application/json}. */
    WireRequest json(String json) {
        return body("application/json", json);
    }

    WireRequest body(String contentType, String text) {
        return new WireRequest(name, method, target, headers, text, coding).header("Content-Type", contentType);
    }

    /** With the body (possibly empty) sent in {@code Transfer-Encoding: coding}, as one chunk. */
    WireRequest inCoding(String transferCoding) {
        return new WireRequest(name, method, target, headers, body, transferCoding);
    }

    String name() {
        return name;
    }

    String method() {
        return method;
    }

    String target() {
        return target;
    }

    /** The body, or null when there is none. */
    String body() {
        return body;
    }

    /** The request line and headers, with the blank line that ends them. */
    String head() {
        StringBuilder head = new StringBuilder(method).append(' ').append(target)
                .append(" HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n");
        headers.forEach(header -> head.append(header).append("\r\n"));
        if (coding != null) {
            head.append("Transfer-Encoding: ").append(coding).append("\r\n");
        } else if (body != null) {
            head.append("Content-Length: ").append(body.length()).append("\r\n");
        }
        return head.append("\r\n").toString();
    }

    /** The whole request: head and body, the body as one chunk when it is sent in a coding. */
    String wire() {
        if (coding == null) {
            return head() + (body == null ? "" : body);
        }
        String chunk = body == null || body.isEmpty() ? ""
                : Integer.toHexString(body.length()) + "\r\n" + body + "\r\n";
        return head() + chunk + "0\r\n\r\n";
    }

    @Override
    public String toString() {
        return name + ": " + method + " " + (target.length() <= 100 ? target : target.substring(0, 100) + "…");
    }
}
