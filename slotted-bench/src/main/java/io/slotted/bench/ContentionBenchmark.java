package io.slotted.bench;

import io.slotted.WriteMode;
import io.slotted.bench.report.CellComparison;
import io.slotted.bench.report.CsvWriter;
import io.slotted.bench.report.MarkdownReport;
import io.slotted.bench.report.ResultTable;
import io.slotted.bench.report.SvgChart;
import io.slotted.bench.strategy.BucketStrategy;
import io.slotted.bench.strategy.EventStrategy;
import io.slotted.bench.strategy.LimitsStrategy;
import io.slotted.bench.strategy.QuotaStrategy;
import io.slotted.bench.strategy.RollUpStrategy;
import io.slotted.bench.strategy.SlottedStrategy;
import io.slotted.bench.strategy.Strategy;
import io.slotted.bench.strategy.TotalsStrategy;
import io.slotted.bench.strategy.memory.HandOffCeiling;
import io.slotted.bench.strategy.memory.RedisIncr;
import io.slotted.bench.strategy.plain.Bucket4jStrategy;
import io.slotted.bench.strategy.plain.MultiRowUpsert;
import io.slotted.bench.strategy.plain.SingleRowUpdate;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine;
import redis.clients.jedis.HostAndPort;

/**
 * The contention benchmark: how many increments per second each way of counting sustains, and at
 * what latency, as concurrent writers pile onto one hot counter or onto a Zipf-skewed set of
 * 100,000 counters, with an exactness check after every cell.
 *
 * <p>Run it through the {@code slotted} launcher, which builds this module's jar when it is missing
 * or older than the sources and hands {@code bench} to it (the product jar carries no benchmark
 * code), or from the jar directly (the harness then has a JVM to itself):
 * <pre>{@code
 * ./slotted bench --db 'jdbc:mariadb://127.0.0.1:3306/test?user=root' \
 *     --writers 1,4,16,64 --duration 10s --workload both \
 *     --redis 127.0.0.1:6379 --out bench-results/mariadb
 * java -jar slotted-bench/target/slotted-bench.jar --writers 1,16
 * }</pre>
 * {@code --help} lists every option.
 *
 * <p>The run is a grid. For each workload, each writer count and each round, every strategy runs in
 * turn for the same duration, on a fresh table, so that drift in the machine (a checkpoint, a noisy
 * neighbour) falls on all strategies alike instead of on whichever ran last. Results go to the
 * terminal and, in {@code --out}, to {@code results.csv} (every round), {@code results.md} (tables
 * with the command and machine facts, for {@code docs/benchmarks.md}) and {@code chart.svg}.
 *
 * <p>After the tables comes one line per cell of the grid (workload, writer count and round) giving
 * every strategy's throughput as a multiple of the yardsticks that ran in the same cell:
 * {@code redis}, {@code direct} and {@code ceiling}, the hand-off with no database. Writers run on
 * platform threads, or on virtual threads with {@code --threads virtual} when the jar is started
 * by Java 21 or later; the thread kind is recorded with the results. SQL writers that need a
 * connection per increment get one each up to {@code --max-connections}, and share that many
 * beyond it, so that a thousand writers do not ask a database for a thousand connections.
 * {@code limit-N}, such as {@code limit-32}, is the database's own limit beside them: plain
 * auto-commit upserts of N rows, each row counted as one increment.
 *
 * <p>Exits 0 when every cell ran and was exact, 1 otherwise, and 2 on a usage error, with one line
 * on standard error. The report records the command exactly as it was given: the launcher's
 * {@code ./slotted bench} (from {@value #INVOKED_AS}) or the jar's {@code java -jar}, then the
 * arguments.
 */
@Command(name = "slotted-bench", sortOptions = false,
        description = "Measures counter throughput and latency under contention, and checks exactness.")
public final class ContentionBenchmark implements Callable<Integer> {
    private static final List<String> STRATEGIES =
            List.of("single-row", "direct", "grouped", "buffered", "grouped-rollup", "grouped-hourly",
                    "grouped-totals", "grouped-expiring", "grouped-limited", "grouped-at-limit", "redis", "ceiling", "event", "event-joined", "event-joined-twice",
                    "event-grouped");
    private static final Pattern GROUPED_N = Pattern.compile("grouped-(\\d{1,2})");
    private static final Pattern LIMIT_N = Pattern.compile("limit-(\\d{1,4})");
    /** The environment variable the launcher sets to how it was invoked: {@code ./slotted bench}. */
    static final String INVOKED_AS = "SLOTTED_BENCH_INVOKED_AS";
    private static final String JAR_COMMAND = "java -jar slotted-bench/target/slotted-bench.jar";

