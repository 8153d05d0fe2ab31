package io.slotted.campaign.service;

import static org.assertj.core.api.Assertions.assertThat;

import io.slotted.campaign.CampaignSettings;
import io.slotted.campaign.faults.ServerKind;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The fault campaign through the service: two {@code slotted serve} processes on a MariaDB or a
 * PostgreSQL server of the campaign's own (in turn by the seed, the library's campaign taking the
 * other: {@link CampaignSettings#databaseOfThisBuild}), clients over HTTP and the Redis protocol, every fault of
 * the wire and the database mixed with the processes killed and restarted, for a bounded time with
 * a seed that changes with every run (or the one {@value CampaignSettings#SEED} gives), and the
 * whole history checked. A failure prints the seed, each anomaly with its counter's history, and
 * the command that replays it ({@value ServiceCampaignReport#DATABASE} runs one database only);
 * the report is also written under {@code target/service-campaign/}. Runs the jar that
 * {@code slotted-server} builds ({@link ServiceProcess}).
 */
class ServiceCampaignTest {
    /** CI's length; {@value CampaignSettings#SECONDS} sets another. */
    private static final long SECONDS = 60;

    @Test
    void aCampaignThroughTwoServiceProcesses_endsWithNoAnomaly() throws IOException {
        ServerKind database = CampaignSettings.databaseOfThisBuild(true);
        ServiceCampaignReport report = ServiceCampaign.run(CampaignSettings.fromSystemProperties(database, SECONDS));
        String text = report.anomalies();
        System.out.println(text);
        report.write(Path.of("target", "service-campaign"));

        assertThat(report.operations()).as("operations run").hasSizeGreaterThan(100);
        assertThat(report.faults().values().stream().mapToInt(Integer::intValue).sum()).as("faults made").isPositive();
        assertThat(report.check().anomalies()).as(text).isEmpty();
    }
}
