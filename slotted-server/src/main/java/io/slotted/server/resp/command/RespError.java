package io.slotted.server.resp.command;

import io.netty.handler.codec.redis.ErrorRedisMessage;

/**
 * A command that ends in an error answer, already worded as Redis words its errors: a prefix such
 * as {@code ERR}, {@code NOAUTH} or {@code WRONGPASS}, then the message.
 */
final class RespError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** A number argument that is not one, in Redis's words. */
    static final String NOT_AN_INTEGER = "ERR value is not an integer or out of range";

    RespError(String answer) {
        super(answer, null, false, false);
    }

    ErrorRedisMessage answer() {
        return new ErrorRedisMessage(getMessage());
    }
}
