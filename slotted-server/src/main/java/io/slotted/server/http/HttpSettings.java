package io.slotted.server.http;

import java.time.Duration;
import java.util.Objects;

/**
 * The bounds the HTTP front end keeps under load and abuse: how long a body may take to arrive, how
 * much work may wait, how many connections may be open and how readiness is probed. Every value is
 * checked when the settings are made. How long counter work may take is the service's request
 * deadline ({@link io.slotted.server.config.ServerSettings#requestDeadline()}), which the Redis
 * protocol keeps too.
 *
 * @param bodyDeadline how long a request body may take to arrive in full; past it the request is
 *     answered 408 (default 10 s)
 * @param workerThreads the threads that run the counters' blocking calls (default 32)
 * @param workerQueue how many counter requests may wait for a worker thread; past it a request is
 *     answered 503 at once (default 1000)
 * @param bodyBytes how many bytes of request bodies may be held at once, over all requests; past
 *     it a request is answered 503 at once (default 64 MiB)
 * @param maxConnections how many connections may be open at once; past it new connections wait
 *     to be accepted (default 2000)
 * @param idleTimeout how long a connection may be idle before it is closed (default 30 s)
 * @param readinessInterval how often readiness is probed (default 1 s)
 * @param readinessTimeout how long one readiness probe may take (default 2 s; whole seconds, as
 *     JDBC's query timeout counts them)
 */
public record HttpSettings(Duration bodyDeadline, int workerThreads, int workerQueue,
        long bodyBytes, int maxConnections, Duration idleTimeout, Duration readinessInterval,
        Duration readinessTimeout) {
    private static final Duration MIN_DURATION = Duration.ofMillis(1);
    private static final int MAX_THREADS = 1024;
    private static final int MAX_QUEUE = 1_000_000;

    /**
     * Checks the settings.
     *
     * @throws IllegalArgumentException if a duration is not positive, the readiness timeout is not
     *     a whole number of seconds, or a count is out of its range
     * @throws NullPointerException if a duration is null
     */
    public HttpSettings {
        positive("bodyDeadline", bodyDeadline);
        positive("idleTimeout", idleTimeout);
        positive("readinessInterval", readinessInterval);
        positive("readinessTimeout", readinessTimeout);
        if (readinessTimeout.toNanos() % Duration.ofSeconds(1).toNanos() != 0) {
            throw new IllegalArgumentException("readinessTimeout must be a whole number of seconds,"
                    + " as JDBC's query timeout counts them, but was " + readinessTimeout);
        }
        inRange("workerThreads", workerThreads, 1, MAX_THREADS);
        inRange("workerQueue", workerQueue, 1, MAX_QUEUE);
        inRange("maxConnections", maxConnections, 1, Integer.MAX_VALUE);
        if (bodyBytes < HttpFrontEnd.MAX_BODY_BYTES) {
            throw new IllegalArgumentException("bodyBytes must be at least one largest body ("
                    + HttpFrontEnd.MAX_BODY_BYTES + "), but was " + bodyBytes);
        }
    }

    /**
     * The defaults: a 10 s deadline for bodies, 32 worker threads with room for 1000 waiting
     * requests, 64 MiB of bodies, 2000 connections idle for at most 30 s, readiness probed every
     * second with a 2 s timeout.
     *
     * @return the defaults
     */
    public static HttpSettings defaults() {
        return new HttpSettings(Duration.ofSeconds(10), 32, 1000, 64L * 1024 * 1024, 2000,
                Duration.ofSeconds(30), Duration.ofSeconds(1), Duration.ofSeconds(2));
    }

    /**
     * These settings with another deadline for bodies.
     *
     * @param deadline the new deadline
     * @return the changed settings
     */
    public HttpSettings withBodyDeadline(Duration deadline) {
        return new HttpSettings(deadline, workerThreads, workerQueue, bodyBytes, maxConnections,
                idleTimeout, readinessInterval, readinessTimeout);
    }

    /**
     * These settings with other bounds on the worker threads.
     *
     * @param threads the worker threads
     * @param queue how many requests may wait for one
     * @return the changed settings
     */
    public HttpSettings withWorkers(int threads, int queue) {
        return new HttpSettings(bodyDeadline, threads, queue, bodyBytes, maxConnections,
                idleTimeout, readinessInterval, readinessTimeout);
    }

    /**
     * These settings with other bounds on connections.
     *
     * @param connections how many may be open at once
     * @param idle how long one may be idle
     * @return the changed settings
     */
    public HttpSettings withConnections(int connections, Duration idle) {
        return new HttpSettings(bodyDeadline, workerThreads, workerQueue, bodyBytes, connections,
                idle, readinessInterval, readinessTimeout);
    }

    /**
     * These settings with another readiness probe.
     *
     * @param interval how often it runs
     * @param timeout how long it may take
     * @return the changed settings
     */
    public HttpSettings withReadiness(Duration interval, Duration timeout) {
        return new HttpSettings(bodyDeadline, workerThreads, workerQueue, bodyBytes,
                maxConnections, idleTimeout, interval, timeout);
    }

    private static void positive(String name, Duration value) {
        Objects.requireNonNull(value, name);
        if (value.compareTo(MIN_DURATION) < 0) {
            throw new IllegalArgumentException(name + " must be at least 1ms, but was " + value);
        }
    }

    private static void inRange(String name, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + " must be between " + min + " and " + max
                    + ", but was " + value);
        }
    }
}
