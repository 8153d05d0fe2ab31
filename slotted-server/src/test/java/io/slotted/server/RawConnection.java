package io.slotted.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;

/**
 * One TCP connection to the service, for what a real HTTP client will not send (bodies that
 * trickle, transfer codings, {@code OPTIONS *}) and for holding a connection open on purpose.
 * Responses are read one at a time, by their {@code Content-Length}, so the connection stays
 * usable for the next request.
 */
final class RawConnection implements AutoCloseable {
    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;

    /** What came back: the status line's code, the head as text, and the body. */
    record Response(int status, String head, String body) {
        /** A header's value, or null when the answer has none. */
        String header(String name) {
            for (String line : head.split("\r\n")) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).strip().equalsIgnoreCase(name)) {
                    return line.substring(colon + 1).strip();
                }
            }
            return null;
        }

        @Override
        public String toString() {
            return head + "\r\n\r\n" + body;
        }
    }

    RawConnection(int port, Duration readTimeout) {
        try {
            socket = new Socket("127.0.0.1", port);
            socket.setSoTimeout((int) readTimeout.toMillis());
            out = socket.getOutputStream();
            in = socket.getInputStream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sends the request, then reads the whole response, for one request on a fresh connection. */
    static Response exchange(int port, String request) {
        try (RawConnection connection = new RawConnection(port, Duration.ofSeconds(30))) {
            connection.send(request);
            return request.startsWith("HEAD ") ? connection.readHeadOnly() : connection.read();
        }
    }

    RawConnection send(String text) {
        return send(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    RawConnection send(byte[] bytes) {
        try {
            out.write(bytes);
            out.flush();
            return this;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Reads one response; fails if the read timeout passes first or the connection closes. A body
     * without a {@code Content-Length} on a connection the server closes after it is read to the end.
     */
    Response read() {
        try {
            String head = readHead();
            int status = Integer.parseInt(head.substring(9, 12));
            int length = contentLength(head);
            if (length < 0) {
                return new Response(status, head, new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
            byte[] body = in.readNBytes(length);
            if (body.length < length) {
                throw new IOException("connection closed after " + body.length + " of " + length
                        + " body bytes: " + head);
            }
            return new Response(status, head, new String(body, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Reads the answer to a {@code HEAD}: its status line and headers, whose {@code Content-Length}
     * is the length of a body that is not sent.
     */
    Response readHeadOnly() {
        try {
            String head = readHead();
            return new Response(Integer.parseInt(head.substring(9, 12)), head, "");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String readHead() throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        byte[] end = {'\r', '\n', '\r', '\n'};
        while (matched < end.length) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("connection closed before a response; read: " + head);
            }
            head.write(b);
            matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        return head.toString(StandardCharsets.ISO_8859_1).strip();
    }

    /** The body's length: 0 without one, -1 when it runs until the server closes the connection. */
    private static int contentLength(String head) {
        for (String line : head.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                return Integer.parseInt(line.substring("content-length:".length()).strip());
            }
        }
        if (head.toLowerCase(Locale.ROOT).contains("transfer-encoding")) {
            throw new IllegalStateException("chunked responses are not read here: " + head);
        }
        return head.toLowerCase(Locale.ROOT).contains("\r\nconnection: close") ? -1 : 0;
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
