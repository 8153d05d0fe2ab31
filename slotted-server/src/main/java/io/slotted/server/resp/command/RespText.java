package io.slotted.server.resp.command;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.redis.FullBulkStringRedisMessage;
import io.slotted.server.config.Excerpt;
import java.nio.charset.StandardCharsets;

/**
 * Text the front end puts in answers: bulk strings, client words quoted safely, and the
 * {@code INFO} page.
 */
final class RespText {
    private RespText() {
    }

    /** A client's word, shortened and with all but printable ASCII replaced, for an error answer. */
    static String excerpt(String word) {
        return Excerpt.of(word).replaceAll("[^\\x20-\\x7e]", "?");
    }

    /** A message fit for a RESP error line, which must not hold a line break. */
    static String oneLine(String message) {
        return message.replaceAll("[\\r\\n]+", " ");
    }

    /**
     * The {@code INFO} answer: enough for clients that look up the server's version and mode.
     * {@code redis_version} names the version of the protocol's commands this server answers.
     */
    static String info(String version) {
        return "# Server\r\n"
                + "redis_version:7.0.0\r\n"
                + "slotted_version:" + version + "\r\n"
                + "redis_mode:standalone\r\n"
                + "\r\n# Replication\r\n"
                + "role:master\r\n";
    }

    /** A bulk string of the bytes a client sent (decoded as Latin-1), or of ASCII text. */
    static FullBulkStringRedisMessage bulk(String text) {
        return new FullBulkStringRedisMessage(Unpooled.wrappedBuffer(text.getBytes(StandardCharsets.ISO_8859_1)));
    }

    /** A number as a bulk string, as {@code GET} answers a total. */
    static FullBulkStringRedisMessage bulk(long number) {
        return bulk(Long.toString(number));
    }
}
