package io.slotted.campaign.service;

import io.slotted.campaign.faults.CampaignServer;
import io.slotted.campaign.faults.FaultProxy;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes faults at random moments, one at a time, each healed (or its process serving again) before
 * a quiet spell and the next: which fault, when, for how long and to which process all drawn from
 * the seed. The wire's and the database's are made as the library campaign makes them.
 */
final class ServiceFaultSchedule {
    private static final Logger LOG = LoggerFactory.getLogger(ServiceFaultSchedule.class);

    private final Random random;
    private final CampaignServer server;
    private final FaultProxy proxy;
    private final List<ServiceProcess> processes;
    private final Map<ServiceFault, Integer> made = new EnumMap<>(ServiceFault.class);

    ServiceFaultSchedule(long seed, CampaignServer server, FaultProxy proxy, List<ServiceProcess> processes) {
        this.random = new Random(seed ^ 0x5DEECE66DL);
        this.server = server;
        this.proxy = proxy;
        this.processes = processes;
    }

    /** Makes faults until {@code running} turns false, then heals the wire. */
    void run(BooleanSupplier running) {
        try {
            while (running.getAsBoolean()) {
                pause(millisBetween(300, 2_500));
                ServiceFault fault = ServiceFault.values()[random.nextInt(ServiceFault.values().length)];
                make(fault);
                synchronized (made) {
                    made.merge(fault, 1, Integer::sum);
                }
            }
        } finally {
            proxy.heal();
        }
    }

    /** How many of each fault were made. */
    Map<ServiceFault, Integer> made() {
        synchronized (made) {
            return Map.copyOf(made);
        }
    }

    private void make(ServiceFault fault) {
        LOG.info("fault: {}", fault);
        switch (fault) {
            case RESET_BEFORE_COMMIT -> armSeveral(proxy::resetBeforeNextCommit);
            case RESET_AFTER_COMMIT -> armSeveral(proxy::resetAfterNextCommit);
            case ANSWER_DROPPED -> armSeveral(() -> proxy.dropNextAnswer(Duration.ofSeconds(30)));
            case LATE_DELIVERY -> armSeveral(() -> proxy.deliverNextCommitLate(Duration.ofMillis(millisBetween(500,
                    5_000))));
            case HELD_PAST_TIMEOUT -> armSeveral(proxy::holdNextCommitPastTimeout);
            case CUT_MID_PACKET -> armSeveral(proxy::cutNextCommitMidPacket);
            case RESET_ALL -> proxy.resetAll();
            case BLACKOUT -> proxy.blackout(Duration.ofMillis(millisBetween(500, 4_000)));
            case PAUSE_DATABASE -> pauseDatabase(millisBetween(500, 8_000));
            case KILL_DATABASE -> killDatabase(millisBetween(200, 2_000));
            case KILL_SERVICE -> process().killAndRestart(Duration.ofMillis(millisBetween(200, 2_000)));
            case RESTART_SERVICE -> process().stopAndRestart();
        }
    }

    private ServiceProcess process() {
        return processes.get(random.nextInt(processes.size()));
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