    @Spec
    private CommandSpec spec;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    private boolean help;

    @Option(names = "--db",
            paramLabel = "JDBC_URL",
            description = "Database to write (default: ${DEFAULT-VALUE}).")
    private String db = "jdbc:mariadb://127.0.0.1:3306/test?user=root";

    @Option(names = "--writers",
            split = ",",
            defaultValue = "1,4,16,64",
            paramLabel = "N",
            description = "Writer counts, comma-separated (default: ${DEFAULT-VALUE}).")
    private List<Integer> writers;

    @Option(names = "--duration",
            converter = DurationConverter.class,
            paramLabel = "TIME",
            description = "Measured time per cell, such as 10s (default: 10s).")
    private Duration duration = Duration.ofSeconds(10);

    @Option(names = "--warmup",
            converter = DurationConverter.class,
            paramLabel = "TIME",
            description = "Untimed time before each cell's measurement (default: 1s).")
    private Duration warmup = Duration.ofSeconds(1);

    @Option(names = "--strategies",
            split = ",",
            defaultValue = "single-row,direct,grouped,buffered,redis",
            paramLabel = "NAME",
            description = "Strategies to run, in this order (default: ${DEFAULT-VALUE};"
                    + " redis only with --redis; grouped-rollup: grouped with the type folded into an"
                    + " owner table of every counter, rolled up every second; grouped-hourly: grouped"
                    + " with the type also counting per hour; grouped-totals: grouped, each increment an"
                    + " addAndGet answering the counter's total; grouped-expiring: grouped-totals on a type whose"
                    + " counters may expire, each flush taking its counters' expiry locks; grouped-limited, grouped-at-limit: grouped"
                    + " with the type kept within limits, each increment a tryAdd, far from the bound"
                    + " (all applied) or at it (all refused); grouped-quota: grouped with the type kept"
                    + " to at most 1,000 per counter per second, each increment a tryAdd; bucket4j: the"
                    + " same quota kept by bucket4j's JDBC backend (MariaDB, MySQL, PostgreSQL), a"
                    + " locked row per decision; event, event-joined, event-grouped: an"
                    + " INSERT of an event row per increment, counted not at all, in its transaction,"
                    + " or by group commit after it; event-joined-twice: event-joined adding +2 and -1"
                    + " to the counter in the transaction; ceiling: group"
                    + " commit's hand-off with no database, the most a synchronous write path could do;"
                    + " limit-N, such as limit-1, limit-32, limit-500: no Slotted, a loop of auto-commit"
                    + " upserts of N distinct rows each, one increment a row: the database's own limit).")
    private List<String> strategies;

    @Option(names = "--workload",
            paramLabel = "hot|zipf|both",
            description = "hot: one counter; zipf: 100,000 counters, Zipf s=1.1 (default: ${DEFAULT-VALUE}).")
    private String workload = "hot";

    @Option(names = "--redis",
            paramLabel = "HOST:PORT",
            description = "Redis server for the redis strategy; without it, redis is skipped.")
    private String redis;

    @Option(names = "--redis-connections",
            paramLabel = "N",
            description = "Redis connections all writers share, taking one for each INCR;"
                    + " 0 for one connection per writer (default: ${DEFAULT-VALUE}).")
    private int redisConnections = 0;

    @Option(names = "--threads",
            paramLabel = "platform|virtual",
            description = "What writers run on; virtual needs the jar to run on Java 21 or later"
                    + " (default: platform).")
    private ThreadKind threads = ThreadKind.PLATFORM;

    @Option(names = "--max-connections",
            paramLabel = "N",
            description = "Most database connections for single-row, direct and limit-N writers,"
                    + " one each; more writers share them. grouped and buffered writers need none"
                    + " (default: ${DEFAULT-VALUE}).")
    private int maxConnections = SlottedStrategy.DEFAULT_MAX_CONNECTIONS;

    @Option(names = "--out",
            paramLabel = "DIR",
            description = "Where results.csv, results.md and chart.svg go (default: ${DEFAULT-VALUE}).")
    private Path out = Path.of("bench-results");

    @Option(names = "--rounds",
            paramLabel = "N",
            description = "Rounds per cell; the median round's throughput is reported"
                    + " (default: ${DEFAULT-VALUE}).")
    private int rounds = 1;

