package io.slotted.server.resp;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.redis.ErrorRedisMessage;
import io.netty.handler.codec.redis.RedisDecoder;
import io.netty.handler.codec.redis.RedisEncoder;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.IdentityCipherSuiteFilter;
import io.netty.handler.ssl.JdkSslContext;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.slotted.server.auth.GuardedAccess;
import io.slotted.server.metrics.ServerMetrics;
import io.slotted.server.names.CounterNaming;
import io.slotted.server.resp.command.RespCommands;
import io.slotted.server.resp.command.RespMetrics;
import io.slotted.server.store.AsyncCounters;
import io.slotted.server.tls.ServerTls;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Redis-protocol front end: RESP2 over TCP on Netty, in front of the service's counters, so
 * that {@code redis-cli INCR downloads:456} counts durably in the SQL database.
 *
 * <p>Each connection's bytes go through Netty's RESP decoder (inline commands included, for a
 * person typing at a terminal), {@link FrameLimits} (which keeps every frame to a command's size),
 * a {@link CommandAssembler} (which puts each command's words together), and a
 * {@link RespConnection}, which runs the commands and answers them in
 * order. Commands never hold an event-loop thread while the database works: increments and reads
 * go to {@link AsyncCounters}, and answers are written when their futures complete.
 *
 * <p>Bounds: {@link RespSettings#maxConnections()} connections, reads of at most
 * {@value #MAX_READ_BYTES} bytes at a time, {@link RespSettings#maxUnanswered()} commands in
 * flight per connection, {@value #WRITE_HIGH_WATER_BYTES} bytes of answers the client has not
 * read before the connection stops being read, and the service's request deadline for every
 * command, past which it is answered with what is known (the same deadline as HTTP's).
 *
 * <p>{@link #stop()} closes every client connection itself, idle or with commands in flight, and
 * then stops the event loops, each step within a bound: a client never keeps the front end from
 * stopping.
 */
public final class RespFrontEnd {
    /** The most bytes one read takes from a connection, which bounds the commands it decodes. */
    static final int MAX_READ_BYTES = 16 * 1024;
    /** Unread answers past which a connection is no longer read, and below which it is again. */
    static final int WRITE_HIGH_WATER_BYTES = 64 * 1024;
    static final int WRITE_LOW_WATER_BYTES = 32 * 1024;
    /** How long each step of a stop may take: closing the connections, stopping the loops. */
    static final long STOP_TIMEOUT_MILLIS = 5_000;

    private static final Logger log = LoggerFactory.getLogger(RespFrontEnd.class);

    private final RespSettings settings;
    private final SslContext tls;
    private final RespCommands commands;
    private final RespMetrics metrics;
    private final AtomicLong connectionIds = new AtomicLong();
    /** The open client connections; a closed one leaves by itself. */
    private final ChannelGroup connections = new DefaultChannelGroup("slotted-resp",
            GlobalEventExecutor.INSTANCE);
    private EventLoopGroup acceptor;
    private EventLoopGroup workers;
    private Channel listener;

    /**
     * Creates the front end, not yet listening.
     *
     * @param counters the counters, as front ends use them
     * @param naming how keys name counters
     * @param access who may do what
     * @param metrics where commands are recorded
     * @param settings the bounds it keeps
     * @param deadline how long a command may take from its arrival, the service's request deadline
     * @param version the service's version, for {@code HELLO} and {@code INFO}
     * @param tls the TLS every connection starts with, or null for plain TCP
     */
    public RespFrontEnd(AsyncCounters counters, CounterNaming naming, GuardedAccess access,
            ServerMetrics metrics, RespSettings settings, Duration deadline, String version,
            ServerTls tls) {
        this.settings = settings;
        this.tls = tls == null ? null : nettyContext(tls);
        this.metrics = new RespMetrics(metrics);
        this.commands = new RespCommands(counters, naming, access, this.metrics, deadline, version);
    }

    /**
     * Starts listening on the settings' port.
     *
     * @param bind the address to listen on
     * @throws IllegalStateException if the address cannot be listened on; nothing is left running
     */
    public void start(String bind) {
        int port = settings.port();
        acceptor = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        workers = new MultiThreadIoEventLoopGroup(Runtime.getRuntime().availableProcessors(),
                NioIoHandler.newFactory());
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(acceptor, workers)
                .channel(NioServerSocketChannel.class)
                .option(ChannelOption.SO_BACKLOG, 1024)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.RCVBUF_ALLOCATOR,
                        new AdaptiveRecvByteBufAllocator(512, 4096, MAX_READ_BYTES))
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK,
                        new WriteBufferWaterMark(WRITE_LOW_WATER_BYTES, WRITE_HIGH_WATER_BYTES))
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        accept(channel);
                    }
                });
        try {
            listener = bootstrap.bind(new InetSocketAddress(bind, port)).syncUninterruptibly().channel();
        } catch (RuntimeException e) {
            stop();
            throw new IllegalStateException("cannot listen for the Redis protocol on " + bind + ":"
                    + port + ": " + e.getMessage(), e);
        }
    }

    /**
     * Netty's view of the service's one TLS context. Netty takes the JDK context as it is, so a
     * renewed certificate reaches new connections through it; each handshake must finish within
     * Netty's handshake timeout (10 s), so a client that never finishes holds nothing for long.
     */
    private static SslContext nettyContext(ServerTls tls) {
        return new JdkSslContext(tls.sslContext(), false, null, IdentityCipherSuiteFilter.INSTANCE,
                ApplicationProtocolConfig.DISABLED,
                tls.requiresClientCertificates() ? ClientAuth.REQUIRE : ClientAuth.NONE,
                ServerTls.PROTOCOLS.toArray(String[]::new), false);
    }

    private void accept(SocketChannel channel) {
        connections.add(channel);
        int open = metrics.opened();
        channel.closeFuture().addListener(closed -> metrics.closed());
        if (tls != null) {
            channel.pipeline().addLast(tls.newHandler(channel.alloc()));
        }
        if (open > settings.maxConnections()) {
            channel.pipeline().addLast(new RedisEncoder());
            channel.writeAndFlush(new ErrorRedisMessage("ERR max number of clients reached"))
                    .addListener(ChannelFutureListener.CLOSE);
            return;
        }
        ChannelPipeline pipeline = channel.pipeline();
        if (!settings.idleTimeout().isZero()) {
            pipeline.addLast(new IdleStateHandler(0, 0, settings.idleTimeout().toMillis(),
                    TimeUnit.MILLISECONDS));
        }
        pipeline.addLast(new RedisDecoder(true))
                .addLast(new FrameLimits())
                .addLast(new CommandAssembler())
                .addLast(new RedisEncoder())
                .addLast(new RespConnection(commands, connectionIds.incrementAndGet(),
                        channel.remoteAddress().getAddress(),
                        settings.maxUnanswered()));
    }

    /**
     * The port listened on, which is the one asked for unless that was 0.
     *
     * @return the TCP port
     */
    public int port() {
        return ((InetSocketAddress) listener.localAddress()).getPort();
    }

    /**
     * Stops accepting, closes every client connection, and stops the event loops, each within
     * {@value #STOP_TIMEOUT_MILLIS} ms. Commands in flight still complete in the counters; their
     * answers are not sent, and their clients see the connection close.
     */
    public void stop() {
        if (listener != null) {
            listener.close().awaitUninterruptibly(STOP_TIMEOUT_MILLIS);
        }
        // Closed here, before the loops stop, so that every client sees its connection close at
        // once, and the stop does not rest on what a loop's shutdown does with the channels it has.
        if (!connections.close().awaitUninterruptibly(STOP_TIMEOUT_MILLIS)) {
            log.warn("{} Redis-protocol connections did not close within {} ms; stopping anyway",
                    connections.size(), STOP_TIMEOUT_MILLIS);
        }
        stopLoops(acceptor);
        stopLoops(workers);
    }

    /** Stops event loops, with no quiet period: nothing they hold is still owed to anyone. */
    private static void stopLoops(EventLoopGroup loops) {
        if (loops != null && !loops.shutdownGracefully(0, STOP_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)
                .awaitUninterruptibly(2 * STOP_TIMEOUT_MILLIS)) {
            log.warn("the Redis-protocol event loops did not stop within {} ms; stopping anyway",
                    2 * STOP_TIMEOUT_MILLIS);
        }
    }
}
