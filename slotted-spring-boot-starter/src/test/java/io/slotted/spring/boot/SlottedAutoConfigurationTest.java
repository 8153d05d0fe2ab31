package io.slotted.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.MeterRegistry;
import io.slotted.BucketUnit;
import io.slotted.Limits;
import io.slotted.SchemaException;
import io.slotted.SlottedConfig;
import io.slotted.SlottedCounters;
import io.slotted.TimeBuckets;
import io.slotted.Window;
import io.slotted.WriteMode;
import java.time.Duration;
import java.util.Optional;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The auto-configuration in real Spring contexts, on real H2 databases. */
class SlottedAutoConfigurationTest {
    private static final AutoConfigurations SLOTTED = AutoConfigurations.of(SlottedAutoConfiguration.class,
            SlottedMetricsAutoConfiguration.class, SlottedHealthAutoConfiguration.class);

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class))
            .withConfiguration(SLOTTED)
            .withPropertyValues("spring.datasource.url=jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");

    @Test
    void withADataSource_countersAreMigratedAndCount() {
        runner.run(context -> {
            assertThat(context).hasSingleBean(SlottedCounters.class);
            SlottedCounters counters = context.getBean(SlottedCounters.class);
            counters.add(1, 456L, 5);
            counters.increment(1, 456L);
            assertThat(counters.get(1, 456L)).isEqualTo(6);
            assertThat(counters.config().writeMode()).isEqualTo(WriteMode.GROUPED);
        });
    }

    /**
     * The counters' pool is the application's HikariCP settings with a size and a name of its
     * own; the application's pool lends the counters nothing, even while their flushers hold
     * theirs.
     */
    @Test
    void countersHaveAPoolOfTheirOwn_madeLikeTheApplicationsAndSizedForThem() {
        runner.withPropertyValues("spring.datasource.hikari.pool-name=app",
                "spring.datasource.hikari.connection-timeout=7000",
                "spring.datasource.hikari.auto-commit=false",
                "spring.datasource.hikari.transaction-isolation=TRANSACTION_SERIALIZABLE").run(context -> {
                    SlottedConnections connections = context.getBean(SlottedConnections.class);
                    assertThat(connections.ownPool()).isTrue();
                    HikariDataSource application = context.getBean(HikariDataSource.class);
                    HikariDataSource own = (HikariDataSource) connections.dataSource();
                    assertThat(own.getJdbcUrl()).isEqualTo(application.getJdbcUrl());
                    assertThat(own.getConnectionTimeout()).isEqualTo(7000);
                    assertThat(own.getPoolName()).isEqualTo("app-slotted");
                    assertThat(own.getMaximumPoolSize()).as("the two flushers and four more").isEqualTo(6);
                    assertThat(own.isAutoCommit()).as("the application's transactions' setting, not copied").isTrue();
                    assertThat(own.getTransactionIsolation()).isNull();

                    SlottedCounters counters = context.getBean(SlottedCounters.class);
                    counters.add(1, 1L, 3);
                    assertThat(counters.get(1, 1L)).isEqualTo(3);
                    assertThat(own.getHikariPoolMXBean().getActiveConnections()).as("the flushers'").isEqualTo(2);
                    assertThat(application.getHikariPoolMXBean())
                            .as("the application's pool, started by its first connection: never").isNull();
                });
        runner.withPropertyValues("slotted.pool-size=9").run(context -> assertThat(
                ((HikariDataSource) context.getBean(SlottedConnections.class).dataSource()).getMaximumPoolSize())
                .isEqualTo(9));
    }

    /** A data source that is not a HikariCP pool has no settings to copy: the counters share it. */
    @Test
    void aDataSourceThatIsNotAHikariPool_isShared() {
        runner.withUserConfiguration(PlainDataSource.class).run(context -> {
            SlottedConnections connections = context.getBean(SlottedConnections.class);
            assertThat(connections.ownPool()).isFalse();
            assertThat(connections.dataSource()).isSameAs(context.getBean(DataSource.class));
            SlottedCounters counters = context.getBean(SlottedCounters.class);
            counters.add(1, 2L, 4);
            assertThat(counters.get(1, 2L)).isEqualTo(4);
        });
    }

    @Test
    void withoutADataSource_noCounters() {
        new ApplicationContextRunner().withConfiguration(SLOTTED).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).doesNotHaveBean(SlottedCounters.class);
        });
    }

    @Test
    void countersOfTheApplication_replaceTheStarters() {
        runner.withUserConfiguration(OwnCounters.class).run(context -> {
            assertThat(context).hasSingleBean(SlottedCounters.class);
            assertThat(context.getBean(SlottedCounters.class).config().table()).isEqualTo("own_counters");
            assertThat(context).hasBean("ownCounters");
        });
    }

    @Test
    void schemaNone_orTheOlderMigrateFalse_makesNoTable_verifyRefusesToStartWithout_andAnUnknownValueIsNamed() {
        for (String none : List.of("slotted.schema=none", "slotted.migrate=false")) {
            runner.withPropertyValues(none).run(context -> {
                assertThat(context).hasNotFailed();
                assertThatThrownBy(() -> context.getBean(SlottedCounters.class).verifySchema())
                        .isInstanceOf(SchemaException.class).hasMessageContaining("lacks table slotted_counters;");
            });
        }
        runner.withPropertyValues("slotted.schema=verify").run(context -> assertThat(context).hasFailed()
                .getFailure().rootCause().isInstanceOf(SchemaException.class));
        runner.withPropertyValues("slotted.schema=migrate", "slotted.migrate=false").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(SlottedCounters.class).verifySchema().created()).isFalse();
        });
        runner.withPropertyValues("slotted.schema=sometimes").run(context -> assertThat(context).hasFailed()
                .getFailure().hasStackTraceContaining("slotted.schema"));
    }

    @Test
    void defaults_areTheBuilders() {
        runner.withPropertyValues("slotted.migrate=false").run(context -> {
            SlottedConfig fromProperties = context.getBean(SlottedCounters.class).config();
            try (SlottedCounters plain = SlottedCounters.builder(context.getBean(DataSource.class)).build()) {
                assertThat(fromProperties.toString()).isEqualTo(plain.config().toString());
            }
        });
    }

    @Test
    void everyProperty_isBound() {
        runner.withPropertyValues(
                "slotted.table=app.my_counters",
                "slotted.write-mode=buffered",
                "slotted.slots=32",
                "slotted.max-attempts=7",
                "slotted.retry-backoff=20ms",
                "slotted.flushers=3",
                "slotted.queue-capacity=5000",
                "slotted.queue-full-wait=250ms",
                "slotted.flush-interval=50ms",
                "slotted.outcome-resolution-timeout=5s",
                "slotted.idempotency-retention=2h",
                "slotted.roll-up-every=3s",
                "slotted.reads-include-unwritten=true",
                "slotted.migrate=false",
                "slotted.join-transactions=true",
                "slotted.types.5.slots=128",
                "slotted.types.5.buckets.unit=hour",
                "slotted.types.5.buckets.retention=30d",
                "slotted.types.6.buckets.unit=day",
                "slotted.types.6.buckets.retention=365d",
                "slotted.health.timeout=3s",
                "slotted.health.max-roll-up-lag=1m").run(context -> {
            assertThat(context).hasNotFailed();
            SlottedCounters counters = context.getBean(SlottedCounters.class);
            assertThat(counters).isInstanceOf(TransactionJoiningCounters.class);
            SlottedConfig config = counters.config();
            assertThat(config.table()).isEqualTo("app.my_counters");
            assertThat(config.writeMode()).isEqualTo(WriteMode.BUFFERED);
            assertThat(config.slots(1)).isEqualTo(32);
            assertThat(config.slots(5)).isEqualTo(128);
            assertThat(config.maxAttempts()).isEqualTo(7);
            assertThat(config.retryBackoff()).isEqualTo(Duration.ofMillis(20));
            assertThat(config.flushers()).isEqualTo(3);
            assertThat(config.queueCapacity()).isEqualTo(5000);
            assertThat(config.queueFullWait()).isEqualTo(Duration.ofMillis(250));
            assertThat(config.flushInterval()).isEqualTo(Duration.ofMillis(50));
            assertThat(config.outcomeResolutionTimeout()).isEqualTo(Duration.ofSeconds(5));
            assertThat(config.idempotencyRetention()).isEqualTo(Duration.ofHours(2));
            assertThat(config.rollUpEvery()).isEqualTo(Duration.ofSeconds(3));
            assertThat(config.readsIncludeUnwritten()).isTrue();
            assertThat(config.buckets(5)).contains(new TimeBuckets(BucketUnit.HOUR, Duration.ofDays(30)));
            assertThat(config.buckets(6)).contains(new TimeBuckets(BucketUnit.DAY, Duration.ofDays(365)));
            assertThat(config.buckets(1)).isEqualTo(Optional.empty());
            SlottedProperties properties = context.getBean(SlottedProperties.class);
            assertThat(properties.isMigrate()).isFalse();
            assertThat(properties.getHealth().getTimeout()).isEqualTo(Duration.ofSeconds(3));
            assertThat(properties.getHealth().getMaxRollUpLag()).isEqualTo(Duration.ofMinutes(1));
        });
    }

    @Test
    void anExpiringType_isMadeExpiring_andRefusedWithLimits() {
        runner.withPropertyValues("slotted.types.11.expiring=true").run(context -> {
            SlottedCounters counters = context.getBean(SlottedCounters.class);
            assertThat(counters.config().expiring(11)).isTrue();
            assertThat(counters.config().expiring(12)).isFalse();
        });
        runner.withPropertyValues("slotted.types.11.expiring=true", "slotted.types.11.limits=0..").run(context -> {
            assertThat(context).hasFailed();
            assertThat(messages(context)).contains("slotted.types.11.expiring").contains("no limits");
        });
    }

    @Test
    void limitsPerType_areKeptByTheCounters() {
        runner.withPropertyValues("slotted.types.7.limits=0..", "slotted.types.8.limits=..1000").run(context -> {
            assertThat(context).hasNotFailed();
            SlottedCounters counters = context.getBean(SlottedCounters.class);
            assertThat(counters.config().limits(7)).isEqualTo(Limits.atLeast(0));
            assertThat(counters.config().limits(8)).isEqualTo(Limits.atMost(1000));
            counters.add(7, 1L, 2);
            assertThat(counters.tryAdd(7, 1L, -3)).isFalse();
            assertThat(counters.tryAdd(7, 1L, -2)).isTrue();
            assertThat(counters.get(7, 1L)).isZero();
        });
    }

    @Test
    void aQuotaPerWindow_isKeptByTheCounters() {
        runner.withPropertyValues("slotted.types.9.limits=..2/day@Europe/Paris").run(context -> {
            assertThat(context).hasNotFailed();
            SlottedCounters counters = context.getBean(SlottedCounters.class);
            assertThat(counters.config().limits(9))
                    .isEqualTo(Limits.atMost(2).per(Window.DAY.in(java.time.ZoneId.of("Europe/Paris"))));
            assertThat(counters.addAndGet(9, 1L, 2)).isEqualTo(2);
            assertThat(counters.tryAdd(9, 1L, 1)).as("the day's 2 are used").isFalse();
            assertThat(counters.get(9, 1L)).isEqualTo(2);
        });
    }

    @Test
    void migrateOff_leavesTheDatabaseAlone() {
        runner.withPropertyValues("slotted.migrate=false").run(context -> {
            try (var connection = context.getBean(DataSource.class).getConnection();
                    var tables = connection.getMetaData().getTables(null, null, "SLOTTED_COUNTERS", null)) {
                assertThat(tables.next()).as("a counter table").isFalse();
            }
        });
    }

    @Test
    void badValues_failStartUpNamingTheProperty() {
        assertRefused("slotted.slots=0", "slotted.slots", "slots must be between 1 and 1024, but was 0");
        assertRefused("slotted.flushers=65", "slotted.flushers", "flushers must be between 1 and 64");
        assertRefused("slotted.table=counters; DROP TABLE x", "slotted.table", "");
        assertRefused("slotted.queue-full-wait=-1s", "slotted.queue-full-wait", "queueFullWait must be between");
        assertRefused("slotted.types.5.slots=2000", "slotted.types.5.slots", "slots must be between 1 and 1024");
        assertRefused("slotted.types.5.buckets.unit=hour", "slotted.types.5.buckets.retention",
                "need both a unit");
        assertRefused("slotted.types.5.buckets.retention=90m", "slotted.types.5.buckets.unit", "need both a unit");
        assertRefused(new String[] {"slotted.types.5.buckets.unit=hour", "slotted.types.5.buckets.retention=90m"},
                "slotted.types.5.buckets.retention", "retention must be a whole number of hours");
        assertRefused("slotted.types[-2147483648].slots=4", "slotted.types.-2147483648.slots", "reserved");
        assertRefused("slotted.reads-include-unwritten=true", "slotted.reads-include-unwritten",
                "applies to BUFFERED mode only");
        assertRefused("slotted.pool-size=2", "slotted.pool-size", "at least 3");
        assertRefused("slotted.types.7.limits=5..3", "slotted.types.7.limits", "the lower bound 5 is above");
        assertRefused("slotted.types.7.limits=..", "slotted.types.7.limits", "at least one end");
        assertRefused(new String[] {"slotted.write-mode=buffered", "slotted.types.7.limits=0.."},
                "slotted.write-mode", "limits need a mode that tells each caller");
        assertRefused(new String[] {"slotted.flushers=4", "slotted.pool-size=4"}, "slotted.pool-size",
                "at least 5");
    }

    @Test
    void unbindableValues_failStartUpNamingTheProperty() {
        runner.withPropertyValues("slotted.write-mode=sideways").run(context -> {
            assertThat(context).hasFailed();
            assertThat(messages(context)).contains("slotted.write-mode").contains("sideways");
        });
        runner.withPropertyValues("slotted.types.downloads.slots=4").run(context -> {
            assertThat(context).hasFailed();
            assertThat(messages(context)).contains("slotted.types");
        });
    }

    @Test
    void meters_areRegisteredAndCount() {
        runner.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
                        CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class))
                .run(context -> {
                    SlottedCounters counters = context.getBean(SlottedCounters.class);
                    for (int i = 0; i < 10; i++) {
                        counters.add(3, i, 4);
                    }
                    MeterRegistry registry = context.getBean(MeterRegistry.class);
                    assertThat(registry.get("slotted.increments.applied").functionCounter().count()).isEqualTo(10);
                    assertThat(registry.get("slotted.flush").functionTimer().count()).isPositive();
                    assertThat(registry.get("slotted.queue.capacity").gauge().value()).isEqualTo(100_000);
                });
    }

    private void assertRefused(String property, String named, String reason) {
        assertRefused(new String[] {property}, named, reason);
    }

    private void assertRefused(String[] properties, String named, String reason) {
        runner.withPropertyValues(properties).run(context -> {
            assertThat(context).hasFailed();
            InvalidSlottedPropertyException refused = findCause(context.getStartupFailure());
            assertThat(refused.property()).isEqualTo(named);
            assertThat(refused.getMessage()).startsWith(named).contains(reason);
            FailureAnalysis analysis = new SlottedPropertyFailureAnalyzer().analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains(named).contains(reason);
            assertThat(analysis.getAction()).startsWith("Change " + named);
        });
    }

    private static InvalidSlottedPropertyException findCause(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof InvalidSlottedPropertyException refused) {
                return refused;
            }
        }
        throw new AssertionError("start-up failed without naming a property", failure);
    }

    private static String messages(AssertableApplicationContext context) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = context.getStartupFailure(); t != null; t = t.getCause()) {
            all.append(t.getMessage()).append('\n');
        }
        return all.toString();
    }

    @Configuration(proxyBeanMethods = false)
    static class PlainDataSource {
        @Bean
        DataSource plainDataSource() {
            JdbcDataSource dataSource = new JdbcDataSource();
            dataSource.setURL("jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
            return dataSource;
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnCounters {
        @Bean
        SlottedCounters ownCounters() {
            JdbcDataSource dataSource = new JdbcDataSource();
            dataSource.setURL("jdbc:h2:mem:own;DB_CLOSE_DELAY=-1");
            return SlottedCounters.builder(dataSource).table("own_counters").build();
        }
    }
}
