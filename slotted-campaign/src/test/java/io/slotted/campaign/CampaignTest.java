package io.slotted.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import io.slotted.campaign.faults.ServerKind;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The fault campaign through the library, on a MariaDB or PostgreSQL server of its own (in turn by
 * the seed, the service's campaign taking the other: {@link CampaignSettings#databaseOfThisBuild}),
 * for a bounded time with a seed that changes with every build (or the one
 * {@value CampaignSettings#SEED} gives): every fault mixed with the workload, and the whole history
 * checked. A failure prints the seed, each anomaly with its counter's history, and the command that
 * replays it; the report is also written under {@code target/campaign/}.
 */
class CampaignTest {
    /** CI's length; {@value CampaignSettings#SECONDS} sets another. */
    private static final long SECONDS = 60;

    @Test
    void aCampaignOfEveryFault_endsWithNoAnomaly() throws IOException {
        ServerKind database = CampaignSettings.databaseOfThisBuild(false);
        CampaignReport report = Campaign.run(CampaignSettings.fromSystemProperties(database, SECONDS));
        String text = report.anomalies();
        System.out.println(text);
        report.write(Path.of("target", "campaign"));

        assertThat(report.operations()).as("operations run").hasSizeGreaterThan(100);
        assertThat(report.faults().values().stream().mapToInt(Integer::intValue).sum()).as("faults made").isPositive();
        assertThat(report.check().anomalies()).as(text).isEmpty();
    }
}
