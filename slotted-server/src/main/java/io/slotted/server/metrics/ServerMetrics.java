package io.slotted.server.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.slotted.SlottedCounters;
import io.slotted.micrometer.SlottedMetrics;

/**
 * The service's meters, served at {@code /metrics} in Prometheus text format: the counters engine's
 * statistics, the connection pool (HikariCP registers its own), the JVM, and whatever the front
 * ends record in {@link #registry()}, such as the HTTP requests.
 *
 * <p>Tags stay low in cardinality everywhere: never a record id or a type name given by a client,
 * whose values have no bound.
 */
public final class ServerMetrics implements AutoCloseable {
    /** The content type of Prometheus' text exposition format. */
    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final JvmGcMetrics gc = new JvmGcMetrics();
    private final WriteLatency writeLatency = new WriteLatency();
    private final ErrorCounts errors = new ErrorCounts(registry);

    /** Creates the registry and binds the JVM's meters to it. */
    public ServerMetrics() {
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        new FileDescriptorMetrics().bindTo(registry);
        gc.bindTo(registry);
    }

    /**
     * Where the pool, the front ends and anything else register meters.
     *
     * @return the registry
     */
    public MeterRegistry registry() {
        return registry;
    }

    /**
     * How long writes wait for their answer, which the front ends record.
     *
     * @return the latencies
     */
    public WriteLatency writeLatency() {
        return writeLatency;
    }

    /**
     * The error answers, which the front ends count.
     *
     * @return the counts
     */
    public ErrorCounts errors() {
        return errors;
    }

    /**
     * Publishes the counters' statistics.
     *
     * @param counters the counters the service writes through
     */
    public void bind(SlottedCounters counters) {
        new SlottedMetrics(counters).bindTo(registry);
    }

    /**
     * The current values of every meter.
     *
     * @return Prometheus text format
     */
    public String scrape() {
        return registry.scrape();
    }

    /** Stops the JVM binders that hold resources and closes the registry. */
    @Override
    public void close() {
        gc.close();
        registry.close();
    }
}