    @Option(names = "--seed",
            paramLabel = "N",
            description = "Seed of the Zipf workload (default: ${DEFAULT-VALUE}).")
    private long seed = 42;

    /**
     * Runs the benchmark.
     *
     * @param args the options; {@code --help} lists them
     */
    public static void main(String[] args) {
        Charset charset = Charset.defaultCharset();
        String invokedAs = System.getenv().getOrDefault(INVOKED_AS, JAR_COMMAND);
        System.exit(commandLine(invokedAs, new PrintWriter(System.out, true, charset),
                new PrintWriter(System.err, true, charset)).execute(args));
    }

    /**
     * The benchmark's command line, printing to the given writers; a usage error is one line on
     * {@code err} and exit status 2.
     *
     * @param invokedAs how the command was started, such as {@code ./slotted bench}: the name in
     *     messages and the start of the command line recorded in the report
     * @param out where progress and results go
     * @param err where errors go
     * @return a command line ready to {@link CommandLine#execute(String...) execute}
     */
    public static CommandLine commandLine(String invokedAs, PrintWriter out, PrintWriter err) {
        CommandLine commandLine = new CommandLine(new ContentionBenchmark());
        commandLine.setCommandName(invokedAs);
        commandLine.setCaseInsensitiveEnumValuesAllowed(true);
        commandLine.setOut(out);
        commandLine.setErr(err);
        commandLine.setParameterExceptionHandler((e, args) -> {
            String name = e.getCommandLine().getCommandName();
            err.println(name + ": " + e.getMessage().strip().replaceAll("\\s*[\\r\\n]+\\s*", " ")
                    + " (see '" + name + " --help')");
            err.flush();
            return 2;
        });
        return commandLine;
    }

    @Override
    public Integer call() throws Exception {
        checkThreads();
        List<Workload> workloads = workloads();
        HostAndPort redisServer = redis == null ? null : HostAndPort.from(redis);
        checkCounts();
        List<Strategy> chosen = strategies(redisServer);
        MachineFacts machine = MachineFacts.collect(db, redisServer);
        printPlan(machine, workloads, chosen);

        List<CellResult> results = runGrid(workloads, chosen);
        List<Summary> summaries = Summary.of(results);
        PrintWriter terminal = terminal();
        terminal.println();
        terminal.println(ResultTable.results(summaries).text());
        ResultTable ratios = ResultTable.ratios(summaries);
        if (!ratios.isEmpty()) {
            terminal.println(ratios.text());
        }
        printYardsticks(results);
        writeFiles(machine, results, summaries);
        boolean allExact = results.size() == cells(workloads, chosen)
                && results.stream().allMatch(CellResult::exact);
        terminal.println(allExact ? "every cell exact" : "NOT every cell ran and was exact");
        return allExact ? 0 : 1;
    }

    /**
     * Strategies are the innermost loop: each gets its turn within a minute or so of the others
     * at the same workload and writer count, so a slow spell of the machine hits them all alike.
     * A cell that fails to set up is reported and skipped; the run goes on.
     */
    private List<CellResult> runGrid(List<Workload> workloads, List<Strategy> chosen) {
        CellRunner runner = new CellRunner(warmup, duration, seed, threads);
        List<CellResult> results = new ArrayList<>();
        int total = cells(workloads, chosen);
        int done = 0;
        for (Workload w : workloads) {
            for (int n : writers) {
                for (int round = 1; round <= rounds; round++) {
                    for (Strategy strategy : chosen) {
                        String cell = String.format(Locale.ROOT, "[%d/%d] %s %s %d writers round %d",
                                ++done, total, w.label(), strategy.name(), n, round);
                        try {
                            CellResult result = runner.run(strategy, w, n, round);
                            results.add(result);
                            terminal().println(cell + ": " + describe(result));
                        } catch (Exception e) {
                            terminal().println(cell + ": FAILED " + e);
                        }
                    }
                }
            }
        }
        return results;
    }

    private static String describe(CellResult r) {
        String line = String.format(Locale.ROOT,
                "%,.0f ops/s, p50 %s ms, p99 %s ms, max %s ms, errors %d, exact=%s",
                r.throughput(), ResultTable.millis(r.latency().percentileMillis(50)),
                ResultTable.millis(r.latency().percentileMillis(99)),
                ResultTable.millis(r.latency().maxMillis()), r.errors(), r.exact());
        if (!r.exact()) {
            line += String.format(Locale.ROOT, " (acknowledged %d, stored %d, %d counters differ)",
                    r.acknowledged(), r.stored(), r.wrongCounters());
        }
        if (r.engine().flushes() > 0) {
            line += String.format(Locale.ROOT, ", %.1f increments/flush, drain %d ms",
                    (double) r.acknowledged() / r.engine().flushes(), r.drainMillis());
        }
        if (!r.engine().note().isEmpty()) {
            line += ", " + r.engine().note();
        }
        return r.firstError() == null ? line : line + "; first error: " + r.firstError();
    }

