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
import io.slotted.server.auth.Scope;
import io.slotted.server.store.FailureMessage;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Words a failed command's answer: an {@code -ERR} that says what happened to the increment and
 * what to do, as the HTTP API's 503 answers say it. Every failure but an unknown outcome
 * guarantees that nothing was applied, and the answer says so; an unknown outcome always begins
 * {@value #OUTCOME_UNKNOWN}, so a client can tell it from the rest by its first words.
 */
final class RespFailures {
    /** An increment refused because the total could leave the signed 64-bit range. */
    static final String OVERFLOW = "ERR increment or decrement would overflow";
    /** How an answer begins when a write may or may not have been applied. */
    static final String OUTCOME_UNKNOWN = "ERR outcome unknown: ";
    /** How an answer begins when a command was given up at its deadline with nothing written. */
    static final String TIMEOUT = "ERR timeout: ";
    /**
     * Why a retry of an increment must be thought about: Redis commands carry no idempotency key,
     * so the only safe retry is one that first reads what the counter holds.
     */
    private static final String NO_KEY = "Redis commands carry no idempotency key, so read the"
            + " counter with GET before retrying it (increments that must apply at most once can be"
            + " sent over HTTP with an Idempotency-Key, whose retries are safe)";

    private static final Logger log = LoggerFactory.getLogger(RespFailures.class);

    private RespFailures() {
    }

    /**
     * The answer to a command whose future failed.
     *
     * @param command the command
     * @param failure what it failed with, possibly wrapped by a dependent stage
     * @return the error answer
     */
    static RedisMessage answer(RespCommand command, Throwable failure) {
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
        if (cause instanceof CancellationException) {
            // The gate refused a write given up at its deadline. That answer was normally given at
            // the deadline and this one is dropped; it is written only if the refusal came first,
            // between the gate shutting and that answer.
            return new ErrorRedisMessage(TIMEOUT + "the command did not finish within its deadline"
                    + " and was given up before writing, so nothing was applied: retry later");
        }
        if (cause instanceof IllegalStateException stopping) {
            return new ErrorRedisMessage("ERR the server is stopping (" + stopping.getMessage()
                    + "); nothing was applied: retry on another instance or later");
        }
        log.error("a Redis-protocol command failed unexpectedly", cause);
        if (!writes(command)) {
            return new ErrorRedisMessage("ERR the server failed unexpectedly and logged why; nothing was"
                    + " written: retry later");
        }
        // The failure may have come after the write was handed to the counters.
        return new ErrorRedisMessage(OUTCOME_UNKNOWN + "the server failed unexpectedly and logged why, "
                + mayHaveApplied(command));
    }

    /** Whether the command may write: an increment, a set or a delete, or a transaction's EXEC. */
    private static boolean writes(RespCommand command) {
        return command == RespCommand.EXEC || command.scope() == Scope.WRITE || command.scope() == Scope.ADMIN;
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
        // Every increment command is worded alike.
        return cause instanceof CounterOverflowException ? new ErrorRedisMessage(OVERFLOW)
                : answer(RespCommand.INCRBY, failure);
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

    /**
     * The answer to a command whose deadline passed before its answer came: what it may promise
     * depends on whether its write was handed to the library ({@link io.slotted.server.store.WriteGate}).
     *
     * @param command the command; null for none of a counter's (never late)
     * @param writing whether its write was handed over and may still be applied
     * @param deadline the deadline it missed
     * @return an {@code -ERR timeout: …} when nothing was or will be written, an
     *     {@code -ERR outcome unknown: …} otherwise
     */
    static ErrorRedisMessage late(RespCommand command, boolean writing, Duration deadline) {
        String late = "the command did not finish within " + deadline.toMillis() + "ms (the"
                + " database is slow, locked or unreachable)";
        if (!writing) {
            return new ErrorRedisMessage(TIMEOUT + late + " and was given up"
                    + (command != null && command.scope() == Scope.READ ? "; a read changes nothing"
                            : " before writing, so nothing was applied") + ": retry later");
        }
        return new ErrorRedisMessage(OUTCOME_UNKNOWN + late + ", " + mayHaveApplied(command));
    }

    /** What a write handed over may have done, and how to retry it. */
    private static String mayHaveApplied(RespCommand command) {
        return switch (command) {
            case SET -> "so the set may or may not have been applied: setting a count is"
                    + " idempotent, so retrying it is safe";
            case DEL -> "so some of the counters may have been set to 0: setting them to 0 again is"
                    + " safe, but DEL then answers how many were not 0 yet";
            case EXEC -> "so the transaction's increments may or may not have been applied, all or"
                    + " none of them: Redis commands carry no idempotency key, so read the counters"
                    + " before retrying it";
            default -> "so the increment may or may not have been applied: " + NO_KEY;
        };
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
            return OUTCOME_UNKNOWN + "the database connection was lost while committing, so the"
                    + " increment may or may not have been applied: " + NO_KEY;
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
