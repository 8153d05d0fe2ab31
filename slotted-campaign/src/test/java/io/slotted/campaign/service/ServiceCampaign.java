package io.slotted.campaign.service;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.slotted.SlottedCounters;
import io.slotted.WriteMode;
import io.slotted.campaign.CampaignSettings;
import io.slotted.campaign.check.HistoryChecker;
import io.slotted.campaign.faults.CampaignServer;
import io.slotted.campaign.faults.FaultProxy;
import io.slotted.campaign.faults.FaultSchedule;
import io.slotted.campaign.faults.ServerKind;
import io.slotted.campaign.history.Counter;
import io.slotted.campaign.history.History;
import io.slotted.campaign.workload.CampaignTypes;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of the fault campaign through the service: a private database server, a fault proxy in
 * front of it, two {@code slotted serve} processes ({@link ServiceProcess}) reaching it through the
 * proxy, client threads sending a mixed workload to both over HTTP and the Redis protocol
 * ({@link ServiceWorkload}) while faults are made at random ({@link FaultSchedule}: the
 * wire's, the database's, and the processes' own, killed and restarted), then everything healed,
 * every operation answered (or recorded as never answered), the processes stopped gracefully, each
 * counter's final value read directly from the database past the proxy, and the whole history
 * checked ({@link HistoryChecker}).
 *
 * <p><b>The processes.</b> {@code s1} has a short request deadline, drawn from the seed among 2 s,
 * 5 s and the service's default of 10 s, all shorter than what a dropped answer takes to resolve:
 * many of its writes are answered at the deadline, {@code timeout} when nothing was handed to the
 * counters and {@code outcome_unknown} when it was. {@code s2} has 30 s, long enough for the
 * engine to learn most outcomes and answer them as applied or not. Each path is held to the
 * contract. Both reach the database with the driver's socket timeout of 10 s, as an operator
 * should set it.
 *
 * <p><b>The final values.</b> The service pins the type names to the campaign's numbers
 * ({@link ServiceTypes}) in its default table, so a library instance in {@code DIRECT} mode on the
 * server's own URL reads the same rows the service wrote.
 */
public final class ServiceCampaign {
    private static final Logger LOG = LoggerFactory.getLogger(ServiceCampaign.class);
    /** The table {@code slotted serve} counts in by default. */
    private static final String TABLE = "slotted_counters";
    /** The driver's socket timeout of the processes' pools, as an operator should set it. */
    private static final Duration SOCKET_TIMEOUT = Duration.ofSeconds(10);
    /** The short request deadlines {@code s1} draws from. */
    private static final List<Duration> SHORT_DEADLINES = List.of(Duration.ofSeconds(2), Duration.ofSeconds(5),
            Duration.ofSeconds(10));
    /** {@code s2}'s request deadline, and the other processes'. */
    private static final Duration LONG_DEADLINE = Duration.ofSeconds(30);
    /** How long a fault may take once the time is up: a process's restart included. */
    private static final long FAULTS_END_WITHIN_SECONDS = 300;

    private ServiceCampaign() {
    }

    /** Runs a campaign on a private server started for it, and stops the server after. */
    public static ServiceCampaignReport run(CampaignSettings settings) {
        String name = "service-" + Long.toHexString(settings.seed());
        try (CampaignServer server = settings.database().start(name)) {
            return run(settings, server, Path.of("target", "service-campaign", name + "-"
                    + settings.database().name().toLowerCase(Locale.ROOT)));
        }
    }

    private static ServiceCampaignReport run(CampaignSettings settings, CampaignServer server, Path directory) {
        LOG.info("service campaign on {} with seed {} for {}: replay with {}", settings.database(), settings.seed(),
                settings.duration(), ServiceCampaignReport.replayCommand(settings));
        History history = new History();
        List<ServiceProcess> processes = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        try (FaultProxy proxy = FaultProxy.inFrontOf(server, settings.seed())) {
            String url = withSocketTimeout(server.kind(), server.jdbcUrlVia(proxy));
            Duration shortDeadline = SHORT_DEADLINES.get(new Random(settings.seed()).nextInt(SHORT_DEADLINES.size()));
            // One after the other: the first creates the schema, the next finds it.
            for (int i = 0; i < settings.processes(); i++) {
                processes.add(ServiceProcess.start("s" + (i + 1), url, i == 0 ? shortDeadline : LONG_DEADLINE,
                        directory));
            }
            FaultSchedule<ServiceFault> faults = new FaultSchedule<>(settings.seed(), server, List.of(proxy),
                    ServiceFault.values(), (fault, draw) -> {
                        ServiceProcess process = draw.pick(processes);
                        switch (fault) {
                            case KILL_SERVICE -> process.killAndRestart(Duration.ofMillis(draw.millisBetween(200,
                                    2_000)));
                            case RESTART_SERVICE -> process.stopAndRestart();
                        }
                    });
            try (ServiceWorkload workload = new ServiceWorkload(history, processes, settings.seed())) {
                long endAt = System.nanoTime() + settings.duration().toNanos();
                List<CompletableFuture<Void>> clients = new ArrayList<>();
                for (int i = 0; i < settings.clients(); i++) {
                    int index = i;
                    clients.add(runOnThread("service-campaign-client-" + i,
                            () -> workload.runClient(index, () -> System.nanoTime() < endAt)));
                }
                CompletableFuture<Void> schedule = runOnThread("service-campaign-faults",
                        () -> faults.run(() -> System.nanoTime() < endAt));
                join(schedule, settings.duration().toSeconds() + FAULTS_END_WITHIN_SECONDS);
                long drain = processes.stream().mapToLong(process -> process.patience().toSeconds()).max().orElse(0)
                        + 30;
                clients.forEach(client -> join(client, drain));
                CampaignTypes.waitUntilExpiriesPassed(workload.latestExpiry());
            }
            stopAll(processes);
            processes.forEach(process -> notes.addAll(process.notes()));
            Map<Counter, Long> finals = finalValues(server);
            Map<String, Duration> deadlines = new LinkedHashMap<>();
            processes.forEach(process -> deadlines.put(process.name(), process.requestTimeout()));
            return new ServiceCampaignReport(settings, history.operations(), faults.made(),
                    HistoryChecker.check(history.operations(), finals, CampaignTypes.limits()), finals, deadlines,
                    notes);
        } finally {
            stopAll(processes);
        }
    }

    /** Stops every process gracefully; a failure to stop one does not leave the others running. */
    private static void stopAll(List<ServiceProcess> processes) {
        RuntimeException failure = null;
        for (ServiceProcess process : processes) {
            try {
                process.stop();
            } catch (RuntimeException e) {
                failure = failure == null ? e : failure;
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** Each counter's value once everything is healed, answered and stopped, read directly, past the proxy. */
    private static Map<Counter, Long> finalValues(CampaignServer server) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(server.jdbcUrl());
        config.setMaximumPoolSize(2);
        try (HikariDataSource pool = new HikariDataSource(config);
                SlottedCounters counters = SlottedCounters.builder(pool).table(TABLE).writeMode(WriteMode.DIRECT)
                        .expiring(CampaignTypes.EXPIRING).build()) {
            Map<Counter, Long> finals = new LinkedHashMap<>();
            java.util.stream.Stream.of(CampaignTypes.HOT_COUNTERS, CampaignTypes.STOCK_COUNTERS,
                    CampaignTypes.RESET_COUNTERS, CampaignTypes.EXPIRING_COUNTERS).flatMap(List::stream).forEach(counter -> finals.put(counter, counters.get(counter.type(), counter.id()))); // the service's
            return finals;
        }
    }

    /** The URL with the driver's socket timeout. */
    private static String withSocketTimeout(ServerKind kind, String url) {
        return url + (url.contains("?") ? "&" : "?") + kind.socketTimeoutParameter(SOCKET_TIMEOUT);
    }

    private static CompletableFuture<Void> runOnThread(String name, Runnable work) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                work.run();
                done.complete(null);
            } catch (Throwable e) {
                done.completeExceptionally(e);
            }
        }, name);
        thread.setDaemon(true);
        thread.start();
        return done;
    }

    /** Waits for work started by the campaign, failing with its error; one still running is left to the history. */
    private static void join(CompletableFuture<Void> work, long seconds) {
        try {
            work.get(seconds, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            LOG.warn("service campaign work still running after {} s: its open operations are recorded as never"
                    + " answered", seconds);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the service campaign ran", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("service campaign work failed: " + e.getCause(), e.getCause());
        }
    }
}
