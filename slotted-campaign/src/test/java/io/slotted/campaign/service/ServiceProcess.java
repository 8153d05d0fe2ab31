package io.slotted.campaign.service;

import io.slotted.internal.mutation.Mutation;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.Jedis;

/**
 * One real {@code slotted serve} process: a JVM of its own running the shipped jar
 * ({@code slotted-server/target/slotted.jar}), serving HTTP and the Redis protocol on loopback
 * ports of its own, reaching the database through the campaign's fault proxy. It can be killed
 * with SIGKILL, as a host that dies kills it, or stopped with SIGTERM, as a redeploy stops it
 * (gracefully: requests in flight finish, accepted increments are written, exit 0), and started
 * again on the same ports.
 *
 * <p>It runs the jar {@link ServiceJar} finds, on ports {@link LoopbackPorts} chooses once and
 * keeps across restarts: a client finds the service where it was.
 *
 * <p><b>Epochs.</b> Each kill, stop and start begins a new epoch. A client holds its connections
 * to one epoch and opens new ones when the epoch moved on, so that a request is not written onto a
 * connection its server died with: it is refused at connect instead, and surely not applied. The
 * HTTP client, with its pool of connections, is one per epoch for the same reason.
 *
 * <p>Its output, every start of one run appended, goes to {@code <name>.log} in its directory.
 */
