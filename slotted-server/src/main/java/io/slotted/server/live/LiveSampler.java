package io.slotted.server.live;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.slotted.SlottedCounters;
import io.slotted.SlottedStats;
import io.slotted.Ticker;
import io.slotted.server.metrics.ErrorCounts;
import io.slotted.server.metrics.ServerMetrics;
import io.slotted.server.names.CounterNaming;
import io.slotted.server.store.FailureMessage;
import java.time.Clock;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Samples what the live page shows, so that answering {@code GET /v1/live} costs a read of one
 * field however many pages poll it, and never waits for the database.
 *
 * <p>Once a second, on a thread of its own, it reads the engine's running totals, the write
 * latencies the front ends recorded since the last second, the open connections and the error
 * counts — all in memory — and publishes a new {@link LiveReport}. The counter types and their top
 * counters come from the database, so they are read less often ({@value #TYPES_EVERY_SECONDS} s),
 * only while a page has asked within the last {@value #WATCHED_FOR_SECONDS} s, and on a second
 * thread, so that a slow or unreachable database holds back only them: the page then shows the
 * last ones read, and why the read failed.
 */
public final class LiveSampler implements AutoCloseable {
    static final int TYPES_EVERY_SECONDS = 5;
    static final int WATCHED_FOR_SECONDS = 30;
    private static final Logger LOG = LoggerFactory.getLogger(LiveSampler.class);
    /** How long a stop waits for a read of the types under way, which it does not interrupt. */
    private static final long STOP_WAIT_SECONDS = 5;

    private final SlottedCounters counters;
    private final MeterRegistry registry;
    private final ServerMetrics metrics;
    private final TypesReader typesReader;
    private final Clock clock;
    private final Ticker ticker;
    private final SecondsWindow seconds = new SecondsWindow();
    private final ScheduledExecutorService ticks = daemon("slotted-live");
    private final ExecutorService databaseReads = daemon("slotted-live-types");
    private final AtomicBoolean reading = new AtomicBoolean();
    private volatile long watchedAtNanos;
    private volatile long typesReadAtNanos;
    private volatile TypesView types = new TypesView(new TypesReader.Read(List.of(), List.of()), null, null);
    private volatile LiveReport report;

    /**
     * The types and top counters as last read, published together so a sample never mixes one
     * read's types with another's time or problem.
     *
     * @param read what was read
     * @param readAt when, or null before the first read
     * @param problem why the last read failed, or null
     */
    private record TypesView(TypesReader.Read read, Instant readAt, String problem) {
    }

    /**
     * Takes a first sample; nothing runs until {@link #start()}.
     *
     * @param counters the counters the service writes through
     * @param naming how the service names types and ids
     * @param metrics the service's meters
     */
    public LiveSampler(SlottedCounters counters, CounterNaming naming, ServerMetrics metrics) {
        this.counters = counters;
        this.registry = metrics.registry();
        this.metrics = metrics;
        this.typesReader = new TypesReader(counters, naming);
        this.clock = counters.config().clock();
        this.ticker = counters.config().ticker();
        long longAgo = ticker.read() - TimeUnit.DAYS.toNanos(1);
        this.watchedAtNanos = longAgo;
        this.typesReadAtNanos = longAgo;
        sample();
    }

    /**
     * Samples every second from now on: a second after each sample ends, so that a slow sample
     * delays the next rather than bunching the ones after it.
     */
    public void start() {
        ticks.scheduleWithFixedDelay(this::sampleLogged, 1, 1, TimeUnit.SECONDS);
    }

    private static ScheduledExecutorService daemon(String name) {
        return Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * The latest sample; asking marks the page as watched, so the types are kept fresh.
     *
     * @return the report
     */
    public LiveReport report() {
        watchedAtNanos = ticker.read();
        return report;
    }

    /** A failing sample must not end the schedule, which would freeze the page without a word. */
    private void sampleLogged() {
        try {
            sample();
        } catch (RuntimeException e) {
            LOG.warn("the live page's sample failed; the next second tries again", e);
        }
    }

    /** One second's sample, and a read of the types when one is due. */
    void sample() {
        SlottedStats stats = counters.stats();
        Instant now = clock.instant();
        TypesView known = types;
        seconds.add(now.toEpochMilli(), stats, metrics.writeLatency().interval());
        report = new LiveReport(now.toString(), counters.config().writeMode().name().toLowerCase(Locale.ROOT),
                new LiveReport.Totals(stats.incrementsApplied(), stats.flushes(), stats.retries(),
                        stats.outcomesUnknown(), stats.incrementsDropped()),
                new LiveReport.Queue(stats.queued(), counters.config().queueCapacity()),
                new LiveReport.Connections(gauge("slotted.http.connections"),
                        registry.find("slotted.resp.connections").gauge() == null ? null
                                : gauge("slotted.resp.connections")),
                seconds.columns(), errors(), known.read().types(), known.read().top(),
                known.readAt() == null ? null : known.readAt().toString(), known.problem());
        long nanos = ticker.read();
        if (nanos - watchedAtNanos < TimeUnit.SECONDS.toNanos(WATCHED_FOR_SECONDS)
                && nanos - typesReadAtNanos >= TimeUnit.SECONDS.toNanos(TYPES_EVERY_SECONDS)
                && reading.compareAndSet(false, true)) {
            typesReadAtNanos = nanos;
            databaseReads.execute(this::readTypes);
        }
    }

    private void readTypes() {
        try {
            Instant now = clock.instant();
            types = new TypesView(typesReader.read(now), now, null);
        } catch (RuntimeException e) {
            TypesView last = types;
            types = new TypesView(last.read(), last.readAt(),
                    "the counter types could not be read: " + FailureMessage.of(e));
        } finally {
            reading.set(false);
        }
    }

    private int gauge(String name) {
        Gauge gauge = registry.find(name).gauge();
        return gauge == null ? 0 : (int) gauge.value();
    }

    private List<LiveReport.ErrorCount> errors() {
        return registry.find(ErrorCounts.NAME).counters().stream()
                .map(c -> new LiveReport.ErrorCount(c.getId().getTag("front_end"), c.getId().getTag("code"),
                        (long) c.count()))
                .sorted(Comparator.comparingLong(LiveReport.ErrorCount::count).reversed()
                        .thenComparing(LiveReport.ErrorCount::code))
                .toList();
    }

    /**
     * Stops sampling. A read of the types under way is let finish (up to {@value #STOP_WAIT_SECONDS}
     * s) rather than interrupted: an interrupt can close an H2 database's file under the service.
     */
    @Override
    public void close() {
        ticks.shutdown();
        databaseReads.shutdown();
        try {
            ticks.awaitTermination(STOP_WAIT_SECONDS, TimeUnit.SECONDS);
            databaseReads.awaitTermination(STOP_WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
