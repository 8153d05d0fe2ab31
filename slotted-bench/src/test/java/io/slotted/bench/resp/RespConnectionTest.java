package io.slotted.bench.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.slotted.bench.TestRedis;
import java.io.IOException;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;

/**
 * The raw RESP client against a real Redis: replies read exactly, errors reported with Redis's own
 * words, and a stream that stops making sense closed for good rather than read out of step.
 */
class RespConnectionTest {
    private final String key = "slotted-bench-test:" + UUID.randomUUID();
    private final HostAndPort redis = TestRedis.address();

    @AfterEach
    void deleteKey() {
        try (Jedis jedis = TestRedis.jedis()) {
            jedis.del(key);
        }
    }

    private RespConnection open() throws IOException {
        return RespConnection.open(redis.getHost(), redis.getPort());
    }

    @Test
    void incr_returnsEachNewValue_andRedisHoldsTheLast() throws IOException {
        try (RespConnection connection = open()) {
            for (long expected = 1; expected <= 1_000; expected++) {
                assertThat(connection.incr(key)).isEqualTo(expected);
            }
        }
        try (Jedis jedis = TestRedis.jedis()) {
            assertThat(jedis.get(key)).isEqualTo("1000");
        }
    }

    @Test
    void incr_ofANegativeValue_readsTheSign() throws IOException {
        try (Jedis jedis = TestRedis.jedis(); RespConnection connection = open()) {
            jedis.set(key, "-10");

            assertThat(connection.incr(key)).isEqualTo(-9);
        }
    }

    @Test
    void incr_ofAKeyWithMultiByteCharacters_sendsItsLengthInBytes() throws IOException {
        String accented = key + ":zähler-✓";
        try (RespConnection connection = open(); Jedis jedis = TestRedis.jedis()) {
            connection.incr(accented);
            connection.incr(accented);

            assertThat(jedis.get(accented)).isEqualTo("2");
            jedis.del(accented);
        }
    }

    @Test
    void incr_ofAKeyThatIsNotAnInteger_failsWithRedisErrorAndTheConnectionStaysUsable()
            throws IOException {
        String text = key + ":text";
        try (Jedis jedis = TestRedis.jedis(); RespConnection connection = open()) {
            jedis.set(text, "not a number");

            assertThatThrownBy(() -> connection.incr(text)).isInstanceOf(IOException.class)
                    .hasMessageContaining("refused INCR " + text)
                    .hasMessageContaining("ERR value is not an integer");
            assertThat(connection.incr(key)).as("the error line was read in full").isEqualTo(1);
            jedis.del(text);
        }
    }

    @Test
    void incr_toAServerThatIsNotRedis_failsAsAnUnexpectedReplyAndClosesTheConnection()
            throws IOException {
        // MariaDB greets every new connection with a binary handshake packet: a real server
        // whose first reply is nothing RESP would send.
        try (RespConnection connection = RespConnection.open("127.0.0.1", 3306)) {
            assertThatThrownBy(() -> connection.incr(key)).isInstanceOf(IOException.class)
                    .hasMessageContaining("unexpected reply")
                    .hasMessageContaining("the connection is closed");
            assertThatThrownBy(() -> connection.incr(key)).isInstanceOf(IOException.class)
                    .hasMessageContaining("was closed after an earlier failure: unexpected reply");
        }
    }

    @Test
    void incr_afterRedisKilledTheConnection_failsSayingSo() throws IOException {
        try (RespConnection connection = open(); Jedis jedis = TestRedis.jedis()) {
            connection.incr(key);
            jedis.clientKill(connection.localAddress());

            assertThatThrownBy(() -> connection.incr(key)).isInstanceOf(IOException.class)
                    .hasMessageContaining("INCR " + key + " on Redis at " + redis.getHost() + ":"
                            + redis.getPort() + " failed, so the connection is closed");
        }
    }

    @Test
    void open_whereNothingListens_failsNamingTheServer() {
        assertThatThrownBy(() -> RespConnection.open("127.0.0.1", 1)).isInstanceOf(IOException.class)
                .hasMessageStartingWith("could not connect to Redis at 127.0.0.1:1");
    }
}
