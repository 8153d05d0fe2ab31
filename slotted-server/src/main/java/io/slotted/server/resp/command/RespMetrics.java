package io.slotted.server.resp.command;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.netty.handler.codec.redis.ErrorRedisMessage;
import io.netty.handler.codec.redis.RedisMessage;
import io.slotted.server.auth.Scope;
import io.slotted.server.metrics.ErrorCounts;
import io.slotted.server.metrics.ServerMetrics;
import io.slotted.server.metrics.WriteLatency;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Times every Redis-protocol command in one timer, {@code slotted.resp.commands}, tagged with the
 * command ({@code other} for names the front end does not know, which a client chooses without
 * bound) and its outcome ({@code ok} or {@code error}); counts open connections in
 * {@code slotted.resp.connections}. The timers are made once, so recording one costs no lookup.
 * Errors are counted by their first word in the service's {@link ErrorCounts}, and increments
 * answered without one in its {@link WriteLatency}.
 */
public final class RespMetrics {
    private static final String NAME = "slotted.resp.commands";
    /** The first words of the errors the front end writes; any other is counted as {@code ERR}. */
    private static final Set<String> ERROR_CODES = Set.of("ERR", "EXECABORT", "NOAUTH", "NOPERM",
            "NOPROTO", "WRONGPASS", "WRONGTYPE");

    private final Map<RespCommand, Timer> ok = new EnumMap<>(RespCommand.class);
    private final Map<RespCommand, Timer> failed = new EnumMap<>(RespCommand.class);
    private final Timer otherOk;
    private final Timer otherFailed;
    private final AtomicInteger connections = new AtomicInteger();
    private final WriteLatency writeLatency;
    private final ErrorCounts errors;

    /**
     * Registers the timers and the gauge.
     *
     * @param metrics the service's meters, where they are registered
     */
    public RespMetrics(ServerMetrics metrics) {
        MeterRegistry registry = metrics.registry();
        this.writeLatency = metrics.writeLatency();
        this.errors = metrics.errors();
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
        long nanos = System.nanoTime() - startedNanos;
        timer.record(nanos, TimeUnit.NANOSECONDS);
        if (error) {
            errors.count("resp", code((ErrorRedisMessage) answer));
        } else if (command != null && command.scope() == Scope.WRITE) {
            writeLatency.record(nanos);
        }
    }

    private static String code(ErrorRedisMessage error) {
        String content = error.content();
        int space = content.indexOf(' ');
        String first = space < 0 ? content : content.substring(0, space);
        return ERROR_CODES.contains(first) ? first : "ERR";
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
