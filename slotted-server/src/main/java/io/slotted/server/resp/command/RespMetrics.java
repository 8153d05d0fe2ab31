package io.slotted.server.resp.command;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.netty.handler.codec.redis.ErrorRedisMessage;
import io.netty.handler.codec.redis.RedisMessage;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Times every Redis-protocol command in one timer, {@code slotted.resp.commands}, tagged with the
 * command ({@code other} for names the front end does not know, which a client chooses without
 * bound) and its outcome ({@code ok} or {@code error}); counts open connections in
 * {@code slotted.resp.connections}. The timers are made once, so recording one costs no lookup.
 */
public final class RespMetrics {
    private static final String NAME = "slotted.resp.commands";

    private final Map<RespCommand, Timer> ok = new EnumMap<>(RespCommand.class);
    private final Map<RespCommand, Timer> failed = new EnumMap<>(RespCommand.class);
    private final Timer otherOk;
    private final Timer otherFailed;
    private final AtomicInteger connections = new AtomicInteger();

    /**
     * Registers the timers and the gauge.
     *
     * @param registry where they are registered
     */
    public RespMetrics(MeterRegistry registry) {
        for (RespCommand command : RespCommand.values()) {
            ok.put(command, timer(registry, command.label(), "ok"));
            failed.put(command, timer(registry, command.label(), "error"));
        }
        otherOk = timer(registry, "other", "ok");
        otherFailed = timer(registry, "other", "error");
        Gauge.builder("slotted.resp.connections", connections, AtomicInteger::get)
                .description("Open Redis-protocol connections")
                .register(registry);
    }

    private static Timer timer(MeterRegistry registry, String command, String outcome) {
        return Timer.builder(NAME)
                .description("Redis-protocol commands by command and outcome")
                .tag("command", command)
                .tag("outcome", outcome)
                .register(registry);
    }

    /** Records one answered command; {@code command} is null for an unknown name. */
    void record(RespCommand command, RedisMessage answer, long startedNanos) {
        boolean error = answer instanceof ErrorRedisMessage;
        Timer timer = command == null ? (error ? otherFailed : otherOk)
                : (error ? failed : ok).get(command);
        timer.record(System.nanoTime() - startedNanos, TimeUnit.NANOSECONDS);
    }

    /**
     * A connection was opened.
     *
     * @return the open connections, this one included
     */
    public int opened() {
        return connections.incrementAndGet();
    }

    /** A connection was closed. */
    public void closed() {
        connections.decrementAndGet();
    }
}
