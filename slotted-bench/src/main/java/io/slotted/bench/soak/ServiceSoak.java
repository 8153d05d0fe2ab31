package io.slotted.bench.soak;

import io.slotted.bench.DurationConverter;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * A soak of a running service: clients send a mix of increments (plain and with idempotency keys,
 * some replayed), batches, reads and bad requests for a fixed time, while the service's heap,
 * threads and open descriptors are sampled from {@code /metrics}; then every counter is read back
 * and compared with what the clients saw acknowledged.
 *
 * <p>Run by {@code slotted-bench/load/soak.sh}, which starts the service; by hand:
 * <pre>{@code
 * java -cp slotted-bench/target/slotted-bench.jar io.slotted.bench.soak.ServiceSoak \
 *     --url http://127.0.0.1:18080 --duration 10m --clients 32
 * }</pre>
 *
 * <p>Exactness: a counter must hold every delta answered 200, plus at most the deltas whose answer
 * was unknown (a 503 {@code outcome_unknown}, a timeout). A bad request must answer 4xx. Exits 0
 * when both held, 1 otherwise.
 */
@Command(name = "service-soak", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Mixed load against a running slotted service, checked for exactness.")
public final class ServiceSoak implements Callable<Integer> {
    private static final int COUNTERS = 1_000;
    private static final Pattern APPLIED = Pattern.compile("\"applied\"\\s*:\\s*(\\d+)");
    private static final List<String> BAD_BODIES = List.of("{\"delta\": ", "{\"delta\": 0}",
            "{\"delta\": 1.5}", "[1, 2]", "{\"delta\": 99999999999999999999}", "{\"other\": 1}");

    @Spec
    private CommandSpec spec;

    @Option(names = "--url", paramLabel = "URL", description = "The service (default: ${DEFAULT-VALUE}).")
    private String url = "http://127.0.0.1:18080";

    @Option(names = "--duration", converter = DurationConverter.class, paramLabel = "TIME",
            description = "How long the load runs (default: 10m).")
    private Duration duration = Duration.ofMinutes(10);

    @Option(names = "--clients", paramLabel = "N", description = "Client threads (default: ${DEFAULT-VALUE}).")
    private int clients = 32;

    @Option(names = "--sample-every", converter = DurationConverter.class, paramLabel = "TIME",
            description = "How often the service's resources are sampled (default: 30s).")
    private Duration sampleEvery = Duration.ofSeconds(30);

    @Option(names = "--seed", paramLabel = "N", description = "Seed of the mix (default: ${DEFAULT-VALUE}).")
    private long seed = 7;

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();
    private final AtomicLongArray acknowledged = new AtomicLongArray(COUNTERS);
    private final AtomicLongArray unknown = new AtomicLongArray(COUNTERS);
    private final Map<String, LongAdder> outcomes = new ConcurrentSkipListMap<>();
    private final LongAdder badRequestsAccepted = new LongAdder();

    /**
     * Runs the soak.
     *
     * @param args the options; {@code --help} lists them
     */
    public static void main(String[] args) {
        System.exit(new CommandLine(new ServiceSoak()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        long end = System.nanoTime() + duration.toNanos();
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        List<Future<?>> running = new ArrayList<>();
        for (int c = 0; c < clients; c++) {
            SplittableRandom random = new SplittableRandom(seed * 1_000 + c);
            int client = c;
            running.add(pool.submit(() -> {
                for (long n = 0; System.nanoTime() < end; n++) {
                    oneRequest(random, client + "-" + n);
                }
                return null;
            }));
        }
        List<Sample> samples = sampleUntil(end, out);
        for (Future<?> f : running) {
            f.get();
        }
        pool.shutdown();
        samples.add(Sample.of(scrape()));
        return report(out, samples);
    }

    /** One request of the mix; what it did is tallied. */
    private void oneRequest(SplittableRandom random, String requestId) {
        int pick = random.nextInt(100);
        int id = random.nextInt(COUNTERS);
        if (pick < 55) {
            long delta = 1 + random.nextInt(5);
            increment(id, delta, null);
        } else if (pick < 65) {
            long delta = 1 + random.nextInt(5);
            String key = "soak-" + requestId;
            increment(id, delta, key);
            if (random.nextInt(5) == 0) {
                increment(id, delta, key);   // a retry: must replay, not count again
            }
        } else if (pick < 75) {
            batch(random);
        } else if (pick < 92) {
            read(random, id);
        } else {
            badRequest(random, id);
        }
    }

    private void increment(int id, long delta, String key) {
        HttpRequest.Builder request = post("/v1/counters/1/" + id + "/increment",
                "{\"delta\": " + delta + "}");
        if (key != null) {
            request.header("Idempotency-Key", key);
        }
        Answer answer = send(request.build(), key == null ? "increment" : "keyed increment");
        if (answer.ok() && !answer.body().contains("\"replayed\":true")) {
            acknowledged.addAndGet(id, delta);
        } else if (answer.unknown()) {
            unknown.addAndGet(id, delta);
        }
    }

    private void batch(SplittableRandom random) {
        int[] ids = random.ints(10, 0, COUNTERS).toArray();
        StringBuilder body = new StringBuilder("{\"increments\": [");
        for (int i = 0; i < ids.length; i++) {
            body.append(i == 0 ? "" : ", ").append("{\"type\": 1, \"id\": ").append(ids[i])
                    .append(", \"delta\": 1}");
        }
        Answer answer = send(post("/v1/increments", body.append("]}").toString()).build(), "batch");
        Matcher applied = APPLIED.matcher(answer.body());
        boolean all = answer.ok() && applied.find() && Long.parseLong(applied.group(1)) == ids.length;
        for (int id : ids) {
            if (all) {
                acknowledged.incrementAndGet(id);
            } else if (answer.unknown()) {
                unknown.incrementAndGet(id);
            }
        }
    }

    private void read(SplittableRandom random, int id) {
        String path = random.nextBoolean() ? "/v1/counters/1/" + id
                : "/v1/counters/1?ids=" + id + "," + random.nextInt(COUNTERS) + "," + random.nextInt(COUNTERS);
        send(HttpRequest.newBuilder(URI.create(url + path)).timeout(Duration.ofSeconds(30)).GET().build(),
                "read");
    }

    /** A bad request: must answer 4xx; a 2xx would mean a bad request may have counted. */
    private void badRequest(SplittableRandom random, int id) {
        HttpRequest request = switch (random.nextInt(4)) {
            case 0 -> post("/v1/counters/1/" + id + "/increment",
                    BAD_BODIES.get(random.nextInt(BAD_BODIES.size()))).build();
            case 1 -> post("/v1/counters/1/not-a-number/increment", "{\"delta\": 1}").build();
            case 2 -> post("/v1/counters/no_such_type/" + id + "/increment", "{\"delta\": 1}").build();
            default -> HttpRequest.newBuilder(URI.create(url + "/v1/counters/1/" + id + "/increment"))
                    .timeout(Duration.ofSeconds(30)).method("BREW" + random.nextInt(1_000_000),
                            BodyPublishers.noBody()).build();
        };
        Answer answer = send(request, "bad request");
        if (answer.status() < 400 || answer.status() >= 500) {
            badRequestsAccepted.increment();
        }
    }

    private HttpRequest.Builder post(String path, String body) {
        return HttpRequest.newBuilder(URI.create(url + path)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json").POST(BodyPublishers.ofString(body));
    }

    private Answer send(HttpRequest request, String kind) {
        Answer answer;
        try {
            HttpResponse<String> response = http.send(request, BodyHandlers.ofString());
            answer = new Answer(response.statusCode(), response.body());
        } catch (IOException e) {
            answer = new Answer(0, "");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            answer = new Answer(0, "");
        }
        outcomes.computeIfAbsent(kind + " " + (answer.status() == 0 ? "no answer" : answer.status()),
                k -> new LongAdder()).increment();
        return answer;
    }

    private List<Sample> sampleUntil(long end, PrintWriter out) throws InterruptedException {
        List<Sample> samples = new ArrayList<>();
        long start = System.nanoTime();
        out.println("  time   heap MB  threads  open fds");
        while (System.nanoTime() < end) {
            Sample sample = Sample.of(scrape());
            samples.add(sample);
            out.printf(Locale.ROOT, "%5ds  %8.1f  %7.0f  %8.0f%n",
                    Duration.ofNanos(System.nanoTime() - start).toSeconds(),
                    sample.heapBytes() / 1048576.0, sample.threads(), sample.openFds());
            out.flush();
            Thread.sleep(Math.min(sampleEvery.toMillis(),
                    Math.max(1, Duration.ofNanos(end - System.nanoTime()).toMillis())));
        }
        return samples;
    }

    private String scrape() {
        try {
            return http.send(HttpRequest.newBuilder(URI.create(url + "/metrics"))
                    .timeout(Duration.ofSeconds(30)).build(), BodyHandlers.ofString()).body();
        } catch (Exception e) {
            return "";
        }
    }

    /** Reads every counter back and prints the verdict. */
    private int report(PrintWriter out, List<Sample> samples) throws Exception {
        Map<Integer, Long> stored = readAll();
        int wrong = 0;
        long totalAcknowledged = 0;
        long totalStored = 0;
        for (int id = 0; id < COUNTERS; id++) {
            long count = stored.getOrDefault(id, 0L);
            totalAcknowledged += acknowledged.get(id);
            totalStored += count;
            if (count < acknowledged.get(id) || count > acknowledged.get(id) + unknown.get(id)) {
                wrong++;
            }
        }
        out.println();
        outcomes.forEach((k, v) -> out.printf(Locale.ROOT, "%-40s %,12d%n", k, v.sum()));
        Sample first = samples.get(0);
        Sample last = samples.get(samples.size() - 1);
        out.printf(Locale.ROOT, "heap MB first %.1f, max %.1f, last %.1f; threads first %.0f, max %.0f,"
                        + " last %.0f; open fds first %.0f, max %.0f, last %.0f%n",
                first.heapBytes() / 1048576.0, samples.stream().mapToDouble(Sample::heapBytes).max()
                        .orElse(0) / 1048576.0, last.heapBytes() / 1048576.0,
                first.threads(), samples.stream().mapToDouble(Sample::threads).max().orElse(0),
                last.threads(), first.openFds(), samples.stream().mapToDouble(Sample::openFds).max()
                        .orElse(0), last.openFds());
        out.printf(Locale.ROOT, "acknowledged %,d, stored %,d, counters outside [acknowledged,"
                + " acknowledged + unknown]: %d; bad requests answered other than 4xx: %d%n",
                totalAcknowledged, totalStored, wrong, badRequestsAccepted.sum());
        boolean exact = wrong == 0 && badRequestsAccepted.sum() == 0;
        out.println(exact ? "EXACT" : "NOT EXACT");
        return exact ? 0 : 1;
    }

    private Map<Integer, Long> readAll() throws Exception {
        Map<Integer, Long> counts = new TreeMap<>();
        Pattern entry = Pattern.compile("\"(\\d+)\"\\s*:\\s*(-?\\d+)");
        for (int from = 0; from < COUNTERS; from += 500) {
            StringBuilder ids = new StringBuilder();
            for (int id = from; id < Math.min(COUNTERS, from + 500); id++) {
                ids.append(id == from ? "" : ",").append(id);
            }
            String body = http.send(HttpRequest.newBuilder(URI.create(url + "/v1/counters/1?ids=" + ids))
                    .build(), BodyHandlers.ofString()).body();
            for (Matcher m = entry.matcher(body); m.find(); ) {
                counts.put(Integer.parseInt(m.group(1)), Long.parseLong(m.group(2)));
            }
        }
        return counts;
    }

    /** What came back: a status (0 when nothing did) and the body. */
    private record Answer(int status, String body) {
        boolean ok() {
            return status == 200;
        }

        /** No answer, or one that says the write may or may not have landed. */
        boolean unknown() {
            return status == 0 || (status == 503 && body.contains("outcome_unknown"))
                    || (status == 503 && body.contains("timeout"));
        }
    }

    /** The service's resources at one moment, from its Prometheus text. */
    private record Sample(double heapBytes, double threads, double openFds) {
        static Sample of(String metrics) {
            return new Sample(sum(metrics, "jvm_memory_used_bytes{area=\"heap\""),
                    sum(metrics, "jvm_threads_live_threads"), sum(metrics, "process_files_open_files"));
        }

        private static double sum(String metrics, String prefix) {
            return metrics.lines().filter(line -> line.startsWith(prefix))
                    .mapToDouble(line -> Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
                    .sum();
        }
    }
}
