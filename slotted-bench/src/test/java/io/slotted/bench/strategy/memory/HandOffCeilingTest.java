package io.slotted.bench.strategy.memory;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.slotted.SlottedCounters;
import io.slotted.WriteMode;
import io.slotted.bench.strategy.SlottedStrategy;
import io.slotted.bench.strategy.Strategy;
import io.slotted.bench.strategy.Writers;
import io.slotted.db.MariaDbTestDatabase;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The ceiling strategy holds every acknowledged increment, counter by counter, like any other
 * strategy, and hands off to as many consumers as the engine has flushers by default.
 */
class HandOffCeilingTest {

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {7, 42})
    void ceiling_16WritersOver100Counters_totalsAreExact(long seed) throws Exception {
        try (Strategy.Run run = new HandOffCeiling().open("t", 16, 100)) {
            long[] expected = Writers.incrementAndDrain(run, 16, 2_000, 100, seed);

            assertThat(run.totals()).as("seed %d", seed).containsExactly(expected);
        }
    }

    @Test
    void ceiling_oneHotCounter_totalIsWritersTimesIncrements() throws Exception {
        try (Strategy.Run run = new HandOffCeiling().open("t", 32, 1)) {
            Writers.incrementAndDrain(run, 32, 1_000, 1, 1);

            assertThat(run.totals()).containsExactly(32_000L);
        }
    }

    @Test
    void ceiling_runsAsManyConsumersAsTheEngineHasFlushersByDefault() throws Exception {
        int engineDefault;
        try (HikariDataSource pool = MariaDbTestDatabase.instance().applicationPool("flusher-default", 1);
                SlottedCounters counters = SlottedCounters.builder(pool)
                        .writeMode(WriteMode.GROUPED).build()) {
            engineDefault = counters.config().flushers();
        }
        assertThat(SlottedStrategy.DEFAULT_FLUSHERS).isEqualTo(engineDefault);

        try (Strategy.Run run = new HandOffCeiling().open("t", 1, 1)) {
            assertThat(consumerThreads()).isEqualTo(engineDefault);
            run.drain();
            assertThat(consumerThreads()).as("drain ends the consumers").isZero();
        }
    }

    private static long consumerThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("ceiling-consumer-") && t.isAlive()).count();
    }
}
