package io.slotted.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.slotted.OwnerColumn;
import io.slotted.OwnerMode;
import io.slotted.SlottedCounters;
import java.time.Duration;
import java.util.UUID;
import javax.sql.DataSource;
import org.h2.tools.Server;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The {@code slotted} health indicator against a real H2 server reached over TCP, stopped for real
 * to take the database away.
 */
class SlottedHealthIndicatorTest {
    private Server server;
    private ApplicationContextRunner runner;

    @BeforeEach
    void startServer() throws Exception {
        server = Server.createTcpServer("-tcpPort", "0", "-ifNotExists").start();
        runner = new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                        SlottedAutoConfiguration.class, SlottedHealthAutoConfiguration.class))
                .withPropertyValues(
                        "spring.datasource.url=jdbc:h2:tcp://127.0.0.1:" + server.getPort() + "/mem:"
                                + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1",
                        "spring.datasource.hikari.connection-timeout=1000",
                        "slotted.health.timeout=3s");
    }

    @AfterEach
    void stopServer() {
        server.stop();
    }

    @Test
    void health_isUpWithTheQueueInTheDetails() {
        runner.run(context -> {
            Health health = slottedHealth(context.getBean("slottedHealthIndicator", HealthIndicator.class));
            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsEntry("table", "slotted_counters")
                    .containsEntry("queued", 0).containsEntry("queueCapacity", 100_000)
                    .doesNotContainKey("problem").doesNotContainKey("rollUpLag");
        });
    }

    @Test
    void health_withTheDatabaseStopped_isDownAndSaysWhy() {
        runner.run(context -> {
            HealthIndicator indicator = context.getBean("slottedHealthIndicator", HealthIndicator.class);
            assertThat(slottedHealth(indicator).getStatus()).isEqualTo(Status.UP);

            server.stop();

            Health health = slottedHealth(indicator);
            assertThat(health.getStatus()).isEqualTo(Status.DOWN);
            assertThat((String) health.getDetails().get("problem")).contains("slotted_counters");
        });
    }

    @Test
    void health_withOwnerColumnsNotRolledUp_isDownAfterTheLimit() {
        runner.withPropertyValues("slotted.health.max-roll-up-lag=200ms").run(context -> {
            JdbcTemplate sql = new JdbcTemplate(context.getBean(DataSource.class));
            sql.execute("CREATE TABLE repositories (id BIGINT PRIMARY KEY, downloads_count BIGINT NOT NULL)");
            sql.update("INSERT INTO repositories VALUES (1, 0)");
            SlottedCounters counters = context.getBean(SlottedCounters.class);
            counters.owners().adopt(1, OwnerColumn.parse("repositories.id.downloads_count"), OwnerMode.FOLD);
            HealthIndicator indicator = context.getBean("slottedHealthIndicator", HealthIndicator.class);

            await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
                counters.increment(1, 1L); // writes read the registry, which holds the lag
                Health health = slottedHealth(indicator);
                assertThat(health.getStatus()).isEqualTo(Status.DOWN);
                assertThat((String) health.getDetails().get("problem"))
                        .contains("owner columns trail", "slotted.health.max-roll-up-lag");
                assertThat(health.getDetails()).containsKey("rollUpLag");
            });
        });
    }

    @Test
    void health_canBeTurnedOff() {
        runner.withPropertyValues("management.health.slotted.enabled=false").run(context -> {
            assertThat(context).hasSingleBean(SlottedCounters.class);
            assertThat(context).doesNotHaveBean("slottedHealthIndicator");
        });
    }

    private static Health slottedHealth(HealthIndicator indicator) {
        return indicator.health(true);
    }
}
