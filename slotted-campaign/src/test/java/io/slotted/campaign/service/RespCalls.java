package io.slotted.campaign.service;

import io.slotted.campaign.history.Counter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.args.ExpiryOption;
import redis.clients.jedis.Response;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * One client's connections to the service processes over the Redis protocol, through Jedis, and
 * the commands the campaign sends: {@code INCRBY}/{@code DECRBY}, which answer the counter's total
 * right after the increment's commit; {@code MULTI} … {@code EXEC}, all or nothing, which answers
 * each counter's total at the end of the batch; {@code SET} and {@code DEL}; and {@code GET}.
 *
 * <p>A connection belongs to one epoch of its process ({@link ServiceProcess#epoch()}): once the
 * process was killed, stopped or started again, or once a command on it failed other than by an
 * error answer, the next command opens a new one. A connection that cannot be opened throws
 * {@link NeverSentException}: the command never left. A client waits for an answer as long as
 * {@link ServiceProcess#patience()}. Not thread-safe: one client, one thread.
 */
final class RespCalls implements AutoCloseable {
    private static final int CONNECT_TIMEOUT_MILLIS = 2_000;

    private record Connection(int epoch, Jedis jedis) {
    }

    private final Map<ServiceProcess, Connection> connections = new HashMap<>();

    /** {@code INCRBY key delta}, or {@code DECRBY} for a negative one: the total right after it. */
    long incrBy(ServiceProcess service, Counter counter, long delta) throws NeverSentException {
        Jedis jedis = connection(service);
        return call(service, () -> delta < 0 ? jedis.decrBy(ServiceTypes.respKey(counter), -delta)
                : jedis.incrBy(ServiceTypes.respKey(counter), delta));
    }

    /** {@code MULTI}, an {@code INCRBY} or {@code DECRBY} per counter, {@code EXEC}: each counter's total after it. */
    Map<Counter, Long> exec(ServiceProcess service, Map<Counter, Long> deltas) throws NeverSentException {
        Jedis jedis = connection(service);
        return call(service, () -> {
            Transaction transaction = jedis.multi();
            List<Response<Long>> answers = new ArrayList<>();
            deltas.forEach((counter, delta) -> answers.add(delta < 0
                    ? transaction.decrBy(ServiceTypes.respKey(counter), -delta)
                    : transaction.incrBy(ServiceTypes.respKey(counter), delta)));
            transaction.exec();
            Map<Counter, Long> totals = new LinkedHashMap<>();
            int i = 0;
            for (Counter counter : deltas.keySet()) {
                totals.put(counter, answers.get(i++).get());
            }
            return totals;
        });
    }

    /** {@code SET key count}: the counter set to exactly {@code count}. */
    void set(ServiceProcess service, Counter counter, long count) throws NeverSentException {
        Jedis jedis = connection(service);
        String answer = call(service, () -> jedis.set(ServiceTypes.respKey(counter), Long.toString(count)));
        if (!"OK".equals(answer)) {
            throw new IllegalStateException("SET answered " + answer + ", not OK");
        }
    }

    /** {@code DEL key}: the counter set to 0. */
    void del(ServiceProcess service, Counter counter) throws NeverSentException {
        Jedis jedis = connection(service);
        call(service, () -> jedis.del(ServiceTypes.respKey(counter)));
    }

    /**
     * {@code PEXPIREAT key ms NX}: whether the expiry was set (0: the counter read 0, or had one).
     */
    boolean expireAt(ServiceProcess service, Counter counter, long atMillis) throws NeverSentException {
        Jedis jedis = connection(service);
        return call(service, () -> jedis.pexpireAt(ServiceTypes.respKey(counter), atMillis, ExpiryOption.NX)) == 1;
    }

    /** {@code GET key}: the total. */
    long get(ServiceProcess service, Counter counter) throws NeverSentException {
        Jedis jedis = connection(service);
        return call(service, () -> Long.parseLong(jedis.get(ServiceTypes.respKey(counter))));
    }

    @Override
    public void close() {
        connections.values().forEach(connection -> connection.jedis().close());
        connections.clear();
    }

    /** Runs a command; a failure other than an error answer drops the connection, whose state is then unknown. */
    private <T> T call(ServiceProcess service, Supplier<T> command) {
        try {
            return command.get();
        } catch (JedisDataException answer) {
            throw answer;
        } catch (RuntimeException e) {
            drop(service);
            throw e;
        }
    }

    /** The connection to the process's present epoch, opened if there is none. */
    private Jedis connection(ServiceProcess service) throws NeverSentException {
        Connection connection = connections.get(service);
        int epoch = service.epoch();
        if (connection != null && connection.epoch() == epoch && !connection.jedis().isBroken()) {
            return connection.jedis();
        }
        drop(service);
        try {
            Jedis jedis = connect(service.respPort(), service.patience());
            connections.put(service, new Connection(epoch, jedis));
            return jedis;
        } catch (JedisConnectionException e) {
            throw new NeverSentException("could not connect to " + service.name() + " on port " + service.respPort(), e);
        }
    }

    /**
     * A connection to a service's Redis port, in RESP2, the protocol the service speaks, without
     * asking for another.
     *
     * @throws JedisConnectionException if none can be opened
     */
    static Jedis connect(int port, Duration patience) {
        return new Jedis(new HostAndPort("127.0.0.1", port), DefaultJedisClientConfig.builder()
                .connectionTimeoutMillis(CONNECT_TIMEOUT_MILLIS).socketTimeoutMillis((int) patience.toMillis())
                .serverDefaultProtocol().build());
    }

    private void drop(ServiceProcess service) {
        Connection connection = connections.remove(service);
        if (connection != null) {
            connection.jedis().close();
        }
    }
}
