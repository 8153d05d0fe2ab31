package io.slotted.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/**
 * A bare TCP connection to the Redis-protocol port, for what a well-behaved client never sends:
 * malformed frames, commands it never reads the answers of, a {@code QUIT}.
 */
final class RespSocket implements AutoCloseable {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    RespSocket(int port) {
        try {
            socket = new Socket();
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
            socket.setSoTimeout(30_000);
            in = socket.getInputStream();
            out = socket.getOutputStream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A command as a RESP array of bulk strings, as clients send it. */
    static String command(String... words) {
        StringBuilder frame = new StringBuilder("*").append(words.length).append("\r\n");
        for (String word : words) {
            frame.append('$').append(word.getBytes(StandardCharsets.UTF_8).length).append("\r\n")
                    .append(word).append("\r\n");
        }
        return frame.toString();
    }

    void send(String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    void send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** Reads one line of the answer, without its CRLF. */
    String readLine() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int previous = -1;
        while (true) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("the server closed the connection after: " + line);
            }
            if (previous == '\r' && b == '\n') {
                byte[] bytes = line.toByteArray();
                return new String(bytes, 0, bytes.length - 1, StandardCharsets.UTF_8);
            }
            line.write(b);
            previous = b;
        }
    }

    /** Whether the server closes the connection within the socket's timeout, reading what is left. */
    boolean closedByServer() throws IOException {
        try {
            while (in.read() >= 0) {
                // what the server sent before closing
            }
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
