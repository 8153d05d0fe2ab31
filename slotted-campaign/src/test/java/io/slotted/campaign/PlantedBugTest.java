package io.slotted.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import io.slotted.internal.mutation.Mutation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The campaign proves itself on a planted bug: one {@link Mutation}, chosen by the run's seed so
 * that successive runs take each in turn, is planted in a JVM of its own, where the campaign runs
 * rounds of {@value #ROUND_SECONDS} s until one finds an anomaly, on MariaDB or, for a bug that
 * only PostgreSQL's locking reads expose, on PostgreSQL. It must within {@value #BUDGET_SECONDS}
 * s; docs/campaign.md gives each bug's time to detection.
 *
 * <p>The bugs taken in turn are those found in every seed measured; docs/campaign.md gives the
 * times to detection. {@link Mutation#FENCE_REMOVED} is not among them: found from every seed
 * measured, it took up to 259 s of the 300, and a build must not fail by chance nor spend five
 * minutes of CI's time on one bug. Nor is {@link Mutation#EXPIRY_WITHOUT_LOCK}, found in 26 to
 * 141 s on MariaDB.
 */
class PlantedBugTest {
    private static final long ROUND_SECONDS = 20;
    private static final long BUDGET_SECONDS = 300;
    private static final List<Planted> FOUND = List.of(new Planted(Mutation.KEY_LOOKUP_SKIPPED, "mariadb"),
            new Planted(Mutation.ACK_BEFORE_COMMIT, "mariadb"), new Planted(Mutation.SPEND_UNCHECKED, "mariadb"),
            new Planted(Mutation.COPY_RELEASE_BY_CHUNK, "mariadb"),
            new Planted(Mutation.SET_WITHOUT_COUNTER_LOCK, "postgresql"),
            new Planted(Mutation.WINDOW_UNCHECKED, "mariadb"),
            new Planted(Mutation.BUCKET_READ_WITHOUT_PENDING, "mariadb"));

    /** A bug and the database whose behaviour exposes it. */
    private record Planted(Mutation mutation, String database) {
    }

    @Test
    void aPlantedBug_isFoundByTheCampaign() throws IOException, InterruptedException {
        long seed = Long.parseLong(System.getProperty(CampaignSettings.SEED, Long.toString(System.currentTimeMillis())));
        Planted bug = FOUND.get((int) Math.floorMod(seed, (long) FOUND.size()));
        Mutation planted = bug.mutation();
        Path output = Path.of("target", "campaign", "planted-" + planted.name().toLowerCase() + "-" + seed + ".txt");
        Files.createDirectories(output.getParent());

        Process campaign = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-D" + Mutation.PROPERTY + "=" + planted.name(), "-cp", System.getProperty("java.class.path"),
                CampaignMain.class.getName(), "--database", bug.database(), "--seed", Long.toString(seed),
                "--until-anomaly", "--round-seconds", Long.toString(ROUND_SECONDS),
                "--budget-seconds", Long.toString(BUDGET_SECONDS)))
                .redirectErrorStream(true).redirectOutput(output.toFile()).start();
        boolean ended = campaign.waitFor(BUDGET_SECONDS + 240, TimeUnit.SECONDS);
        if (!ended) {
            campaign.destroyForcibly().waitFor();
        }
        String printed = Files.readString(output, StandardCharsets.UTF_8);
        String found = printed.lines().filter(line -> line.startsWith("DETECTED") || line.startsWith("NOT DETECTED"))
                .findFirst().orElse("no verdict printed; see " + output.toAbsolutePath());
        System.out.println(found);

        assertThat(ended).as("the campaign with %s planted ended", planted).isTrue();
        assertThat(found).as("%s planted, seed %d: %s", planted, seed, output.toAbsolutePath()).startsWith("DETECTED");
        assertThat(campaign.exitValue()).isEqualTo(1);
    }
}
