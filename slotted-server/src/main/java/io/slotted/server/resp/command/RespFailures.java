package io.slotted.server.resp.command;

import io.netty.handler.codec.redis.ErrorRedisMessage;
import io.netty.handler.codec.redis.RedisMessage;
import io.slotted.ContentionException;
import io.slotted.CounterOverflowException;
import io.slotted.DatabaseUnavailableException;
import io.slotted.LimitExceededException;
import io.slotted.NameLimitException;
import io.slotted.OutcomeUnknownException;
import io.slotted.QueueFullException;
import io.slotted.SlottedException;
import io.slotted.TotalUnavailableException;
import io.slotted.server.store.FailureMessage;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Words a failed command's answer: an {@code -ERR} that says what happened to the increment and
 * what to do, as the HTTP API's 503 answers say it. Every failure but an unknown commit outcome
 * guarantees that nothing was applied, and the answer says so.
 */
final class RespFailures {
    /** An increment refused because the total could leave the signed 64-bit range. */
    static final String OVERFLOW = "ERR increment or decrement would overflow";

    private static final Logger log = LoggerFactory.getLogger(RespFailures.class);

    private RespFailures() {
    }

    /**
     * The answer to a command whose future failed.
     *
     * @param failure what it failed with, possibly wrapped by a dependent stage
     * @return the error answer
     */
    static RedisMessage answer(Throwable failure) {
        Throwable cause = unwrap(failure);
        if (cause instanceof RespError refused) {
            return refused.answer();
        }
        if (cause instanceof SlottedException library) {
            if (!(library instanceof CounterOverflowException) && !(library instanceof NameLimitException)
                    && !(library instanceof LimitExceededException)) {
                log.warn("a Redis-protocol command failed: {}", FailureMessage.of(library));
            }
            return new ErrorRedisMessage(wording(library));
        }
        if (cause instanceof IllegalStateException stopping) {
            return new ErrorRedisMessage("ERR the server is stopping (" + stopping.getMessage()
                    + "); nothing was applied: retry on another instance or later");
        }
        log.error("a Redis-protocol command failed unexpectedly", cause);
        return new ErrorRedisMessage("ERR the server failed unexpectedly and logged why; read the"
                + " counter before retrying an increment");
    }

    /**
     * The answer to an increment whose future failed: as {@link #answer}, except that a counter
     * the increment would take out of range is answered as Redis answers it.
     *
     * @param failure what it failed with, possibly wrapped by a dependent stage
     * @return the error answer
     */
    static RedisMessage answerIncrement(Throwable failure) {
        Throwable cause = unwrap(failure);
        if (cause instanceof TotalUnavailableException) {
            return answerAppliedButUnread(cause.getCause() == null ? cause : cause.getCause());
        }
        return cause instanceof CounterOverflowException ? new ErrorRedisMessage(OVERFLOW) : answer(failure);
    }

    /**
     * The answer to an increment that was applied durably but whose total could not be read
     * after it.
     *
     * @param failure what the read failed with
     * @return an error answer that tells the client not to retry the increment
     */
    private static RedisMessage answerAppliedButUnread(Throwable failure) {
        Throwable cause = unwrap(failure);
        log.warn("an increment was applied but its total could not be read: {}", cause.toString());
        return new ErrorRedisMessage("ERR the increment was applied, but the total could not be read"
                + " after it (" + RespText.oneLine(String.valueOf(cause.getMessage()))
                + "): do not retry the increment; read the counter with GET");
    }

    private static Throwable unwrap(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
    }

    private static String wording(SlottedException e) {
        if (e instanceof LimitExceededException refused) {
            return "ERR " + FailureMessage.ofRefusal(refused);
        }
        if (e instanceof CounterOverflowException || e instanceof NameLimitException) {
            return "ERR " + RespText.oneLine(e.getMessage());
        }
        if (e instanceof OutcomeUnknownException) {
            return "ERR the database connection was lost while committing and the outcome is"
                    + " unknown: the increment may or may not have been applied; read the counter"
                    + " before retrying it";
        }
        if (e instanceof QueueFullException) {
            return "ERR the write queue is full, so the increment was not applied: the database is"
                    + " slower than the load or down; retry later";
        }
        if (e instanceof ContentionException) {
            return "ERR lock conflicts outlasted every retry, so the increment was not applied;"
                    + " retry later";
        }
        if (e instanceof DatabaseUnavailableException) {
            return "ERR no database connection could be had in time (the database is down, or"
                    + " every connection stayed busy), so nothing was applied; retry later";
        }
        return "ERR the database refused the work, so nothing was applied; the server log says why";
    }
}
