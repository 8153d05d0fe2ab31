package io.slotted.bench.strategy;

import java.util.ArrayList;
import java.util.List;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;

/**
 * Redis {@code INCR}, one key per counter: the usual answer to hot counters, and the yardstick for
 * in-memory speed. How durable it is depends on the server's persistence settings, which the
 * harness prints; with persistence off an acknowledged increment lives in memory only.
 *
 * <p>Each writer opens one connection of its own and keeps it for the cell, as each SQL writer
 * keeps its own connection, so no pool sits between the writer and the server.
 */
public final class RedisIncr implements Strategy {
    /** Keys per MGET or DEL when reading back or cleaning up. */
    private static final int CHUNK = 1_000;

    private final HostAndPort server;

    /**
     * Creates the strategy.
     *
     * @param server the Redis server, such as {@code 127.0.0.1:6379}
     */
    public RedisIncr(HostAndPort server) {
        this.server = server;
    }

    @Override
    public String name() {
        return "redis";
    }

    @Override
    public Run open(String cell, int writers, int keySpace) {
        RedisRun run = new RedisRun(server, "slotted-bench:" + cell + ":", keySpace);
        run.deleteKeys();
        return run;
    }

    private record RedisRun(HostAndPort server, String prefix, int keySpace) implements Run {

        @Override
        public Incrementer incrementer() {
            Jedis jedis = connect();
            return new Incrementer() {
                @Override
                public void increment(long recordId) {
                    jedis.incr(prefix + recordId);
                }

                @Override
                public void close() {
                    jedis.close();
                }
            };
        }

        @Override
        public long[] totals() {
            long[] totals = new long[keySpace];
            try (Jedis jedis = connect()) {
                for (int from = 1; from <= keySpace; from += CHUNK) {
                    List<String> values = jedis.mget(keys(from));
                    for (int i = 0; i < values.size(); i++) {
                        String value = values.get(i);
                        totals[from - 1 + i] = value == null ? 0 : Long.parseLong(value);
                    }
                }
            }
            return totals;
        }

        @Override
        public void close() {
            deleteKeys();
        }

        void deleteKeys() {
            try (Jedis jedis = connect()) {
                for (int from = 1; from <= keySpace; from += CHUNK) {
                    jedis.del(keys(from));
                }
            }
        }

        private Jedis connect() {
            return new Jedis(server.getHost(), server.getPort());
        }

        private String[] keys(int from) {
            List<String> keys = new ArrayList<>(CHUNK);
            for (int id = from; id < from + CHUNK && id <= keySpace; id++) {
                keys.add(prefix + id);
            }
            return keys.toArray(String[]::new);
        }
    }
}
