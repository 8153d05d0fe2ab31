package io.slotted.spring.boot;

import io.micrometer.core.instrument.binder.MeterBinder;
import io.slotted.SlottedCounters;
import io.slotted.micrometer.SlottedMetrics;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.annotation.Bean;

/**
 * The counters' meters ({@code slotted.increments.applied}, {@code slotted.flush},
 * {@code slotted.queue.depth}, {@code slotted.rollup.lag}, …) when the application has Micrometer:
 * Spring Boot binds every {@link MeterBinder} bean to its meter registries. The same binder serves
 * the Slotted service's {@code /metrics}.
 */
@AutoConfiguration(after = SlottedAutoConfiguration.class)
@ConditionalOnClass({MeterBinder.class, SlottedMetrics.class})
@ConditionalOnSingleCandidate(SlottedCounters.class)
public class SlottedMetricsAutoConfiguration {
    /**
     * The meters of the application's counters, whether the starter made them or the application.
     *
     * @param counters the counters
     * @return a binder that Spring Boot binds to its registries
     */
    @Bean
    @ConditionalOnMissingBean
    public SlottedMetrics slottedMetrics(SlottedCounters counters) {
        return new SlottedMetrics(counters);
    }
}
