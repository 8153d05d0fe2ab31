package io.slotted.server.resp;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.redis.ArrayHeaderRedisMessage;
import io.netty.handler.codec.redis.BulkStringHeaderRedisMessage;
import io.netty.handler.codec.redis.BulkStringRedisContent;
import io.netty.handler.codec.redis.FullBulkStringRedisMessage;
import io.netty.handler.codec.redis.InlineCommandRedisMessage;
import io.netty.handler.codec.redis.LastBulkStringRedisContent;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Puts the frames of Netty's RESP decoder together into commands: each command's words, as
 * {@link Words}, once its last byte has come.
 *
 * <p>Netty's own aggregators build a whole message tree for every command — a composite buffer per
 * argument, retained and released piece by piece, then an array of them — only for the connection
 * to copy the bytes out into strings. Under a pipelined load that took about a third of the event
 * loops' time (docs/benchmarks.md, "Every Redis client at the engine's speed"). Here each argument's
 * bytes are copied once, straight into its string, as they arrive. {@link FrameLimits}, before this,
 * has already bounded the frames to the shape of a command; arguments are decoded as Latin-1, which
 * maps each byte to one char and back, so they stay binary-safe ({@code ECHO} answers the very
 * bytes it was sent).
 */
final class CommandAssembler extends ChannelInboundHandlerAdapter {
    /**
     * One command's words, in order; empty for a blank line; {@code malformed} when an array held
     * something other than bulk strings (a null bulk string).
     */
    record Words(List<String> words, boolean malformed) {
    }

    /** The words of the command being put together, null between commands. */
    private List<String> words;
    private int expected;
    private boolean malformed;
    private byte[] argument;
    private int filled;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        Words command;
        try {
            command = take(msg);
        } finally {
            ReferenceCountUtil.release(msg);
        }
        if (command != null) {
            ctx.fireChannelRead(command);
        }
    }

    /** Takes a frame; gives the command it completes, or null while the command is unfinished. */
    private Words take(Object msg) {
        if (msg instanceof InlineCommandRedisMessage inline) {
            String line = inline.content().strip();
            return new Words(line.isEmpty() ? List.of() : List.of(line.split("\\s+")), false);
        }
        if (msg instanceof ArrayHeaderRedisMessage header) {
            if (header.isNull() || header.length() == 0) {
                return new Words(List.of(), false);
            }
            expected = (int) header.length();
            words = new ArrayList<>(expected);
            malformed = false;
            return null;
        }
        if (msg instanceof BulkStringHeaderRedisMessage header) {
            argument = new byte[header.bulkStringLength()];
            filled = 0;
            return null;
        }
        if (msg instanceof FullBulkStringRedisMessage whole) {
            // The empty and the null bulk string come whole, without a header.
            malformed |= whole.isNull();
            words.add("");
        } else {
            ByteBuf bytes = ((BulkStringRedisContent) msg).content();
            int count = bytes.readableBytes();
            bytes.getBytes(bytes.readerIndex(), argument, filled, count);
            filled += count;
            if (!(msg instanceof LastBulkStringRedisContent)) {
                return null;
            }
            words.add(new String(argument, 0, filled, StandardCharsets.ISO_8859_1));
            argument = null;
        }
        if (words.size() < expected) {
            return null;
        }
        Words command = new Words(words, malformed);
        words = null;
        return command;
    }
}
