package io.slotted.bench.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.slotted.bench.TestRedis;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;

/** Many writers on a few shared raw connections, against a real Redis: nothing lost or doubled. */
class RespConnectionPoolTest {
    private final HostAndPort redis = TestRedis.address();

    @Test
    void incr_from16WritersOn3Connections_countsEveryIncrementOnce() throws Exception {
        String key = "slotted-bench-test:" + UUID.randomUUID();
        int writers = 16;
        int each = 500;
        ExecutorService threads = Executors.newFixedThreadPool(writers);
        try (RespConnectionPool pool = RespConnectionPool.open(redis.getHost(), redis.getPort(), 3)) {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                done.add(threads.submit(() -> {
                    for (int i = 0; i < each; i++) {
                        pool.incr(key);
                    }
                    return null;
                }));
            }
            for (Future<?> writer : done) {
                writer.get();
            }
            assertThat(pool.size()).isEqualTo(3);
        } finally {
            threads.shutdownNow();
        }
        try (Jedis jedis = TestRedis.jedis()) {
            assertThat(jedis.get(key)).isEqualTo(String.valueOf(writers * each));
            jedis.del(key);
        }
    }

    @Test
    void open_withNoConnections_isRejectedNamingTheValue() {
        assertThatThrownBy(() -> RespConnectionPool.open(redis.getHost(), redis.getPort(), 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a pool needs at least 1 connection, but was given 0");
    }
}
