package io.slotted.server.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class WriteLatencyTest {
    @Test
    void interval_givesThePercentilesOfWhatWasRecordedSinceTheLastOne_inMilliseconds() {
        WriteLatency latency = new WriteLatency();
        for (int micros = 1; micros <= 1000; micros++) {
            latency.record(TimeUnit.MICROSECONDS.toNanos(micros * 10L));
        }

        WriteLatency.Percentiles first = latency.interval();

        assertThat(first.writes()).isEqualTo(1000);
        assertThat(first.p50()).isCloseTo(5.0, within(0.05));
        assertThat(first.p99()).isCloseTo(9.9, within(0.1));
        assertThat(first.max()).isCloseTo(10.0, within(0.1));
        assertThat(latency.interval()).as("nothing since").isEqualTo(WriteLatency.Percentiles.NONE);
    }

    @Test
    void record_ofAWaitPastAnHour_countsAsAnHour() {
        WriteLatency latency = new WriteLatency();
        latency.record(TimeUnit.HOURS.toNanos(5));

        assertThat(latency.interval().max()).isCloseTo(3_600_000.0, within(36_000.0));
    }
}