public final class ServiceProcess implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ServiceProcess.class);
    /** How long a start may take, retries included: two JVMs and a database share two cores. */
    private static final Duration START_WITHIN = Duration.ofSeconds(120);
    /** How long a graceful stop may take: requests in flight finish, accepted increments are written. */
    private static final Duration STOP_WITHIN = Duration.ofSeconds(60);
    /** How much longer than the service's deadline a client waits for an answer. */
    private static final Duration CLIENT_GRACE = Duration.ofSeconds(30);
    private static final HttpClient PROBE = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(1)).build();

    private final String name;
    private final String jdbcUrl;
    private final Duration requestTimeout;
    private final Path directory;
    private final Path jar;
    private final int httpPort;
    private final int respPort;
    private final AtomicInteger epoch = new AtomicInteger();
    private final AtomicInteger starts = new AtomicInteger();
    private final List<String> notes = Collections.synchronizedList(new ArrayList<>());
    private volatile HttpClient http;
    private volatile Process process;

    private ServiceProcess(String name, String jdbcUrl, Duration requestTimeout, Path directory, int httpPort,
            int respPort) {
        this.name = name;
        this.jdbcUrl = jdbcUrl;
        this.requestTimeout = requestTimeout;
        this.directory = directory;
        this.jar = ServiceJar.locate();
        this.httpPort = httpPort;
        this.respPort = respPort;
        this.http = newHttpClient();
    }

    /**
     * Starts a service process and returns once both of its front ends answer.
     *
     * @param name its name in the history and the log
     * @param jdbcUrl the database, through the fault proxy, with the driver's socket timeout
     * @param requestTimeout its {@code --request-timeout}
     * @param directory where it runs and writes its log
     * @throws IllegalStateException if the jar is missing, or it does not start within two minutes
     */
    public static ServiceProcess start(String name, String jdbcUrl, Duration requestTimeout, Path directory) {
        int[] ports = LoopbackPorts.free(2);
        ServiceProcess service = new ServiceProcess(name, jdbcUrl, requestTimeout, directory, ports[0], ports[1]);
        service.startUntilReady();
        return service;
    }

    public String name() {
        return name;
    }

    /** How long the service may take to answer a request, by its own deadline. */
    public Duration requestTimeout() {
        return requestTimeout;
    }

    /** The HTTP base address, such as {@code http://127.0.0.1:21080}. */
    public URI httpBase() {
        return URI.create("http://127.0.0.1:" + httpPort);
    }

    /**
     * How long a client waits for an answer: the service's own deadline and half a minute. A client
     * that waits longer has met a request the service left unanswered.
     */
    public Duration patience() {
        return requestTimeout.plus(CLIENT_GRACE);
    }

    public int respPort() {
        return respPort;
    }

    /** The epoch now: it moves on at every kill, stop and start. */
    public int epoch() {
        return epoch.get();
    }

    /** The HTTP client of this epoch. */
    public HttpClient http() {
        return http;
    }

    /** What did not go as the service promises: a stop that did not exit 0 in time. */
    public List<String> notes() {
        return List.copyOf(notes);
    }

    /** Kills the process with SIGKILL, waits for it to be gone, and starts it again after {@code down}. */
    public void killAndRestart(Duration down) {
        Process dying = beginEpoch();
        LOG.info("{}: SIGKILL to pid {}", name, dying.pid());
        dying.destroyForcibly();
        awaitExit(dying, STOP_WITHIN);
        pause(down);
        startUntilReady();
    }

    /** Stops the process with SIGTERM, as a redeploy does, and starts it again. */
    public void stopAndRestart() {
        stop();
        startUntilReady();
    }

    /**
     * Stops the process gracefully (SIGTERM) and waits for it to exit; one that does not exit 0
     * within a minute is noted, and one still running then is killed.
     */
    public void stop() {
        Process stopping = beginEpoch();
        if (stopping == null || !stopping.isAlive()) {
            return;
        }
        LOG.info("{}: SIGTERM to pid {}", name, stopping.pid());
        stopping.destroy();
        if (!awaitExit(stopping, STOP_WITHIN)) {
            note("did not stop within " + STOP_WITHIN.toSeconds() + " s of SIGTERM (pid " + stopping.pid()
                    + "): killed");
            stopping.destroyForcibly();
            awaitExit(stopping, STOP_WITHIN);
        } else if (stopping.exitValue() != 0) {
            note("exited " + stopping.exitValue() + " after SIGTERM (pid " + stopping.pid() + "): its drain failed");
        }
    }

    /** Stops the process gracefully, if it runs. */
    @Override
    public void close() {
        stop();
    }

    /**
     * Starts the process and waits until both front ends answer. A process that exits while it
     * starts (the database unreachable through a fault, say) is started again, until the time is up.
     */
    private void startUntilReady() {
        long deadline = System.nanoTime() + START_WITHIN.toNanos();
        while (true) {
            Process started = launch();
            if (awaitReady(started, deadline)) {
                process = started;
                beginEpoch();
                LOG.info("{}: pid {} serves HTTP on {} and the Redis protocol on {}", name, started.pid(), httpPort,
                        respPort);
                return;
            }
            started.destroyForcibly();
            awaitExit(started, STOP_WITHIN);
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException(name + " did not start within " + START_WITHIN.toSeconds()
                        + " s: see " + log());
            }
            LOG.warn("{}: pid {} exited with {} while starting; starting it again (see {})", name, started.pid(),
                    started.exitValue(), log());
            pause(Duration.ofSeconds(1));
        }
    }

    private Process launch() {
        try {
            Files.createDirectories(directory);
            int start = starts.incrementAndGet();
            // A replay of the seed writes the same file: its first start begins it anew.
            Files.writeString(log(), "=== " + name + " start " + start + " at " + Instant.now() + "\n",
                    StandardOpenOption.CREATE, start == 1 ? StandardOpenOption.TRUNCATE_EXISTING
                            : StandardOpenOption.APPEND);
            ProcessBuilder builder = new ProcessBuilder(command()).directory(directory.toFile())
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log().toFile()));
            builder.environment().keySet().removeIf(variable -> variable.startsWith("SLOTTED_"));
            return builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("could not start " + name + " from " + jar, e);
        }
    }

    /** {@code java -jar slotted.jar serve ...}, with a planted bug passed on when this JVM has one. */
    private List<String> command() {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx256m", "-XX:+UseSerialGC"));
        String mutation = System.getProperty(Mutation.PROPERTY, "").trim();
        if (!mutation.isEmpty()) {
            command.add("-D" + Mutation.PROPERTY + "=" + mutation);
        }
        command.addAll(List.of("-jar", jar.toString(), "serve", "--bind", "127.0.0.1",
                "--port", Integer.toString(httpPort), "--resp-port", Integer.toString(respPort), "--db", jdbcUrl,
                "--types", ServiceTypes.typesOption(), "--limits", ServiceTypes.limitsOption(),
                "--expiring", ServiceTypes.expiringOption(),
                "--request-timeout", requestTimeout.toMillis() + "ms"));
        return command;
    }

    /** Whether both front ends answer before the deadline; false as soon as the process exits. */
    private boolean awaitReady(Process started, long deadline) {
        while (System.nanoTime() - deadline < 0) {
            if (!started.isAlive()) {
                return false;
            }
            if (httpAnswers() && respAnswers()) {
                return true;
            }
            pause(Duration.ofMillis(200));
        }
        return false;
    }

    private boolean httpAnswers() {
        try {
            HttpRequest healthz = HttpRequest.newBuilder(httpBase().resolve("/healthz")).timeout(Duration.ofSeconds(2))
                    .GET().build();
            return PROBE.send(healthz, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while " + name + " started", e);
        }
    }

    private boolean respAnswers() {
        try (Jedis jedis = RespCalls.connect(respPort, Duration.ofSeconds(2))) {
            return "PONG".equals(jedis.ping());
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** Moves to a new epoch, with an HTTP client of its own; answers the process of the old one. */
    private Process beginEpoch() {
        http = newHttpClient();
        epoch.incrementAndGet();
        return process;
    }

    private void note(String note) {
        LOG.warn("{}: {}", name, note);
        notes.add(name + " " + note);
    }

    private Path log() {
        return directory.resolve(name + ".log");
    }

    private static HttpClient newHttpClient() {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2))
                .build();
    }

    private static boolean awaitExit(Process process, Duration within) {
        try {
            return process.waitFor(within.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for pid " + process.pid() + " to exit", e);
        }
    }

    private static void pause(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    @Override
    public String toString() {
        return name + "[http " + httpPort + ", resp " + respPort + ", epoch " + epoch + "]";
    }
}
