package io.slotted.server.resp.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.redis.ErrorRedisMessage;
import io.netty.handler.codec.redis.RedisMessage;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/**
 * A failure the server did not foresee is answered by what it may have done: a write begins
 * {@code -ERR outcome unknown:}, as docs/api.md promises of every answer whose write may or may not
 * have been applied, and a read says nothing was written.
 */
class RespFailuresTest {
    private static String text(RedisMessage message) {
        return ((ErrorRedisMessage) message).content();
    }

    @Test
    void anUnexpectedFailureOfAWrite_isAnOutcomeUnknown() {
        RuntimeException unexpected = new NullPointerException("a bug");

        assertThat(text(RespFailures.answer(RespCommand.INCRBY, new CompletionException(unexpected))))
                .startsWith(RespFailures.OUTCOME_UNKNOWN).contains("read the counter with GET before retrying");
        assertThat(text(RespFailures.answerIncrement(unexpected))).startsWith(RespFailures.OUTCOME_UNKNOWN);
        assertThat(text(RespFailures.answer(RespCommand.SET, unexpected))).startsWith(RespFailures.OUTCOME_UNKNOWN)
                .contains("retrying it is safe");
        assertThat(text(RespFailures.answer(RespCommand.EXEC, unexpected))).startsWith(RespFailures.OUTCOME_UNKNOWN)
                .contains("all or none");
    }

    @Test
    void anUnexpectedFailureOfARead_saysNothingWasWritten() {
        String answer = text(RespFailures.answer(RespCommand.GET, new IllegalArgumentException("a bug")));

        assertThat(answer).doesNotStartWith(RespFailures.OUTCOME_UNKNOWN).contains("nothing was written");
    }
}
