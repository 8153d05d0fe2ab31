package io.slotted.campaign;

import io.slotted.campaign.faults.CampaignServer;
import io.slotted.campaign.faults.FaultProxy;
import io.slotted.campaign.workload.LibraryProcess;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes faults at random moments, one at a time, each healed before a quiet spell and the next:
 * which fault, when, and for how long all drawn from the seed.
 */
final class FaultSchedule {
    private static final Logger LOG = LoggerFactory.getLogger(FaultSchedule.class);

    private final Random random;
    private final CampaignServer server;
    private final List<FaultProxy> proxies;
    private final List<LibraryProcess> processes;
    private final Map<CampaignFault, Integer> made = new EnumMap<>(CampaignFault.class);
    private final long started = System.nanoTime();

    /**
     * @param proxies the proxy in front of each node the processes count through: one for a single
     *     server; a wire fault takes one of them at random
     */
    FaultSchedule(long seed, CampaignServer server, List<FaultProxy> proxies, List<LibraryProcess> processes) {
        this.random = new Random(seed ^ 0x5DEECE66DL);
        this.server = server;
        this.proxies = proxies;
        this.processes = processes;
    }

    /** Makes faults until {@code running} turns false, then heals everything. */
    void run(BooleanSupplier running) {
        try {
            while (running.getAsBoolean()) {
                pause(millisBetween(300, 2_500));
                CampaignFault fault = CampaignFault.values()[random.nextInt(CampaignFault.values().length)];
                make(fault);
                made.merge(fault, 1, Integer::sum);
            }
        } finally {
            proxies.forEach(FaultProxy::heal);
        }
    }

    /** How many of each fault were made. */
    Map<CampaignFault, Integer> made() {
        return Map.copyOf(made);
    }

    private void make(CampaignFault fault) {
        LOG.info("fault at {} ms: {}", (System.nanoTime() - started) / 1_000_000, fault);
        FaultProxy proxy = proxies.get(random.nextInt(proxies.size()));
        switch (fault) {
            case RESET_BEFORE_COMMIT -> armSeveral(proxy::resetBeforeNextCommit);
            case RESET_AFTER_COMMIT -> armSeveral(proxy::resetAfterNextCommit);
            case ANSWER_DROPPED -> armSeveral(() -> proxy.dropNextAnswer(Duration.ofSeconds(30)));
            case LATE_DELIVERY -> armSeveral(() -> proxy.deliverNextCommitLate(Duration.ofMillis(lateBy())));
            case HELD_PAST_TIMEOUT -> armSeveral(proxy::holdNextCommitPastTimeout);
            case CUT_MID_PACKET -> armSeveral(proxy::cutNextCommitMidPacket);
            case RESET_ALL -> proxy.resetAll();
            case BLACKOUT -> proxy.blackout(Duration.ofMillis(millisBetween(500, 4_000)));
            case PAUSE_DATABASE -> pauseDatabase(millisBetween(500, 8_000));
            case KILL_DATABASE -> killDatabase(millisBetween(200, 2_000));
            case CRASH_PROCESS -> processes.get(random.nextInt(processes.size())).crashAndRestart();
            case CLOSE_PROCESS -> processes.get(random.nextInt(processes.size())).closeAndReopen();
        }
    }

    /** Arms a fault for the next one to three commits, then gives them time to come. */
    private void armSeveral(Runnable arm) {
        int times = 1 + random.nextInt(3);
        for (int i = 0; i < times; i++) {
            arm.run();
        }
        pause(millisBetween(200, 1_500));
    }

    private void pauseDatabase(long millis) {
        server.pause();
        try {
            pause(millis);
        } finally {
            server.resume();
        }
    }

    private void killDatabase(long downMillis) {
        server.kill();
        pause(downMillis);
        server.restart();
    }

    /**
     * How late a held commit is delivered: half the time while its retry runs or just after it
     * (10 to 300 ms: a retry that did not fence the flush's number lets it land then), half the
     * time well after, once the process has gone on to other flushes (0.5 to 5 s).
     */
    private long lateBy() {
        return random.nextBoolean() ? millisBetween(10, 300) : millisBetween(500, 5_000);
    }

    private long millisBetween(long low, long high) {
        return low + (long) (random.nextDouble() * (high - low));
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("the fault schedule was interrupted", e);
        }
    }
}
