package io.slotted.internal.rollup;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Which counters the sweep takes for cold: those no roll-up visited since it last listed the counters at 0. */
class WarmCountersTest {

    @Test
    void cold_leavesOutEveryCounterAPassVisited_acrossOverlappingPasses() {
        WarmCounters warm = new WarmCounters(0);
        warm.add(List.of(2L, 5L, 9L));
        warm.add(List.of(1L, 5L, 7L, 12L));
        warm.add(List.of());

        assertThat(warm.cold(List.of(1L, 2L, 3L, 5L, 6L, 7L, 9L, 12L, 13L))).containsExactly(3L, 6L, 13L);
    }

    @Test
    void cold_withNothingVisited_isEveryCandidate_andNegativeIdsCount() {
        WarmCounters warm = new WarmCounters(0);
        warm.add(List.of(-4L, 0L));

        assertThat(new WarmCounters(0).cold(List.of(-4L, 0L, 8L))).containsExactly(-4L, 0L, 8L);
        assertThat(warm.cold(List.of(-4L, -1L, 0L))).containsExactly(-1L);
    }

    @Test
    void restart_startsANewPeriod_inWhichNothingIsWarmAndTheNextSweepIsAnIntervalAway() {
        WarmCounters warm = new WarmCounters(1_000);
        warm.add(List.of(1L, 2L));

        assertThat(warm.due(60_999, 60_000)).isFalse();
        assertThat(warm.due(61_000, 60_000)).isTrue();
        warm.restart(61_000);

        assertThat(warm.cold(List.of(1L, 2L))).containsExactly(1L, 2L);
        assertThat(warm.due(120_999, 60_000)).isFalse();
        assertThat(warm.due(121_000, 60_000)).isTrue();
    }
}
