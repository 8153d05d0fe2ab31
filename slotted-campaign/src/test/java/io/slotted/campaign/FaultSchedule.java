package io.slotted.campaign;

import io.slotted.campaign.faults.CampaignServer;
import io.slotted.campaign.faults.FaultProxy;
import io.slotted.campaign.faults.ServerFaults;
import io.slotted.campaign.workload.LibraryProcess;
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
 * Makes faults at random moments, one at a time, each healed before a quiet spell and the next:
 * which fault, when, and for how long all drawn from the seed.
 */
final class FaultSchedule {
    private static final Logger LOG = LoggerFactory.getLogger(FaultSchedule.class);

    private final Random random;
    private final ServerFaults serverFaults;
    private final List<LibraryProcess> processes;
    /** The faults it draws from: the wire's, the database server's and the processes'. */
    private static final List<Enum<?>> KINDS = Stream.concat(ServerFaults.KINDS.stream(),
            Arrays.stream(ProcessFault.values())).collect(Collectors.toUnmodifiableList());

    private final Map<String, Integer> made = new TreeMap<>();
    private final long started = System.nanoTime();

    /**
     * @param proxies the proxy in front of each node the processes count through: one for a single
     *     server; a wire fault takes one of them at random
     */
    FaultSchedule(long seed, CampaignServer server, List<FaultProxy> proxies, List<LibraryProcess> processes) {
        this.random = new Random(seed ^ 0x5DEECE66DL);
        this.serverFaults = new ServerFaults(random, server, proxies);
        this.processes = processes;
    }

    /** Makes faults until {@code running} turns false, then heals everything. */
    void run(BooleanSupplier running) {
        try {
            while (running.getAsBoolean()) {
                ServerFaults.pause(serverFaults.millisBetween(300, 2_500));
                Enum<?> fault = KINDS.get(random.nextInt(KINDS.size()));
                if (fault instanceof ProcessFault own) {
                    make(own);
                } else {
                    log(fault);
                    serverFaults.make(fault);
                }
                made.merge(fault.name(), 1, Integer::sum);
            }
        } finally {
            serverFaults.heal();
        }
    }

    /** How many of each fault were made, by name. */
    Map<String, Integer> made() {
        return Map.copyOf(made);
    }

    private void make(ProcessFault fault) {
        log(fault);
        LibraryProcess process = processes.get(random.nextInt(processes.size()));
        switch (fault) {
            case CRASH_PROCESS -> process.crashAndRestart();
            case CLOSE_PROCESS -> process.closeAndReopen();
        }
    }

    private void log(Enum<?> fault) {
        LOG.info("fault at {} ms: {}", (System.nanoTime() - started) / 1_000_000, fault);
    }
}
