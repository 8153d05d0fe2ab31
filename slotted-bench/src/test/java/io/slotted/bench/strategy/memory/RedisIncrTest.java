package io.slotted.bench.strategy.memory;

import static org.assertj.core.api.Assertions.assertThat;

import io.slotted.bench.TestRedis;
import io.slotted.bench.strategy.Strategy;
import io.slotted.bench.strategy.Writers;
import java.util.UUID;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import redis.clients.jedis.Jedis;

/**
 * The redis strategy on its raw RESP client against a real Redis, with a connection per writer
 * and with a few shared: exact totals, and nothing left behind.
 */
class RedisIncrTest {

    @ParameterizedTest(name = "{0} shared connections (0: one per writer), seed {1}")
    @CsvSource({"0, 42", "2, 42", "1, 7"})
    void redis_12WritersOver50Keys_totalsAreExactAndTheKeysAreDeletedAfterwards(int shared, long seed)
            throws Exception {
        String cell = "t" + UUID.randomUUID().toString().substring(0, 8);
        Strategy.Run run = new RedisIncr(TestRedis.address(), shared).open(cell, 12, 50);
        try (run) {
            long[] expected = Writers.incrementAndDrain(run, 12, 300, 50, seed);

            assertThat(run.totals()).as("seed %d", seed).containsExactly(expected);
            assertThat(run.engineCounts().note()).isEqualTo(
                    shared == 0 ? "" : "12 writers share " + shared + " Redis connections");
        }
        try (Jedis jedis = TestRedis.jedis()) {
            assertThat(jedis.keys("slotted-bench:" + cell + ":*")).isEmpty();
        }
    }
}
