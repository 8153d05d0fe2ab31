package io.slotted.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.slotted.SlottedCounters;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.LongSupplier;
import java.util.stream.LongStream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Increments per second on a multi-primary MariaDB Galera cluster, one library instance per node
 * and every node taking increments, against a single MariaDB on the same machine; with the
 * certification failures each cluster run met (a local transaction that lost to another node's
 * commit of the same row and was rolled back).
 *
 * <pre>{@code
 * bash scripts/galera-cluster.sh start
 * java -cp slotted-bench/target/slotted-bench.jar io.slotted.bench.GaleraBenchmark
 * bash scripts/galera-cluster.sh stop
 * }</pre>
 *
 * <p>Every run is {@code GROUPED} with the defaults (16 slots, 2 flushers per instance), writers
 * spread round-robin over the instances, on a fresh table; after each run every counter is read
 * back on every database it ran on, with {@code wsrep_sync_wait = 1} on the cluster, and checked
 * against what the writers were acknowledged. Runs alternate single and cluster, so drift in the
 * machine's speed falls on both.
 */
@Command(name = "galera-benchmark", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Increments per second on a 3-node Galera cluster against one MariaDB.")
public final class GaleraBenchmark implements Callable<Integer> {
    private static final int TYPE = 1;

    @Option(names = "--cluster", split = ",", paramLabel = "JDBC_URL",
            description = "The cluster's nodes (default: the three of scripts/galera-cluster.sh).")
    private List<String> cluster = List.of("jdbc:mariadb://127.0.0.1:4306/test?user=root",
            "jdbc:mariadb://127.0.0.1:4307/test?user=root", "jdbc:mariadb://127.0.0.1:4308/test?user=root");

    @Option(names = "--single", paramLabel = "JDBC_URL", description = "The single MariaDB (default: ${DEFAULT-VALUE}).")
    private String single = "jdbc:mariadb://127.0.0.1:3306/test?user=root";

    @Option(names = "--writers", paramLabel = "N", description = "Writer threads (default: ${DEFAULT-VALUE}).")
    private int writers = 64;

    @Option(names = "--duration", converter = DurationConverter.class, paramLabel = "TIME",
            description = "Measured time per run (default: 10s).")
    private Duration duration = Duration.ofSeconds(10);

    @Option(names = "--rounds", paramLabel = "N", description = "Rounds of each pair of runs (default: ${DEFAULT-VALUE}).")
    private int rounds = 3;

    private final PrintStream out = System.out;

    /**
     * Runs the benchmark.
     *
     * @param args the options
     */
    public static void main(String[] args) {
        System.exit(new CommandLine(new GaleraBenchmark()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        out.printf("%d writers, %s per run, %d rounds; GROUPED, 16 slots, 2 flushers per instance%n",
                writers, duration, rounds);
        List<String> lines = new ArrayList<>();
        for (Workload workload : Workload.values()) {
            for (int round = 1; round <= rounds; round++) {
                Result one = run(workload, List.of(single), round);
                Result three = run(workload, cluster, round);
                lines.add(String.format(Locale.ROOT, "%-5s round %d: single %,9.0f/s | cluster %,9.0f/s (%.2fx),"
                        + " %,d flushes, %,d certification failures (%.2f%%, %.1f/s)", workload.label(), round,
                        one.perSecond(), three.perSecond(), three.perSecond() / one.perSecond(), three.flushes,
                        three.certFailures, 100.0 * three.certFailures / Math.max(1, three.flushes),
                        three.certFailures / seconds()));
                out.println(lines.get(lines.size() - 1));
            }
        }
        out.println();
        lines.forEach(out::println);
        out.println("every run exact on every database");
        return 0;
    }

    private record Result(long increments, double seconds, long flushes, long certFailures) {
        double perSecond() {
            return increments / seconds;
        }
    }

    private Result run(Workload workload, List<String> urls, int round) throws Exception {
        String table = "bench_galera_" + workload.label() + "_" + urls.size() + "_" + round;
        List<HikariDataSource> pools = new ArrayList<>();
        List<SlottedCounters> instances = new ArrayList<>();
        try {
            for (String url : urls) {
                HikariDataSource pool = pool(url, 8, null);
                pools.add(pool);
                dropTables(pool, table);
            }
            for (HikariDataSource pool : pools) {
                SlottedCounters counters = SlottedCounters.builder(pool).table(table).build();
                counters.migrate();
                instances.add(counters);
            }
            long certBefore = certFailures(pools);
            AtomicLongArray acknowledged = new AtomicLongArray(workload.keySpace() + 1);
            long started = System.nanoTime();
            write(workload, instances, acknowledged, round);
            double seconds = (System.nanoTime() - started) / 1e9;
            long certFailures = certFailures(pools) - certBefore;
            long flushes = instances.stream().mapToLong(c -> c.stats().flushes()).sum();
            instances.forEach(SlottedCounters::close);
            check(urls, table, workload, acknowledged);
            long total = LongStream.range(1, acknowledged.length()).map(id -> acknowledged.get((int) id)).sum();
            return new Result(total, seconds, flushes, certFailures);
        } finally {
            instances.forEach(SlottedCounters::close);
            for (HikariDataSource pool : pools) {
                dropTables(pool, table);
                pool.close();
            }
        }
    }

    private void write(Workload workload, List<SlottedCounters> instances, AtomicLongArray acknowledged, int round)
            throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        ExecutorService threads = Executors.newFixedThreadPool(writers);
        List<Future<?>> done = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            SlottedCounters counters = instances.get(w % instances.size());
            LongSupplier ids = workload.recordIds(round, w);
            done.add(threads.submit(() -> {
                while (!stop.get()) {
                    long id = ids.getAsLong();
                    counters.increment(TYPE, id);
                    acknowledged.incrementAndGet((int) id);
                }
                return null;
            }));
        }
        Thread.sleep(duration.toMillis());
        stop.set(true);
        for (Future<?> writer : done) {
            writer.get();
        }
        threads.shutdown();
    }

    /** Every counter, read on every database the run wrote to, equals what was acknowledged. */
    private void check(List<String> urls, String table, Workload workload, AtomicLongArray acknowledged) {
        List<Long> ids = LongStream.rangeClosed(1, workload.keySpace()).boxed().toList();
        for (String url : urls) {
            try (HikariDataSource pool = pool(url, 2, urls.size() > 1 ? "SET SESSION wsrep_sync_wait = 1" : null);
                    SlottedCounters reader = SlottedCounters.builder(pool).table(table).build()) {
                Map<Long, Long> read = reader.getAll(TYPE, ids);
                for (long id : ids) {
                    if (read.get(id) != acknowledged.get((int) id)) {
                        throw new IllegalStateException("counter " + id + " read " + read.get(id) + " on " + url
                                + " but " + acknowledged.get((int) id) + " increments were acknowledged");
                    }
                }
            }
        }
    }

    private static long certFailures(List<HikariDataSource> pools) throws SQLException {
        long sum = 0;
        for (HikariDataSource pool : pools) {
            try (Connection connection = pool.getConnection();
                    Statement statement = connection.createStatement();
                    ResultSet row = statement.executeQuery("SHOW GLOBAL STATUS LIKE 'wsrep_local_cert_failures'")) {
                sum += row.next() ? row.getLong(2) : 0;
            }
        }
        return sum;
    }

    private static HikariDataSource pool(String url, int size, String initSql) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        config.setMaximumPoolSize(size);
        config.setConnectionInitSql(initSql);
        return new HikariDataSource(config);
    }

    /** The counter table and the companions {@code migrate()} makes beside it. */
    private static void dropTables(HikariDataSource pool, String table) throws SQLException {
        for (String suffix : List.of("", "_ledger", "_keys", "_types", "_buckets")) {
            execute(pool, "DROP TABLE IF EXISTS " + table + suffix);
        }
    }

    private static void execute(HikariDataSource pool, String... sql) throws SQLException {
        try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
            for (String one : sql) {
                statement.execute(one);
            }
        }
    }

    private double seconds() {
        return duration.toMillis() / 1000.0;
    }
}
