package io.slotted.bench.resp;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * One Redis connection that speaks just enough RESP for the benchmark's increments: it sends
 * {@code INCR key} as a RESP array, {@code *2\r\n$4\r\nINCR\r\n$<len>\r\n<key>\r\n}, and reads the
 * integer reply, {@code :<n>\r\n}.
 *
 * <p>Hand-written on purpose, where the project otherwise takes a library for the Redis protocol:
 * this client is the yardstick's, and the point is to measure Redis with as little client in the
 * way as possible. An increment is one buffered write, one flush and one blocking read on a plain
 * socket with Nagle's algorithm off: no pool, no event loop to hand the reply over from (Netty's
 * codec would add the very thread hand-offs that group commit is being compared against), no
 * reply objects. It understands two replies, an integer and an error; anything else means the
 * stream can no longer be trusted, so the connection is closed and every later call fails with
 * the first problem's description rather than reading a stranger's reply as its own.
 *
 * <p>Not thread-safe: one caller at a time, either a writer's own connection or one borrowed from
 * a {@link RespConnectionPool}.
 */
public final class RespConnection implements AutoCloseable {
    private static final byte[] INCR_HEADER = "*2\r\n$4\r\nINCR\r\n$".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CRLF = {'\r', '\n'};
    /** A Redis that stops answering fails the increment instead of hanging its writer. */
    private static final int READ_TIMEOUT_MILLIS = 10_000;
    private static final int CONNECT_TIMEOUT_MILLIS = 5_000;
    /** An error line longer than this is not one Redis would send. */
    private static final int MAX_ERROR_LENGTH = 4_096;

    private final String server;
    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;
    /** Why the stream was abandoned, or null while it is in step with the server. */
    private String broken;

    private RespConnection(String server, Socket socket) throws IOException {
        this.server = server;
        this.socket = socket;
        this.out = new BufferedOutputStream(socket.getOutputStream());
        this.in = new BufferedInputStream(socket.getInputStream());
    }

    /**
     * Connects to a Redis server.
     *
     * @param host the server's host
     * @param port the server's port
     * @return an open connection
     * @throws IOException if the server cannot be reached
     */
    public static RespConnection open(String host, int port) throws IOException {
        Socket socket = new Socket();
        try {
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(READ_TIMEOUT_MILLIS);
            socket.connect(new InetSocketAddress(host, port), CONNECT_TIMEOUT_MILLIS);
            return new RespConnection(host + ":" + port, socket);
        } catch (IOException e) {
            socket.close();
            throw new IOException("could not connect to Redis at " + host + ":" + port + ": "
                    + e.getMessage(), e);
        }
    }

    /**
     * Adds 1 to a key and returns once Redis has replied.
     *
     * @param key the key, sent as its UTF-8 bytes
     * @return the key's value after the increment
     * @throws IOException if Redis replied with an error, such as a key that does not hold an
     *     integer (the connection stays usable); or if the reply was not a RESP integer, the
     *     connection was lost or the reply did not come in time (the connection is then closed
     *     for good, and every later call fails saying why)
     */
    public long incr(String key) throws IOException {
        if (broken != null) {
            throw new IOException("the connection to Redis at " + server + " was closed after an"
                    + " earlier failure: " + broken);
        }
        try {
            send(key.getBytes(StandardCharsets.UTF_8));
            return readInteger();
        } catch (RedisErrorReply e) {
            throw new IOException("Redis at " + server + " refused INCR " + key + ": "
                    + e.getMessage(), e);
        } catch (IOException e) {
            broken = e.getMessage();
            close();
            throw new IOException("INCR " + key + " on Redis at " + server + " failed, so the"
                    + " connection is closed: " + e.getMessage(), e);
        }
    }

    /**
     * The local end's address, such as {@code 127.0.0.1:51234}: how Redis's {@code CLIENT LIST}
     * names this connection.
     *
     * @return host and port
     */
    String localAddress() {
        return socket.getLocalAddress().getHostAddress() + ":" + socket.getLocalPort();
    }

    /** Closes the socket; a failure to close one is of no consequence to the benchmark. */
    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // The socket is gone either way.
        }
    }

    /** {@code *2\r\n$4\r\nINCR\r\n$<len>\r\n<key>\r\n}, in one write to the socket. */
    private void send(byte[] key) throws IOException {
        out.write(INCR_HEADER);
        out.write(Integer.toString(key.length).getBytes(StandardCharsets.US_ASCII));
        out.write(CRLF);
        out.write(key);
        out.write(CRLF);
        out.flush();
    }

    /** Reads {@code :<n>\r\n}; an error line is passed on, anything else ends the stream. */
    private long readInteger() throws IOException {
        int type = in.read();
        switch (type) {
            case ':' -> {
                return readDigits();
            }
            case '-' -> throw new RedisErrorReply(readErrorLine());
            case -1 -> throw new IOException("Redis closed the connection before replying");
            default -> throw new IOException("unexpected reply: expected a RESP integer (':') or"
                    + " error ('-'), but the reply began with " + describe(type));
        }
    }

    /** An optional minus sign, digits, CR, LF: parsed as it arrives, without a string. */
    private long readDigits() throws IOException {
        int b = in.read();
        boolean negative = b == '-';
        if (negative) {
            b = in.read();
        }
        long value = 0;
        int digits = 0;
        while (b >= '0' && b <= '9' && digits < 19) {
            value = value * 10 + (b - '0');
            digits++;
            b = in.read();
        }
        if (digits == 0 || b != '\r' || in.read() != '\n') {
            throw new IOException("unexpected reply: an integer reply that is not digits ending in"
                    + " CRLF, at " + describe(b));
        }
        return negative ? -value : value;
    }

    private String readErrorLine() throws IOException {
        StringBuilder line = new StringBuilder();
        int b = in.read();
        while (b != '\r' && b != -1 && line.length() < MAX_ERROR_LENGTH) {
            line.append((char) b);
            b = in.read();
        }
        if (b != '\r' || in.read() != '\n') {
            throw new IOException("unexpected reply: an error line not ended by CRLF: " + line);
        }
        return line.toString();
    }

    private static String describe(int b) {
        if (b == -1) {
            return "the end of the stream";
        }
        return b >= 0x20 && b < 0x7f ? "'" + (char) b + "'" : String.format("byte 0x%02x", b);
    }

    /** An error reply read in full: the stream is still in step, so the connection stays usable. */
    private static final class RedisErrorReply extends IOException {
        private static final long serialVersionUID = 1L;

        RedisErrorReply(String message) {
            super(message);
        }
    }
}
