package io.slotted.server.resp;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.redis.ArrayHeaderRedisMessage;
import io.netty.handler.codec.redis.BulkStringHeaderRedisMessage;
import io.netty.handler.codec.redis.BulkStringRedisContent;
import io.netty.handler.codec.redis.InlineCommandRedisMessage;
import io.netty.handler.codec.redis.LastBulkStringRedisContent;
import io.netty.handler.codec.redis.IntegerRedisMessage;
import io.netty.handler.codec.redis.RedisCodecException;
import io.netty.handler.codec.redis.SimpleStringRedisMessage;
import io.netty.util.ReferenceCountUtil;

/**
 * Holds what a client sends to the shape of a command, between Netty's RESP decoder and the
 * {@link CommandAssembler}, so that no frame can make the server hold more than a command's worth of memory.
 *
 * <p>Netty's aggregators would otherwise take a client at its word: an array header
 * {@code *2147483647} makes the array aggregator allocate room for that many elements at once, a
 * bulk string may announce 512 MB, and arrays nested inside arrays stack up without end. A command
 * is a flat array of bulk strings (or an inline line), so this lets through arrays of at most
 * {@value #MAX_ARGUMENTS} elements, bulk strings of at most {@value #MAX_BULK_BYTES} bytes, and
 * nothing else; anything else is a protocol error, worded as Redis words it, after which the
 * connection is answered and closed and everything it still sends is dropped.
 */
final class FrameLimits extends ChannelInboundHandlerAdapter {
    /** The most elements of one command: MGET's 1,000 keys with room to say that is too many. */
    static final int MAX_ARGUMENTS = 4096;
    /** The longest argument: 64 KiB, far more than any key or number. */
    static final int MAX_BULK_BYTES = 64 * 1024;

    /** Elements of the current command still to come; 0 between commands. */
    private long remaining;
    private boolean broken;

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (broken) {
            ReferenceCountUtil.release(msg);
            return;
        }
        String violation = violation(msg);
        if (violation != null) {
            broken = true;
            ReferenceCountUtil.release(msg);
            ctx.fireExceptionCaught(new RedisCodecException(violation));
            return;
        }
        ctx.fireChannelRead(msg);
    }

    /** What is wrong with the frame, in Redis's words, or null when it is allowed. */
    private String violation(Object msg) {
        if (msg instanceof ArrayHeaderRedisMessage header) {
            if (remaining > 0) {
                return "expected '$', got '*'";
            }
            if (header.length() > MAX_ARGUMENTS) {
                return "invalid multibulk length (at most " + MAX_ARGUMENTS + " arguments)";
            }
            remaining = header.isNull() ? 0 : header.length();
            return null;
        }
        if (msg instanceof BulkStringHeaderRedisMessage header) {
            if (remaining == 0) {
                return "expected '*', got '$'";
            }
            return header.bulkStringLength() > MAX_BULK_BYTES
                    ? "invalid bulk length (at most " + MAX_BULK_BYTES + " bytes)" : null;
        }
        if (msg instanceof LastBulkStringRedisContent) {
            // Also the empty and null bulk strings, which come whole, without a header.
            if (remaining == 0) {
                return "expected '*', got '$'";
            }
            remaining--;
            return null;
        }
        if (msg instanceof BulkStringRedisContent) {
            return null;
        }
        if (msg instanceof InlineCommandRedisMessage) {
            return null;
        }
        // A simple string, error or integer: never part of a command.
        return remaining > 0 ? "expected '$', got '" + typeMark(msg) + "'"
                : "expected '*', got '" + typeMark(msg) + "'";
    }

    private static char typeMark(Object msg) {
        if (msg instanceof SimpleStringRedisMessage) {
            return '+';
        }
        return msg instanceof IntegerRedisMessage ? ':' : '-';
    }
}
