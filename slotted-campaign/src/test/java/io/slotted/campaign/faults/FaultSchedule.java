package io.slotted.campaign.faults;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes faults at random moments, one at a time, each healed (or its process serving again) before
 * a quiet spell and the next: which fault, when, for how long and to which process all drawn from
 * the seed. The wire's and the database server's are made by {@link ServerFaults}; a campaign adds
 * the faults of its own application processes.
 *
 * @param <F> the application processes' faults
 */
public final class FaultSchedule<F extends Enum<F>> {
    private static final Logger LOG = LoggerFactory.getLogger(FaultSchedule.class);

    private final Random random;
    private final ServerFaults serverFaults;
    private final List<F> processFaults;
    private final BiConsumer<F, ServerFaults> makeProcessFault;
    /** The faults it draws from: the wire's, the database server's and the processes'. */
    private final List<Enum<?>> kinds;
    private final Map<String, Integer> made = new TreeMap<>();
    private final long started = System.nanoTime();

    /**
     * @param seed the campaign's seed
     * @param server the database server
     * @param proxies the proxy in front of each node the processes count through: one for a single
     *     server; a wire fault takes one of them at random
     * @param processFaults the application processes' faults: their enum's {@code values()}
     * @param makeProcessFault makes one of them, drawing what it needs (a process, a time) from
     *     the schedule's {@link ServerFaults}, and returns once it is over
     */
    public FaultSchedule(long seed, CampaignServer server, List<FaultProxy> proxies, F[] processFaults,
            BiConsumer<F, ServerFaults> makeProcessFault) {
        this.random = new Random(seed ^ 0x5DEECE66DL);
        this.serverFaults = new ServerFaults(random, server, proxies);
        this.processFaults = List.of(processFaults);
        this.makeProcessFault = makeProcessFault;
        this.kinds = Stream.concat(ServerFaults.KINDS.stream(), Arrays.stream(processFaults))
                .collect(Collectors.toUnmodifiableList());
    }

    /** Makes faults until {@code running} turns false, then heals every proxy. */
    public void run(BooleanSupplier running) {
        try {
            while (running.getAsBoolean()) {
                ServerFaults.pause(serverFaults.millisBetween(300, 2_500));
                Enum<?> fault = kinds.get(random.nextInt(kinds.size()));
                LOG.info("fault at {} ms: {}", (System.nanoTime() - started) / 1_000_000, fault);
                int own = processFaults.indexOf(fault);
                if (own >= 0) {
                    makeProcessFault.accept(processFaults.get(own), serverFaults);
                } else {
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
    public Map<String, Integer> made() {
        synchronized (made) {
            return Map.copyOf(made);
        }
    }
}
