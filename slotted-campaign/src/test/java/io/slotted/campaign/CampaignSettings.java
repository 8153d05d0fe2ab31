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
    /** The system property that names the one database to run on: {@code mariadb} or {@code postgresql}. */
    public static final String DATABASE = "slotted.campaign.database";
    /** This JVM's seed when none is given: drawn once, so that every campaign of a build shares it. */
    private static final long DRAWN_SEED = System.currentTimeMillis();

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
        long seconds = Long.getLong(SECONDS, defaultSeconds);
        return of(seedOfThisBuild(), database, Duration.ofSeconds(seconds));
    }

    /**
     * A campaign of three library processes, one in each write mode, and eight clients: enough
     * clients for each process to have several operations under way when a fault strikes.
     */
    public static CampaignSettings of(long seed, ServerKind database, Duration duration) {
        return new CampaignSettings(seed, database, duration, 3, 8);
    }

    /** The seed {@value #SEED} gives, or else this JVM's, drawn from the clock. */
    public static long seedOfThisBuild() {
        String seed = System.getProperty(SEED, "").trim();
        return seed.isEmpty() ? DRAWN_SEED : Long.parseLong(seed);
    }

    /**
     * The database a build's campaign runs on: the one {@value #DATABASE} names; else one taken in
     * turn by the seed, the library's campaign and the service's each taking the other, so that
     * every build runs both servers, and both layers on each server in turn, within CI's time.
     *
     * @param throughTheService whether for the campaign through the service
     */
    public static ServerKind databaseOfThisBuild(boolean throughTheService) {
        String named = System.getProperty(DATABASE, "").trim();
        if (!named.isEmpty()) {
            return ServerKind.valueOf(named.toUpperCase(Locale.ROOT));
        }
        int turn = (int) Math.floorMod(seedOfThisBuild() + (throughTheService ? 1 : 0), 2L);
        return turn == 0 ? ServerKind.MARIADB : ServerKind.POSTGRESQL;
    }

    /** The command that runs this campaign again. */
    public String replayCommand() {
        return "scripts/campaign.sh --database " + database.name().toLowerCase(Locale.ROOT) + " --seed " + seed
                + " --seconds " + duration.toSeconds();
    }
}
