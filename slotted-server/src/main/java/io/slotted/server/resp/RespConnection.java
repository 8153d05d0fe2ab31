package io.slotted.server.resp;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.ssl.NotSslRecordException;
import io.netty.handler.codec.redis.ErrorRedisMessage;
import io.netty.handler.codec.redis.RedisCodecException;
import io.netty.handler.timeout.IdleStateEvent;
import io.slotted.server.resp.command.ClientState;
import io.slotted.server.resp.command.CommandAnswer;
import io.slotted.server.resp.command.RespCommands;
import java.io.IOException;
import java.net.InetAddress;
import javax.net.ssl.SSLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client connection: runs its commands and answers them in the order they were sent, however
 * the answers complete, with bounded memory.
 *
 * <p>Commands are started as they arrive (a pipeline of 1,000 increments joins the same group
 * commits), and each gives a future answer. Answers go out in command order: an answer that is
 * ready while earlier ones are not waits in the queue of unanswered commands; when a future
 * completes, on whatever thread learned the outcome, the connection's event loop is asked to write
 * every answer now ready at the head of the queue, and flushes once. No thread waits for an answer.
 *
 * <p>No command waits for ever: each has the service's request deadline, counted from its arrival.
 * Since answers go out in order and commands arrive in order, only the oldest unanswered command's
 * deadline matters at any time, so the connection keeps one timer on its event loop, for that
 * command, and none while nothing waits. When it fires, every command at the head whose deadline
 * has passed is given up ({@link CommandAnswer#giveUp()}: {@code -ERR timeout} or
 * {@code -ERR outcome unknown}) and the answers ready behind it go out; the late outcomes of those
 * commands are never written. The connection stays open and keeps serving.
 *
 * <p>Memory stays bounded however the client behaves. With {@value #DEFAULT_MAX_UNANSWERED}
 * commands unanswered, or with more written than the client has read (the channel is no longer
 * writable), the connection stops reading until answers go out; the kernel's buffers then push back
 * on the client. A client that sends without ever reading therefore holds at most one read's worth
 * of commands and their answers.
 *
 * <p>A malformed stream is answered {@code -ERR Protocol error: …} after the answers before it,
 * and the connection is closed; other connections are not affected.
 */
final class RespConnection extends ChannelInboundHandlerAdapter {
    /** Unanswered commands past which the connection stops reading. */
    static final int DEFAULT_MAX_UNANSWERED = 1024;

    private static final Logger log = LoggerFactory.getLogger(RespConnection.class);

    private final RespCommands commands;
    private final ClientState client;
    private final int maxUnanswered;
    private final ArrayDeque<CommandAnswer> unanswered = new ArrayDeque<>();
    private ChannelHandlerContext ctx;
    private boolean closing;
    private boolean unflushed;
    /** The timer for the oldest unanswered command's deadline, or null while none is set. */
    private ScheduledFuture<?> deadlineTimer;
    private final AtomicBoolean writeScheduled = new AtomicBoolean();

    RespConnection(RespCommands commands, long id, InetAddress address, int maxUnanswered) {
        this.commands = commands;
        this.client = new ClientState(id, address);
        this.maxUnanswered = maxUnanswered;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        CommandAssembler.Words command = (CommandAssembler.Words) msg;
        if (closing || command.words().isEmpty()) {
            return;
        }
        if (command.malformed()) {
            protocolError("expected '$' in a command's array");
            return;
        }
        answer(commands.run(client, command.words()));
        if (client.quitting()) {
            closing = true;
            ctx.channel().config().setAutoRead(false);
        }
        readOnlyWithRoom();
    }

    private void answer(CommandAnswer answer) {
        if (unanswered.isEmpty() && answer.isDone()) {
            ctx.write(answer.reply().join(), ctx.voidPromise());
            unflushed = true;
            return;
        }
        unanswered.add(answer);
        if (!answer.isDone()) {
            answer.reply().whenComplete((message, failure) -> scheduleWrite());
            if (deadlineTimer == null) {
                watchDeadline(answer);
            }
        }
    }

    /** Sets the timer for a command's deadline; only one is set at a time. */
    private void watchDeadline(CommandAnswer answer) {
        long delay = answer.deadlineNanos() - System.nanoTime();
        deadlineTimer = ctx.executor().schedule(this::deadlinePassed, Math.max(0, delay),
                TimeUnit.NANOSECONDS);
    }

    /**
     * On the event loop: gives up the commands whose deadline has passed, oldest first, and sets
     * the timer again for the oldest one still waiting. Deadlines grow in command order, so the
     * first command still within its deadline ends the walk. The walk only looks: giving a
     * command up completes its answer, which writes what is ready and so changes the queue.
     */
    private void deadlinePassed() {
        deadlineTimer = null;
        long now = System.nanoTime();
        List<CommandAnswer> late = new ArrayList<>();
        CommandAnswer next = null;
        for (CommandAnswer answer : unanswered) {
            if (answer.isDone()) {
                continue;
            }
            if (answer.deadlineNanos() - now > 0) {
                next = answer;
                break;
            }
            late.add(answer);
        }
        late.forEach(CommandAnswer::giveUp);
        if (next != null && !next.isDone()) {
            watchDeadline(next);
        }
        writeReady();
    }

    /**
     * Called from any thread: writes what is ready, on the connection's event loop. A flusher or
     * reader completes many answers of a pipeline at once; they share one task on the event loop
     * (each task is a wake-up of its selector), which writes every answer ready when it runs.
     */
    private void scheduleWrite() {
        if (ctx.executor().inEventLoop()) {
            writeReady();
        } else if (writeScheduled.compareAndSet(false, true)) {
            ctx.executor().execute(this::writeReady);
        }
    }

    /** Writes the answers ready at the head of the queue, in order, and flushes once. */
    private void writeReady() {
        // Cleared before looking: an answer completed from now on schedules another task.
        writeScheduled.set(false);
        while (!unanswered.isEmpty() && unanswered.peek().isDone()) {
            ctx.write(unanswered.poll().reply().join(), ctx.voidPromise());
            unflushed = true;
        }
        flush();
        readOnlyWithRoom();
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        // Answers that became ready while the read was handled go out with the rest.
        writeReady();
    }

    private void flush() {
        if (unflushed) {
            unflushed = false;
            ctx.flush();
        }
        if (closing && unanswered.isEmpty()) {
            ctx.writeAndFlush(io.netty.buffer.Unpooled.EMPTY_BUFFER)
                    .addListener(ChannelFutureListener.CLOSE);
        }
    }

    /** Reads on while there is room for more answers; stops until answers go out otherwise. */
    private void readOnlyWithRoom() {
        Channel channel = ctx.channel();
        boolean room = !closing && channel.isWritable() && unanswered.size() < maxUnanswered;
        if (channel.config().isAutoRead() != room) {
            channel.config().setAutoRead(room);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        // Answers that come now have nobody to go to; the timer need not wake the loop for them.
        if (deadlineTimer != null) {
            deadlineTimer.cancel(false);
            deadlineTimer = null;
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        readOnlyWithRoom();
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event instanceof IdleStateEvent && unanswered.isEmpty()) {
            ctx.close();
            return;
        }
        ctx.fireUserEventTriggered(event);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof NotSslRecordException || cause.getCause() instanceof SSLException) {
            // A client without TLS, or without the CA or a certificate: nothing can be answered
            // on a connection whose handshake failed, and a loop of them must not flood the log.
            log.debug("closing a Redis-protocol connection whose TLS handshake failed: {}",
                    cause.getMessage());
            ctx.close();
            return;
        }
        if (cause instanceof RedisCodecException || cause instanceof DecoderException) {
            Throwable reason = cause instanceof DecoderException && cause.getCause() != null
                    ? cause.getCause() : cause;
            protocolError(reason.getMessage());
            return;
        }
        if (!(cause instanceof IOException)) {
            log.warn("closing a Redis-protocol connection after an unexpected failure", cause);
        }
        ctx.close();
    }

    /** Answers the error after the answers before it, then closes; nothing more is read. */
    private void protocolError(String reason) {
        if (closing) {
            return;
        }
        answer(CommandAnswer.ready(new ErrorRedisMessage("ERR Protocol error: " + reason)));
        closing = true;
        ctx.channel().config().setAutoRead(false);
        writeReady();
    }
}
