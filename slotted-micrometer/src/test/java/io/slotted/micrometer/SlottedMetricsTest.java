package io.slotted.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.slotted.SlottedCounters;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SlottedMetricsTest {
    private static final int TYPE = 7;

    private final MeterRegistry registry = new SimpleMeterRegistry();
    private SlottedCounters counters;

    @BeforeEach
    void buildCounters() {
        JdbcDataSource dataSource = new JdbcDataSource();
        dataSource.setURL("jdbc:h2:mem:metrics;DB_CLOSE_DELAY=-1");
        counters = SlottedCounters.builder(dataSource).queueCapacity(5_000).build();
        counters.migrate();
        new SlottedMetrics(counters).bindTo(registry);
    }

    @AfterEach
    void close() {
        counters.close();
    }

    @Test
    void meters_afterConcurrentIncrements_reportWhatTheFlushesWrote() throws Exception {
        ExecutorService writers = Executors.newFixedThreadPool(8);
        List<Future<?>> done = new ArrayList<>();
        for (int writer = 0; writer < 8; writer++) {
            long id = writer % 3;
            done.add(writers.submit(() -> {
                for (int i = 0; i < 250; i++) {
                    counters.add(TYPE, id, 2);
                }
            }));
        }
        for (Future<?> writer : done) {
            writer.get();
        }
        writers.shutdown();

        double flushes = registry.get("slotted.flushes").functionCounter().count();
        assertThat(registry.get("slotted.increments.applied").functionCounter().count()).isEqualTo(2_000);
        assertThat(registry.get("slotted.flush.increments").functionCounter().count()).isEqualTo(2_000);
        assertThat(flushes).isBetween(1.0, 2_000.0);
        FunctionTimer flush = registry.get("slotted.flush").functionTimer();
        assertThat(flush.count()).isEqualTo(flushes);
        assertThat(flush.totalTime(TimeUnit.NANOSECONDS)).isPositive();
        assertThat(registry.get("slotted.queue.depth").gauge().value()).isZero();
        assertThat(registry.get("slotted.queue.capacity").gauge().value()).isEqualTo(5_000);
        assertThat(registry.get("slotted.retries").functionCounter().count()).isZero();
        assertThat(counters.get(TYPE, 0) + counters.get(TYPE, 1) + counters.get(TYPE, 2)).isEqualTo(4_000);
    }

    @Test
    void rollUpLag_withNoBoundType_isNaN() {
        assertThat(registry.get("slotted.rollup.lag").gauge().value()).isNaN();
    }

    @Test
    void meters_haveNoTags() {
        assertThat(registry.getMeters()).isNotEmpty()
                .allSatisfy(meter -> assertThat(meter.getId().getTags()).isEmpty())
                .extracting(meter -> meter.getId().getName())
                .allMatch(name -> name.startsWith("slotted."));
        assertThat(registry.getMeters().stream().map(Meter::getId).map(Meter.Id::getName))
                .contains("slotted.increments.applied", "slotted.increments.dropped", "slotted.retries",
                        "slotted.flushes", "slotted.flush", "slotted.flush.increments",
                        "slotted.commit.outcomes.unknown", "slotted.commit.outcomes.resolved",
                        "slotted.queue.depth", "slotted.queue.capacity", "slotted.rollups",
                        "slotted.rollup.counters", "slotted.rollup.lag");
    }
}