    /** One line per cell of the grid, each strategy against the yardsticks that ran beside it. */
    private void printYardsticks(List<CellResult> results) {
        if (CellComparison.anyYardstick(results)) {
            PrintWriter terminal = terminal();
            terminal.println("throughput as a multiple of redis, direct and ceiling in the same cell:");
            CellComparison.of(results).forEach(cell -> terminal.println(cell.line()));
            terminal.println();
        }
    }

    private void printPlan(MachineFacts machine, List<Workload> workloads, List<Strategy> chosen) {
        PrintWriter terminal = terminal();
        machine.facts().forEach((k, v) -> terminal.println(k + ": " + v));
        runFacts().forEach((k, v) -> terminal.println(k + ": " + v));
        machine.warnings().forEach(w -> terminal.println("WARNING: " + w));
        int cells = cells(workloads, chosen);
        Duration least = warmup.plus(duration).multipliedBy(cells);
        terminal.printf(Locale.ROOT, "%d cells of %.1f s + %.1f s warm-up: at least %d min %d s%n%n",
                cells, duration.toMillis() / 1000.0, warmup.toMillis() / 1000.0, least.toMinutes(),
                least.toSecondsPart());
    }

    private int cells(List<Workload> workloads, List<Strategy> chosen) {
        return workloads.size() * writers.size() * rounds * chosen.size();
    }

    private void writeFiles(MachineFacts machine, List<CellResult> results, List<Summary> summaries)
            throws Exception {
        Files.createDirectories(out);
        String database = machine.facts().getOrDefault("database", "database");
        String caption = database + ", " + machine.facts().getOrDefault("durability", "")
                + ", " + machine.facts().get("cores (nproc)") + " cores, " + threads.label()
                + " threads";
        CsvWriter.write(out.resolve("results.csv"), results);
        SvgChart.write(out.resolve("chart.svg"), summaries, caption);
        MarkdownReport.write(out.resolve("results.md"), "Contention benchmark: " + database + ", "
                + threads.label() + " threads", commandLine(), reportFacts(machine),
                machine.warnings(), summaries, results);
        terminal().println("wrote " + out.resolve("results.csv") + ", " + out.resolve("results.md")
                + " and " + out.resolve("chart.svg"));
    }

