package io.slotted.spring.boot;

import io.slotted.SlottedCounters;
import javax.sql.DataSource;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * The {@code slotted} health indicator, when the application has Spring Boot's health support
 * (the actuator brings it); {@code management.health.slotted.enabled=false} turns it off.
 */
@AutoConfiguration(after = SlottedAutoConfiguration.class)
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnSingleCandidate(SlottedCounters.class)
@ConditionalOnEnabledHealthIndicator("slotted")
@EnableConfigurationProperties(SlottedProperties.class)
public class SlottedHealthAutoConfiguration {
    /**
     * The health of the application's counters.
     *
     * @param counters the counters
     * @param dataSource the data source they write to
     * @param properties the {@code slotted.health.*} limits
     * @return the indicator, named {@code slotted}
     */
    @Bean
    @ConditionalOnMissingBean(name = "slottedHealthIndicator")
    @ConditionalOnSingleCandidate(DataSource.class)
    public HealthIndicator slottedHealthIndicator(SlottedCounters counters, DataSource dataSource,
            SlottedProperties properties) {
        return new SlottedHealthIndicator(counters, dataSource, properties.getHealth());
    }
}
