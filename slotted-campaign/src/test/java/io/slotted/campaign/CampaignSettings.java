package io.slotted.campaign;

import io.slotted.campaign.faults.ServerKind;
import java.time.Duration;
import java.util.Locale;

/**
 * One campaign's settings. The seed draws every client's operations and every fault and its
 * moment; threads and servers still interleave as they will, so a seed replays the same workload
 * and schedule of faults, which in practice finds the same anomaly again.
 *
 * @param seed the seed
 * @param database the kind of server the campaign starts
 * @param duration how long the workload and the faults run, before healing and the final reads
 * @param processes how many library instances stand for application processes
 * @param clients how many client threads send operations
 */
public record CampaignSettings(long seed, ServerKind database, Duration duration, int processes, int clients) {
    /** The system property that gives the seed; without it, a new one is drawn and printed. */
    public static final String SEED = "slotted.campaign.seed";
    /** The system property that gives the run's length in seconds. */
    public static final String SECONDS = "slotted.campaign.seconds";

    public CampaignSettings {
        if (processes < 1 || clients < 1) {
            throw new IllegalArgumentException("a campaign needs a process and a client, but was given " + processes
                    + " processes and " + clients + " clients");
        }
    }

    /**
     * A campaign on {@code database} of the length and seed the system properties give, or else
     * {@code defaultSeconds} and a seed that changes with every run.
     */
    public static CampaignSettings fromSystemProperties(ServerKind database, long defaultSeconds) {
        String seed = System.getProperty(SEED, "").trim();
        long seconds = Long.getLong(SECONDS, defaultSeconds);
        return new CampaignSettings(seed.isEmpty() ? System.currentTimeMillis() : Long.parseLong(seed), database,
                Duration.ofSeconds(seconds), 2, 8);
    }

    /** The command that runs this campaign again. */
    public String replayCommand() {
        return "scripts/campaign.sh --database " + database.name().toLowerCase(Locale.ROOT) + " --seed " + seed
                + " --seconds " + duration.toSeconds();
    }
}