    private Map<String, String> reportFacts(MachineFacts machine) {
        Map<String, String> facts = new LinkedHashMap<>(machine.facts());
        facts.putAll(runFacts());
        facts.put("date", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        facts.put("per cell", duration.toMillis() / 1000.0 + " s measured after "
                + warmup.toMillis() / 1000.0 + " s warm-up, " + rounds + " round(s)");
        facts.put("zipf seed", String.valueOf(seed));
        return facts;
    }

    /** What this run's options make of the writers: their threads and their connections. */
    private Map<String, String> runFacts() {
        Map<String, String> facts = new LinkedHashMap<>();
        facts.put("writer threads", threads.label());
        facts.put("connections", "single-row, direct and limit-N: one per writer up to " + maxConnections
                + (writers.stream().anyMatch(n -> n > maxConnections)
                        ? ", shared by the writers beyond that (--max-connections)" : "")
                + "; grouped and buffered: the flushers' only"
                + (redis == null ? "" : redisConnections == 0 ? "; redis: one per writer"
                        : "; redis: " + redisConnections + " shared by all writers"));
        return facts;
    }

    /**
     * The command as it was given, so it can be typed again: how it was invoked, then the
     * arguments, each quoted for a POSIX shell where needed.
     */
    private String commandLine() {
        CommandLine command = spec.commandLine();
        return Stream.concat(Stream.of(command.getCommandName()),
                command.getParseResult().originalArgs().stream().map(ContentionBenchmark::shellQuoted))
                .collect(Collectors.joining(" "));
    }

    /** Where progress and results go: the command line's writer, so callers can capture them. */
    private PrintWriter terminal() {
        return spec.commandLine().getOut();
    }

    private static String shellQuoted(String arg) {
        return arg.matches("[A-Za-z0-9_./:=,@%+-]+") ? arg : "'" + arg.replace("'", "'\\''") + "'";
    }

    private List<Workload> workloads() {
        return switch (workload.toLowerCase(Locale.ROOT)) {
            case "hot" -> List.of(Workload.HOT);
            case "zipf" -> List.of(Workload.ZIPF);
            case "both" -> List.of(Workload.HOT, Workload.ZIPF);
            default -> throw new ParameterException(spec.commandLine(),
                    "--workload must be hot, zipf or both, but was '" + workload + "'");
        };
    }

    private List<Strategy> strategies(HostAndPort redisServer) {
        List<Strategy> chosen = new ArrayList<>();
        for (String name : strategies) {
            switch (name) {
                case "single-row" -> chosen.add(new SingleRowUpdate(db, maxConnections));
                case "direct" -> chosen.add(slotted(WriteMode.DIRECT, 0));
                case "grouped" -> chosen.add(slotted(WriteMode.GROUPED, 0));
                case "buffered" -> chosen.add(slotted(WriteMode.BUFFERED, 0));
                case "grouped-rollup" -> chosen.add(new RollUpStrategy(db));
                case "grouped-hourly" -> chosen.add(new BucketStrategy(db));
                case "grouped-totals" -> chosen.add(new TotalsStrategy(db, false));
                case "grouped-expiring" -> chosen.add(new TotalsStrategy(db, true));
                case "grouped-limited", "grouped-at-limit" -> chosen.add(new LimitsStrategy(db,
                        name.equals("grouped-at-limit")));
                case "grouped-quota" -> chosen.add(new QuotaStrategy(db));
                case "bucket4j" -> chosen.add(new Bucket4jStrategy(db, maxConnections));
                case "ceiling" -> chosen.add(new HandOffCeiling());
                case "event", "event-joined", "event-joined-twice", "event-grouped" -> chosen.add(new EventStrategy(db,
                        EventStrategy.Counting.valueOf(name.toUpperCase(Locale.ROOT).replace('-', '_')),
                        maxConnections));
                case "redis" -> {
                    if (redisServer != null) {
                        chosen.add(new RedisIncr(redisServer, redisConnections));
                    } else {
                        terminal().println("redis skipped: no --redis HOST:PORT given");
                    }
                }
                default -> chosen.add(numbered(name));
            }
        }
        return chosen;
    }

    /**
     * {@code grouped-N}: GROUPED with N flushers instead of the default, to compare counts;
     * {@code limit-N}: the database's own limit for upserts of N rows.
     */
    private Strategy numbered(String name) {
        Matcher flushers = GROUPED_N.matcher(name);
        if (flushers.matches()) {
            return slotted(WriteMode.GROUPED, Integer.parseInt(flushers.group(1)));
        }
        Matcher rows = LIMIT_N.matcher(name);
        if (!rows.matches()) {
            throw new ParameterException(spec.commandLine(), "--strategies must be among "
                    + STRATEGIES + ", grouped-N (N flushers) or limit-N (N rows per statement),"
                    + " but included '" + name + "'");
        }
        try {
            return new MultiRowUpsert(db, Integer.parseInt(rows.group(1)), maxConnections);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(),
                    "--strategies " + name + ": " + e.getMessage());
        }
    }

    private Strategy slotted(WriteMode mode, int flushers) {
        return new SlottedStrategy(db, mode, flushers, maxConnections);
    }

    /** Virtual threads are looked up at run time: a JVM without them is a usage error, at once. */
    private void checkThreads() {
        if (!threads.available()) {
            throw new ParameterException(spec.commandLine(), "--threads " + threads.label()
                    + " needs Java " + VirtualThreads.FIRST_RELEASE + " or later; this is Java "
                    + Runtime.version() + " (" + System.getProperty("java.home") + "): start the jar"
                    + " with a newer java");
        }
    }

    private void checkCounts() {
        for (int n : writers) {
            if (n < 1 || n > 1024) {
                throw new ParameterException(spec.commandLine(),
                        "--writers must each be between 1 and 1024, but included " + n);
            }
        }
        if (rounds < 1) {
            throw new ParameterException(spec.commandLine(),
                    "--rounds must be at least 1, but was " + rounds);
        }
        if (maxConnections < 1) {
            throw new ParameterException(spec.commandLine(),
                    "--max-connections must be at least 1, but was " + maxConnections);
        }
        if (redisConnections < 0) {
            throw new ParameterException(spec.commandLine(), "--redis-connections must be 0 (one"
                    + " per writer) or more, but was " + redisConnections);
        }
    }
}
