package io.slotted.campaign;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.slotted.SlottedCounters;
import io.slotted.WriteMode;
import io.slotted.campaign.check.HistoryChecker;
import io.slotted.campaign.faults.CampaignServer;
import io.slotted.campaign.faults.FaultProxy;
import io.slotted.campaign.faults.FaultSchedule;
import io.slotted.campaign.faults.ServerFaults;
import io.slotted.campaign.faults.ServerKind;
import io.slotted.campaign.history.History;
import io.slotted.campaign.workload.CampaignTypes;
import io.slotted.campaign.workload.LibraryProcess;
import io.slotted.campaign.workload.Recounts;
import io.slotted.campaign.workload.ReleaseCycles;
import io.slotted.campaign.workload.Stalls;
import io.slotted.campaign.workload.Workload;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One run of the fault campaign through the library: a private server of its own, a fault proxy
 * in front of it, several library instances standing for application processes, client threads
 * sending a mixed workload to them while faults are made at random, then everything healed, every
 * operation answered (or recorded as never answered), each counter's final value read directly,
 * and the whole history checked ({@link HistoryChecker}).
 */
public final class Campaign {
    private static final Logger LOG = LoggerFactory.getLogger(Campaign.class);
    /** How long after the end the clients have to finish what they sent. */
    private static final long DRAIN_SECONDS = Workload.ANSWER_WITHIN_SECONDS + 30;
    /** The processes' socket timeout: longer than a lock wait, shorter than an outcome's resolution. */
    private static final Duration SOCKET_TIMEOUT = Duration.ofSeconds(10);

    private Campaign() {
    }

    /** Runs a campaign on a private server started for it, and stops the server after. */
    public static CampaignReport run(CampaignSettings settings) {
        try (CampaignServer server = settings.database().start("campaign-" + Long.toHexString(settings.seed()))) {
            return run(settings, server, "campaign_counters");
        }
    }

    /** Runs a campaign on {@code server}, in tables named after {@code table} that it creates. */
    public static CampaignReport run(CampaignSettings settings, CampaignServer server, String table) {
        LOG.info("campaign on {} with seed {} for {}: replay with {}", settings.database(), settings.seed(),
                settings.duration(), settings.replayCommand());
        migrate(server, table);
        History history = new History();
        List<LibraryProcess> processes = new ArrayList<>();
        List<FaultProxy> proxies = new ArrayList<>();
        try (HikariDataSource direct = directPool(server);
                SlottedCounters directCounters = LibraryProcess.countersOn(direct, table)) {
            List<Integer> ports = server.ports();
            for (int i = 0; i < ports.size(); i++) {
                proxies.add(FaultProxy.start(server.kind(), "127.0.0.1", ports.get(i), settings.seed() + 7 * i));
            }
            for (int i = 1; i <= settings.processes(); i++) {
                // On a cluster, each process counts through a node of its own.
                FaultProxy proxy = proxies.get((i - 1) % proxies.size());
                String url = withSocketTimeout(server.kind(), server.jdbcUrlVia(proxy));
                processes.add(new LibraryProcess("p" + i, url, table, modeOf(i, settings.processes())));
            }
            ReleaseCycles releases = new ReleaseCycles(history, direct, directCounters, table);
            releases.begin();
            Recounts recounts = new Recounts(table);
            recounts.createTable(direct);
            FaultSchedule<ProcessFault> faults = new FaultSchedule<>(settings.seed(), server, List.copyOf(proxies),
                    ProcessFault.values(), (fault, draw) -> {
                        LibraryProcess process = draw.pick(processes);
                        switch (fault) {
                            case CRASH_PROCESS -> process.crashAndRestart();
                            case CLOSE_PROCESS -> process.closeAndReopen();
                        }
                    });
            long endAt = System.nanoTime() + settings.duration().toNanos();
            BooleanSupplier running = () -> System.nanoTime() < endAt;
            Workload workload = new Workload(history, processes, releases, recounts, settings.seed());
            List<CompletableFuture<Void>> clients = new ArrayList<>();
            for (int i = 0; i < settings.clients(); i++) {
                int index = i;
                clients.add(runOnThread("campaign-client-" + i, () -> workload.runClient(index, running)));
            }
            CompletableFuture<Void> schedule = runOnThread("campaign-faults", () -> faults.run(running));
            FaultProxy releaseProxy = FaultProxy.inFrontOf(server, settings.seed() + 1);
            proxies.add(releaseProxy); // closed with the others; the fault schedule has its copy of the list
            LibraryProcess releasing = new LibraryProcess("releaser", withSocketTimeout(server.kind(),
                    server.jdbcUrlVia(releaseProxy)), table, WriteMode.GROUPED, false);
            CompletableFuture<Void> releaser = runOnThread("campaign-releases",
                    () -> releaseNowAndThen(releases, releasing, releaseProxy, settings.seed(), running));
            CompletableFuture<Void> recounter = runOnThread("campaign-recounts",
                    () -> recountNowAndThen(recounts, processes, settings.seed(), running));
            join(schedule, settings.duration().toSeconds() + 120);
            join(releaser, DRAIN_SECONDS);
            join(recounter, DRAIN_SECONDS);
            clients.forEach(client -> join(client, DRAIN_SECONDS));
            workload.close();
            processes.forEach(LibraryProcess::close);
            CampaignTypes.waitUntilExpiriesPassed(workload.latestExpiry());
            FinalState finals = FinalState.read(direct, directCounters, table, releases);
            releasing.close();
            recounts.recount(directCounters); // once more, everything healed
            return new CampaignReport(settings, history.operations(), faults.made(), releases.releases(),
                    recounts.recounts(), HistoryChecker.check(history.operations(), finals.values(),
                            CampaignTypes.limits()).plus(finals.anomalies()).plus(recounts.anomalies()),
                    finals.values());
        } finally {
            proxies.forEach(FaultProxy::close);
        }
    }

