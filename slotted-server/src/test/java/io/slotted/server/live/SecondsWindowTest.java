package io.slotted.server.live;

import static org.assertj.core.api.Assertions.assertThat;

import io.slotted.SlottedStats;
import io.slotted.server.metrics.WriteLatency;
import org.junit.jupiter.api.Test;

class SecondsWindowTest {
    private static SlottedStats stats(long applied, long flushes, long flushed, int queued) {
        return new SlottedStats(applied, 0, flushes, 0, flushed, 0, 0, 0, queued, 0, 0, -1);
    }

    @Test
    void columns_holdWhatHappenedBetweenSamples_notTheRunningTotals() {
        SecondsWindow window = new SecondsWindow();
        window.add(1_000, stats(100, 10, 100, 0), WriteLatency.Percentiles.NONE);
        window.add(2_000, stats(400, 20, 400, 7), new WriteLatency.Percentiles(300, 1.5, 2, 3, 4));

        LiveReport.Seconds seconds = window.columns();

        assertThat(seconds.at()).containsExactly(1_000L, 2_000L);
        assertThat(seconds.increments()).as("the first sample has nothing before it").containsExactly(0L, 300L);
        assertThat(seconds.flushes()).containsExactly(0L, 10L);
        assertThat(seconds.meanFlushSize()).containsExactly(0.0, 30.0);
        assertThat(seconds.p50()).containsExactly(0.0, 1.5);
        assertThat(seconds.max()).containsExactly(0.0, 4.0);
        assertThat(seconds.queued()).containsExactly(0, 7);
    }

    @Test
    void columns_keepTheLast120Seconds_only() {
        SecondsWindow window = new SecondsWindow();
        for (int second = 0; second < 300; second++) {
            window.add(second * 1000L, stats(second * 5L, second, second * 5L, 0), WriteLatency.Percentiles.NONE);
        }

        LiveReport.Seconds seconds = window.columns();

        assertThat(seconds.at()).hasSize(SecondsWindow.KEPT).startsWith(180_000L).endsWith(299_000L);
        assertThat(seconds.increments()).containsOnly(5L);
    }
}
