package io.slotted.bench.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import io.slotted.WriteMode;
import io.slotted.bench.strategy.plain.SingleRowUpdate;
import io.slotted.db.MariaDbTestDatabase;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * SQL strategies with more writers than the connection cap, on a real MariaDB: writers share the
 * capped pool, every increment still lands exactly once, and the cell's line says so.
 */
class SharedConnectionsTest {
    private static final long SEED = 42;
    private final String url = MariaDbTestDatabase.instance().jdbcUrl();

    private static String cell() {
        return "t" + UUID.randomUUID().toString().substring(0, 8);
    }

    @Test
    void singleRow_12WritersOn3Connections_totalsAreExactAndTheLineSaysTheyShare() throws Exception {
        try (Strategy.Run run = new SingleRowUpdate(url, 3).open(cell(), 12, 20)) {
            long[] expected = Writers.incrementAndDrain(run, 12, 100, 20, SEED);

            assertThat(run.totals()).containsExactly(expected);
            assertThat(run.engineCounts().note()).isEqualTo("12 writers share 3 connections");
        }
    }

    @Test
    void singleRow_writersUnderTheCap_eachHoldTheirOwnConnectionAndNothingIsSaid() throws Exception {
        try (Strategy.Run run = new SingleRowUpdate(url, 64).open(cell(), 4, 20)) {
            long[] expected = Writers.incrementAndDrain(run, 4, 100, 20, SEED);

            assertThat(run.totals()).containsExactly(expected);
            assertThat(run.engineCounts()).isEqualTo(EngineCounts.NONE);
        }
    }

    @Test
    void direct_12WritersOn3Connections_totalsAreExactAndTheLineSaysTheyShare() throws Exception {
        try (Strategy.Run run = new SlottedStrategy(url, WriteMode.DIRECT, 0, 3).open(cell(), 12, 20)) {
            long[] expected = Writers.incrementAndDrain(run, 12, 100, 20, SEED);

            assertThat(run.totals()).containsExactly(expected);
            assertThat(run.engineCounts().note()).isEqualTo("12 writers share 3 connections");
        }
    }

    @Test
    void grouped_200WritersOnTheFlushersConnections_totalsAreExact() throws Exception {
        try (Strategy.Run run = new SlottedStrategy(url, WriteMode.GROUPED, 0, 3).open(cell(), 200, 20)) {
            long[] expected = Writers.incrementAndDrain(run, 200, 50, 20, SEED);

            assertThat(run.totals()).containsExactly(expected);
            assertThat(run.engineCounts().note()).isEmpty();
        }
    }
}