    /**
     * The write mode of process {@code i} of {@code n}: every mode meets the same counters, locks
     * and faults. The first groups increments, as every front end does; the second writes each in
     * its caller's own transaction; the third buffers them, its callers answered once their flush
     * is durable; any more group.
     */
    private static WriteMode modeOf(int i, int n) {
        return switch (n == 1 ? 1 : i) {
            case 2 -> WriteMode.DIRECT;
            case 3 -> WriteMode.BUFFERED;
            default -> WriteMode.GROUPED;
        };
    }

    /** Recounts the type of {@link Recounts} every 2 to 5 s, through a process drawn at random. */
    private static void recountNowAndThen(Recounts recounts, List<LibraryProcess> processes, long seed,
            BooleanSupplier running) {
        Random random = new Random(seed ^ 0x9E3779B97F4A7C15L);
        while (running.getAsBoolean()) {
            pauseWhile(running, 2_000 + random.nextInt(3_000));
            if (running.getAsBoolean()) {
                recounts.recount(processes.get(random.nextInt(processes.size())).counters());
            }
        }
    }

    /** Releases the type of {@link ReleaseCycles} every 3 to 8 s, through the releasing process. */
    private static void releaseNowAndThen(ReleaseCycles releases, LibraryProcess releasing, FaultProxy proxy,
            long seed, BooleanSupplier running) {
        Random random = new Random(seed ^ 0x2545F4914F6CDD1DL);
        while (running.getAsBoolean()) {
            pauseWhile(running, 3_000 + random.nextInt(5_000));
            if (running.getAsBoolean()) {
                releases.release(releasing, proxy, random);
            }
        }
    }

    /** Waits {@code millis}, or less when the run ends first: the drain does not wait out a pause. */
    private static void pauseWhile(BooleanSupplier running, long millis) {
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (running.getAsBoolean() && System.nanoTime() < until) {
            ServerFaults.pause(Math.min(100, TimeUnit.NANOSECONDS.toMillis(until - System.nanoTime()) + 1));
        }
    }

    private static void migrate(CampaignServer server, String table) {
        try (HikariDataSource pool = directPool(server); SlottedCounters counters = LibraryProcess.countersOn(pool,
                table)) {
            counters.migrate();
            FinalState.bindOwners(pool, counters, table);
        }
    }

    private static HikariDataSource directPool(CampaignServer server) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(server.jdbcUrl());
        config.setMaximumPoolSize(6);
        return new HikariDataSource(config);
    }

    /**
     * The URL with a socket timeout, as an operator should set one: a statement on a paused or
     * silent server then fails after it, and the engine retries or resolves the flush.
     */
    static String withSocketTimeout(ServerKind kind, String url) {
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
            LOG.warn("campaign work still running after {} s: its open operations are recorded as never answered;"
                    + " the threads now:\n{}", seconds, Stalls.threadDump());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the campaign ran", e);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("campaign work failed: " + e.getCause(), e.getCause());
        }
    }
}
