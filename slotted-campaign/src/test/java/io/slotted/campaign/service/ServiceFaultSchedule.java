package io.slotted.campaign.service;

import io.slotted.campaign.faults.CampaignServer;
import io.slotted.campaign.faults.FaultProxy;
import io.slotted.campaign.faults.ServerFaults;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
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
    private final ServerFaults serverFaults;
    private final List<ServiceProcess> processes;
    /** The faults it draws from: the wire's, the database server's and the service processes'. */
    private static final List<Enum<?>> KINDS = Stream.concat(ServerFaults.KINDS.stream(),
            Arrays.stream(ServiceFault.values())).collect(Collectors.toUnmodifiableList());

    private final Map<String, Integer> made = new TreeMap<>();

    ServiceFaultSchedule(long seed, CampaignServer server, FaultProxy proxy, List<ServiceProcess> processes) {
        this.random = new Random(seed ^ 0x5DEECE66DL);
        this.serverFaults = new ServerFaults(random, server, List.of(proxy));
        this.processes = processes;
    }

    /** Makes faults until {@code running} turns false, then heals the wire. */
    void run(BooleanSupplier running) {
        try {
            while (running.getAsBoolean()) {
                ServerFaults.pause(serverFaults.millisBetween(300, 2_500));
                Enum<?> fault = KINDS.get(random.nextInt(KINDS.size()));
                if (fault instanceof ServiceFault own) {
                    make(own);
                } else {
                    log(fault);
                    serverFaults.make(fault);
                }
                synchronized (made) {
                    made.merge(fault.name(), 1, Integer::sum);
                }
            }
        } finally {
            serverFaults.heal();
        }
    }

    /** How many of each fault were made, by name. */
    Map<String, Integer> made() {
        synchronized (made) {
            return Map.copyOf(made);
        }
    }

    private void make(ServiceFault fault) {
        log(fault);
        ServiceProcess process = processes.get(random.nextInt(processes.size()));
        switch (fault) {
            case KILL_SERVICE -> process.killAndRestart(Duration.ofMillis(serverFaults.millisBetween(200, 2_000)));
            case RESTART_SERVICE -> process.stopAndRestart();
        }
    }

    private static void log(Enum<?> fault) {
        LOG.info("fault: {}", fault);
    }
}
