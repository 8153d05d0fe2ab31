package io.slotted.bench;

import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;

/**
 * The Redis server the tests use: {@code SLOTTED_TEST_REDIS} when set, otherwise the machine's
 * server on {@code 127.0.0.1:6379}. A test that cannot reach it fails; none is skipped.
 */
public final class TestRedis {
    /** The environment variable naming the server as {@code HOST:PORT}. */
    public static final String ADDRESS_VARIABLE = "SLOTTED_TEST_REDIS";

    private TestRedis() {
    }

    /** The server's address. */
    public static HostAndPort address() {
        String address = System.getenv(ADDRESS_VARIABLE);
        return HostAndPort.from(address == null || address.isBlank() ? "127.0.0.1:6379" : address);
    }

    /** A Jedis connection to the server, for setting up and checking. */
    public static Jedis jedis() {
        HostAndPort address = address();
        return new Jedis(address.getHost(), address.getPort());
    }
}
