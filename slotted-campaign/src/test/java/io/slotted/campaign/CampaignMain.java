package io.slotted.campaign;

import io.slotted.campaign.check.Anomaly;
import io.slotted.campaign.check.CheckReport;
import io.slotted.campaign.faults.CampaignServer;
import io.slotted.campaign.faults.ServerKind;
import io.slotted.campaign.service.ServiceCampaign;
import io.slotted.campaign.service.ServiceCampaignReport;
import io.slotted.internal.mutation.Mutation;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The campaign from the command line ({@code scripts/campaign.sh}): one run of a given length and
 * seed, or, to prove a planted bug is found ({@code -Dslotted.mutation=NAME}), short rounds on one
 * server until a round finds an anomaly or the time is up.
 *
 * <pre>
 * CampaignMain --database mariadb|postgresql|galera [--through library|service] [--seed N] [--seconds S]
 * CampaignMain --database mariadb --seed N --until-anomaly --round-seconds 20 --budget-seconds 300
 * </pre>
 *
 * <p>{@code --through service} runs the campaign through two {@code slotted serve} processes
 * ({@link io.slotted.campaign.service.ServiceCampaign}) instead of library instances; rounds until
 * an anomaly are the library's alone.
 *
 * <p>Exits 0 when no anomaly was found, 1 when one was (the report names it and how to replay
 * it), 2 on bad arguments.
 */
public final class CampaignMain {
    private CampaignMain() {
    }

    public static void main(String[] args) {
        Arguments arguments;
        try {
            arguments = Arguments.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        boolean found = arguments.untilAnomaly ? roundsUntilAnomaly(arguments) : once(arguments);
        System.exit(found ? 1 : 0);
    }

    private static boolean once(Arguments arguments) {
        CampaignSettings settings = CampaignSettings.of(arguments.seed, arguments.database,
                Duration.ofSeconds(arguments.seconds));
        if (arguments.throughService) {
            ServiceCampaignReport report = ServiceCampaign.run(settings);
            return printed(report.anomalies(), () -> report.write(Path.of("target", "service-campaign")),
                    report.check());
        }
        CampaignReport report = Campaign.run(settings);
        return printed(report.anomalies(), () -> report.write(Path.of("target", "campaign")), report.check());
    }

    /** Prints a report and where it was written; returns whether it found an anomaly. */
    private static boolean printed(String anomalies, ReportWriter write, CheckReport check) {
        System.out.println(anomalies);
        try {
            System.out.println("report and history: " + write.write());
        } catch (IOException e) {
            System.err.println("could not write the report: " + e);
        }
        return !check.valid();
    }

    /** Writes a report, returning its file. */
    @FunctionalInterface
    private interface ReportWriter {
        Path write() throws IOException;
    }

    /** Rounds of a fresh table each, seeds following on, until one finds an anomaly or the budget is spent. */
    private static boolean roundsUntilAnomaly(Arguments arguments) {
        long started = System.nanoTime();
        String planted = System.getProperty(Mutation.PROPERTY, "none");
        try (CampaignServer server = arguments.database.start("mutant-" + planted.toLowerCase(Locale.ROOT))) {
            for (int round = 1; elapsedSeconds(started) < arguments.budgetSeconds; round++) {
                CampaignSettings settings = CampaignSettings.of(arguments.seed + round - 1, arguments.database,
                        Duration.ofSeconds(arguments.roundSeconds));
                CampaignReport report = Campaign.run(settings, server, "campaign_round_" + round);
                if (!report.check().valid()) {
                    System.out.println(report.anomalies());
                    System.out.println("DETECTED " + planted + " on " + arguments.database + " after "
                            + elapsedSeconds(started) + " s, in round " + round + " (seed " + settings.seed() + "): "
                            + report.check().anomalies().stream().map(Anomaly::kind).distinct()
                                    .map(Enum::name).collect(Collectors.joining(", ")));
                    return true;
                }
                System.out.println("round " + round + ": " + report.summary());
            }
        }
        System.out.println("NOT DETECTED " + planted + " on " + arguments.database + " within "
                + arguments.budgetSeconds + " s");
        return false;
    }

    private static long elapsedSeconds(long started) {
        return (System.nanoTime() - started) / 1_000_000_000L;
    }

    /** The command line's arguments. */
    private static final class Arguments {
        private ServerKind database;
        private long seed = System.currentTimeMillis();
        private long seconds = 60;
        private boolean untilAnomaly;
        private boolean throughService;
        private long roundSeconds = 20;
        private long budgetSeconds = 300;

        static Arguments parse(String[] args) {
            Arguments parsed = new Arguments();
            for (int i = 0; i < args.length; i++) {
                String name = args[i];
                if (name.equals("--until-anomaly")) {
                    parsed.untilAnomaly = true;
                    continue;
                }
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(name + " needs a value");
                }
                String value = args[++i];
                switch (name) {
                    case "--database" -> parsed.database = database(value);
                    case "--through" -> parsed.throughService = through(value);
                    case "--seed" -> parsed.seed = number(name, value);
                    case "--seconds" -> parsed.seconds = number(name, value);
                    case "--round-seconds" -> parsed.roundSeconds = number(name, value);
                    case "--budget-seconds" -> parsed.budgetSeconds = number(name, value);
                    default -> throw new IllegalArgumentException("unknown option " + name
                            + "; the options are --database, --through, --seed, --seconds, --until-anomaly,"
                            + " --round-seconds, --budget-seconds");
                }
            }
            if (parsed.database == null) {
                throw new IllegalArgumentException("--database mariadb|postgresql|galera is required");
            }
            if (parsed.untilAnomaly && parsed.throughService) {
                throw new IllegalArgumentException("--until-anomaly runs the library's campaign only; run the"
                        + " service's once per seed (--through service --seed N)");
            }
            return parsed;
        }

        /** @return true for the service, false for the library */
        private static boolean through(String value) {
            return switch (value) {
                case "library" -> false;
                case "service" -> true;
                default -> throw new IllegalArgumentException("--through must be library or service, but was " + value);
            };
        }

        private static ServerKind database(String value) {
            try {
                return ServerKind.valueOf(value.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--database must be mariadb, postgresql or galera, but was " + value, e);
            }
        }

        private static long number(String name, String value) {
            try {
                return Long.parseLong(value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(name + " must be a whole number, but was " + value, e);
            }
        }
    }
}
