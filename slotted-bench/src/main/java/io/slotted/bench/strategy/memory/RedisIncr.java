package io.slotted.bench.strategy.memory;

import io.slotted.bench.resp.RespConnection;
import io.slotted.bench.resp.RespConnectionPool;
import io.slotted.bench.strategy.EngineCounts;
import io.slotted.bench.strategy.Strategy;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;

/**
 * Redis {@code INCR}, one key per counter: the usual answer to hot counters, and the yardstick for
 * in-memory speed. How durable it is depends on the server's persistence settings, which the
 * harness prints; with persistence off an acknowledged increment lives in memory only.
 *
 * <p>Increments go through {@link RespConnection}, a raw RESP client, so that what is measured is
 * Redis and the network, not a client library. By default each writer opens one connection of its
 * own and keeps it for the cell, as each SQL writer keeps its own connection. With a connection
 * count, the writers share that many connections instead ({@link RespConnectionPool}), as an
 * application with a client pool would, so that Redis serves a few busy sockets rather than one
 * per writer. Jedis reads the totals back and deletes the keys, outside the measurement.
 */
public final class RedisIncr implements Strategy {
    /** Keys per MGET or DEL when reading back or cleaning up. */
    private static final int CHUNK = 1_000;

    private final HostAndPort server;
    private final int sharedConnections;

    /**
     * Creates the strategy.
     *
     * @param server the Redis server, such as {@code 127.0.0.1:6379}
     * @param sharedConnections how many connections all writers share; 0 for one per writer
     * @throws IllegalArgumentException if {@code sharedConnections} is negative
     */
    public RedisIncr(HostAndPort server, int sharedConnections) {
        if (sharedConnections < 0) {
            throw new IllegalArgumentException("shared Redis connections must be 0 (one per writer)"
                    + " or more, but was " + sharedConnections);
        }
        this.server = server;
        this.sharedConnections = sharedConnections;
    }

    @Override
    public String name() {
        return "redis";
    }

    @Override
    public Run open(String cell, int writers, int keySpace) throws IOException {
        RedisKeys keys = new RedisKeys(server, "slotted-bench:" + cell + ":", keySpace);
        keys.delete();
        if (sharedConnections == 0) {
            return new OwnConnectionsRun(keys);
        }
        return new SharedConnectionsRun(keys, writers,
                RespConnectionPool.open(server.getHost(), server.getPort(), sharedConnections));
    }

    /** Each writer opens a connection of its own when it takes its incrementer. */
    private record OwnConnectionsRun(RedisKeys keys) implements Run {

        @Override
        public Incrementer incrementer() throws IOException {
            RespConnection own = RespConnection.open(keys.server().getHost(), keys.server().getPort());
            return new Incrementer() {
                @Override
                public void increment(long recordId) throws IOException {
                    own.incr(keys.key(recordId));
                }

                @Override
                public void close() {
                    own.close();
                }
            };
        }

        @Override
        public long[] totals() {
            return keys.totals();
        }

        @Override
        public void close() {
            keys.delete();
        }
    }

    /** Every writer borrows one of the pool's connections for each increment. */
    private record SharedConnectionsRun(RedisKeys keys, int writers, RespConnectionPool pool)
            implements Run {

        @Override
        public Incrementer incrementer() {
            return recordId -> pool.incr(keys.key(recordId));
        }

        @Override
        public long[] totals() {
            return keys.totals();
        }

        @Override
        public EngineCounts engineCounts() {
            return new EngineCounts(-1, -1, String.format(Locale.ROOT,
                    "%d writers share %d Redis connections", writers, pool.size()));
        }

        @Override
        public void close() {
            try {
                pool.close();
            } finally {
                keys.delete();
            }
        }
    }

    /** One cell's keys, read back and deleted through Jedis, outside the measured window. */
    private record RedisKeys(HostAndPort server, String prefix, int keySpace) {

        String key(long recordId) {
            return prefix + recordId;
        }

        long[] totals() {
            long[] totals = new long[keySpace];
            try (Jedis jedis = connect()) {
                for (int from = 1; from <= keySpace; from += CHUNK) {
                    List<String> values = jedis.mget(chunk(from));
                    for (int i = 0; i < values.size(); i++) {
                        String value = values.get(i);
                        totals[from - 1 + i] = value == null ? 0 : Long.parseLong(value);
                    }
                }
            }
            return totals;
        }

        void delete() {
            try (Jedis jedis = connect()) {
                for (int from = 1; from <= keySpace; from += CHUNK) {
                    jedis.del(chunk(from));
                }
            }
        }

        private Jedis connect() {
            return new Jedis(server.getHost(), server.getPort());
        }

        private String[] chunk(int from) {
            List<String> keys = new ArrayList<>(CHUNK);
            for (int id = from; id < from + CHUNK && id <= keySpace; id++) {
                keys.add(key(id));
            }
            return keys.toArray(String[]::new);
        }
    }
}
