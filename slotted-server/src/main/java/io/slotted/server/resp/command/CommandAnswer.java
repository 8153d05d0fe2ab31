package io.slotted.server.resp.command;

import io.netty.handler.codec.redis.RedisMessage;
import io.slotted.server.store.WriteGate;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * One command's answer, ready or still to come, and what the command is answered instead if its
 * deadline passes first.
 *
 * <p>The deadline counts from the command's arrival. When it passes, {@link #giveUp()} answers the
 * command at once with what is known: {@code -ERR timeout: …} if its write was not handed to the
 * library yet (and now never will be) or it only reads, {@code -ERR outcome unknown: …} if the
 * write was handed over and may still land ({@link WriteGate}). Whatever completes the command
 * later is dropped: the answer was given, and the client reads exactly one answer per command.
 */
public final class CommandAnswer {
    private final CompletableFuture<RedisMessage> reply;
    private final RespCommand command;
    private final WriteGate gate;
    private final long startedNanos;
    private final Duration deadline;
    private final RespMetrics metrics;

    CommandAnswer(CompletableFuture<RedisMessage> reply, RespCommand command, WriteGate gate,
            long startedNanos, Duration deadline, RespMetrics metrics) {
        this.reply = reply;
        this.command = command;
        this.gate = gate;
        this.startedNanos = startedNanos;
        this.deadline = deadline;
        this.metrics = metrics;
    }

    /**
     * An answer known at once, such as a protocol error, which no deadline can change.
     *
     * @param message the answer
     * @return it, ready
     */
    public static CommandAnswer ready(RedisMessage message) {
        return new CommandAnswer(CompletableFuture.completedFuture(message), null, null,
                System.nanoTime(), Duration.ZERO, null);
    }

    /**
     * The answer, once it is known; it always completes with a reply (errors included), never
     * exceptionally.
     *
     * @return the answer's future
     */
    public CompletableFuture<RedisMessage> reply() {
        return reply;
    }

    /**
     * Whether the answer is known: the command finished, or was given up.
     *
     * @return true once {@link #reply()} is complete
     */
    public boolean isDone() {
        return reply.isDone();
    }

    /**
     * When the deadline passes, on the {@link System#nanoTime()} scale.
     *
     * @return the command's arrival plus the deadline, in nanoseconds
     */
    public long deadlineNanos() {
        return startedNanos + deadline.toNanos();
    }

    /**
     * Answers the command with what its deadline allows, unless its answer has come; from then on
     * its own outcome is never written. Called on the connection's event loop once the deadline
     * has passed.
     */
    public void giveUp() {
        if (reply.isDone()) {
            return;
        }
        RedisMessage late = RespFailures.late(command, gate.giveUp(), deadline);
        if (reply.complete(late)) {
            metrics.record(command, late, startedNanos);
        }
    }
}
