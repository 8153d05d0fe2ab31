package io.slotted.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.slotted.BucketCount;
import io.slotted.BucketUnit;
import io.slotted.Increment;
import io.slotted.RankedCounter;
import io.slotted.SlottedCounters;
import java.io.PrintStream;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * How fast time buckets are read back: {@code top} of the last 24 hourly buckets over 100,000
 * active counters, and {@code series} of one counter over 30 days of hours.
 *
 * <pre>{@code
 * java -cp slotted-bench/target/slotted-bench.jar io.slotted.bench.BucketReadBenchmark \
 *     --db 'jdbc:mariadb://127.0.0.1:3306/test?user=root'
 * }</pre>
 *
 * <p>The data is written through the library with a clock the benchmark moves an hour at a time:
 * first 696 hours of light history (counters 1 to 100, one increment each per hour), so that a
 * series spans 30 days of rows; then 24 hours in which {@code --per-hour} increments drawn from the
 * Zipf workload (s = 1.1 over 100,000 counters) arrive in batches of 2,000 from 4 writers, plus one
 * increment for each counter whose id falls to that hour, so that every one of the 100,000 counters
 * is active in the window. Batches pick slots at random, so a hot counter's hour holds many slot
 * rows until the background keeper folds the closed hour. The clock then moves past the last hour;
 * the benchmark waits until every hour is folded, checks both reads against its own counts, and
 * times each read {@code --runs} times after 3 untimed ones.
 */
@Command(name = "bucket-read-benchmark", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Times top-N and series reads of hourly buckets.")
public final class BucketReadBenchmark implements Callable<Integer> {
    private static final int TYPE = 1;
    private static final int COUNTERS = Workload.ZIPF.keySpace();
    private static final int HISTORY_HOURS = 30 * 24 - 24;
    private static final int WINDOW_HOURS = 24;
    private static final int BATCH = 2_000;
    private static final int WRITERS = 4;
    private static final Instant START = Instant.parse("2026-10-01T00:00:00Z");
    private static final String TABLE = "bench_bucket_reads";

    @Option(names = "--db", paramLabel = "JDBC_URL", description = "Database (default: ${DEFAULT-VALUE}).")
    private String db = "jdbc:mariadb://127.0.0.1:3306/test?user=root";

    @Option(names = "--per-hour", paramLabel = "N", description = "Zipf increments per hour (default: ${DEFAULT-VALUE}).")
    private int perHour = 200_000;

    @Option(names = "--runs", paramLabel = "N", description = "Timed runs of each read (default: ${DEFAULT-VALUE}).")
    private int runs = 20;

    @Option(names = "--seed", paramLabel = "N", description = "Seed of the Zipf draws (default: ${DEFAULT-VALUE}).")
    private long seed = 20261125L;

    private final MovableClock clock = new MovableClock(START);
    private final PrintStream out = System.out;

    /**
     * Runs the benchmark.
     *
     * @param args the options
     */
    public static void main(String[] args) {
        System.exit(new CommandLine(new BucketReadBenchmark()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        MachineFacts machine = MachineFacts.collect(db, null);
        try (HikariDataSource pool = pool()) {
            drop(pool);
            try (SlottedCounters counters = SlottedCounters.builder(pool).table(TABLE).clock(clock)
                    .buckets(TYPE, BucketUnit.HOUR, Duration.ofDays(30)).build()) {
                counters.migrate();
                long[] windowCounts = fill(counters);
                clock.set(START.plus(Duration.ofHours(HISTORY_HOURS + WINDOW_HOURS)).plusSeconds(60));
                Instant now = clock.instant();
                awaitFolded(pool, now);
                boolean exact = measure(counters, pool, windowCounts, now);
                printFacts(machine);
                return exact ? 0 : 1;
            } finally {
                drop(pool);
            }
        }
    }

    /** Writes the history and the 24 hours of the window; answers each counter's count in the window. */
    private long[] fill(SlottedCounters counters) throws Exception {
        long started = System.nanoTime();
        for (int hour = 0; hour < HISTORY_HOURS; hour++) {
            clock.set(START.plus(Duration.ofHours(hour)));
            List<Increment> light = new ArrayList<>(100);
            for (long id = 1; id <= 100; id++) {
                light.add(new Increment(TYPE, id, 1));
            }
            counters.addAll(light);
        }
        long[] windowCounts = new long[COUNTERS + 1];
        for (int hour = 0; hour < WINDOW_HOURS; hour++) {
            clock.set(START.plus(Duration.ofHours(HISTORY_HOURS + hour)));
            writeHour(counters, hour, windowCounts);
        }
        out.printf(Locale.ROOT, "written: %d hours of history, %d hours of %d Zipf increments (+ %d once each)"
                        + " in %.0f s%n", HISTORY_HOURS, WINDOW_HOURS, perHour, COUNTERS,
                (System.nanoTime() - started) / 1e9);
        return windowCounts;
    }

    private void writeHour(SlottedCounters counters, int hour, long[] windowCounts) throws Exception {
        ExecutorService writers = Executors.newFixedThreadPool(WRITERS);
        try {
            List<Future<long[]>> done = new ArrayList<>();
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                done.add(writers.submit(() -> writeShare(counters, hour, writer)));
            }
            for (Future<long[]> share : done) {
                long[] counts = share.get();
                for (int id = 1; id <= COUNTERS; id++) {
                    windowCounts[id] += counts[id];
                }
            }
        } finally {
            writers.shutdownNow();
        }
    }

    /** One writer's share of an hour: its Zipf draws and every counter whose id it is given. */
    private long[] writeShare(SlottedCounters counters, int hour, int writer) {
        long[] counts = new long[COUNTERS + 1];
        LongSupplier zipf = Workload.ZIPF.recordIds(seed + hour, writer);
        List<Increment> batch = new ArrayList<>(BATCH);
        for (long id = 1 + hour * WRITERS + writer; id <= COUNTERS; id += WINDOW_HOURS * WRITERS) {
            batch.add(new Increment(TYPE, id, 1));
        }
        for (int i = 0; i < perHour / WRITERS; i++) {
            batch.add(new Increment(TYPE, zipf.getAsLong(), 1));
            if (batch.size() >= BATCH) {
                addAll(counters, batch, counts);
            }
        }
        addAll(counters, batch, counts);
        return counts;
    }

    private static void addAll(SlottedCounters counters, List<Increment> batch, long[] counts) {
        if (batch.isEmpty()) {
            return;
        }
        counters.addAll(batch);
        batch.forEach(increment -> counts[(int) increment.recordId()] += increment.delta());
        batch.clear();
    }

    /** Waits until the keeper has folded every closed hour of the window. */
    private void awaitFolded(HikariDataSource pool, Instant now) throws Exception {
        String spread = "SELECT COUNT(*) FROM (SELECT bucket_start, record_id FROM " + TABLE + "_buckets"
                + " WHERE record_type = " + TYPE + " AND bucket_start >= "
                + now.minus(Duration.ofHours(WINDOW_HOURS + 1)).getEpochSecond()
                + " GROUP BY bucket_start, record_id HAVING COUNT(*) > 1) spread";
        // A flush writes an hour's increments as pending rows of the counter table, which the keeper
        // moves into the bucket table once the hour has closed (docs/time-buckets.md, "Storage").
        String pending = "SELECT COUNT(*) FROM " + TABLE + " WHERE record_type = " + TYPE + " AND slot <= "
                + -(1 << 20);
        long pendingBefore = queryLong(pool, pending);
        long before = queryLong(pool, spread);
        long waitStart = System.nanoTime();
        while (queryLong(pool, pending) > 0 || queryLong(pool, spread) > 0) {
            if (System.nanoTime() - waitStart > Duration.ofMinutes(5).toNanos()) {
                throw new IllegalStateException("the window's hours were not moved and folded within 5 minutes");
            }
            Thread.sleep(500);
        }
        out.printf(Locale.ROOT, "folded: %d pending rows and %d counter-hours spread over several slots when the"
                + " clock moved past the window, none %.0f s later%n", pendingBefore, before,
                (System.nanoTime() - waitStart) / 1e9);
    }

    private boolean measure(SlottedCounters counters, HikariDataSource pool, long[] windowCounts, Instant now)
            throws SQLException {
        Instant dayAgo = now.minus(Duration.ofHours(WINDOW_HOURS));
        long rows = queryLong(pool, "SELECT COUNT(*) FROM " + TABLE + "_buckets WHERE record_type = " + TYPE
                + " AND bucket_start >= " + now.truncatedTo(java.time.temporal.ChronoUnit.HOURS)
                        .minus(Duration.ofHours(WINDOW_HOURS)).getEpochSecond());
        long active = Arrays.stream(windowCounts).filter(count -> count > 0).count();
        List<RankedCounter> expectedTop = expectedTop(windowCounts, 10);
        String plainTop = "SELECT record_id, SUM(count) AS total FROM " + TABLE + "_buckets WHERE record_type = "
                + TYPE + " AND bucket_start >= " + now.truncatedTo(java.time.temporal.ChronoUnit.HOURS)
                        .minus(Duration.ofHours(WINDOW_HOURS)).getEpochSecond() + " AND bucket_start < "
                + (now.truncatedTo(java.time.temporal.ChronoUnit.HOURS).getEpochSecond() + 3600)
                + " GROUP BY record_id HAVING SUM(count) <> 0 ORDER BY total DESC, record_id LIMIT 10";
        Timing[] tops = timeAlternately(() -> counters.timeSeries().top(TYPE, dayAgo, now, 10), () -> topBySql(pool, plainTop));
        Timing top = tops[0];
        boolean topExact = top.answer().equals(expectedTop) && tops[1].answer().equals(expectedTop);
        Instant monthAgo = now.minus(Duration.ofDays(30));
        Timing hot = time(() -> counters.timeSeries().series(TYPE, 1L, monthAgo, now));
        Timing cold = time(() -> counters.timeSeries().series(TYPE, COUNTERS, monthAgo, now));
        long hotTotal = counters.get(TYPE, 1L);
        boolean seriesExact = sum(hot.answer()) == hotTotal && sum(cold.answer()) == counters.get(TYPE, COUNTERS);

        out.println();
        out.printf(Locale.ROOT, "window: %d counters active in the last %d hours, %d bucket rows%n", active,
                WINDOW_HOURS, rows);
        out.println("| read | p50 | p95 | max | runs | answer checked |");
        out.println("|---|---|---|---|---|---|");
        out.println(top.row("top 10 of the last 24 hourly buckets", topExact));
        out.println(tops[1].row("the same query as plain SQL, without the dialect's hint (JDBC, for comparison)",
                topExact));
        out.println(hot.row("series of counter 1 (the hottest), 30 days of hours (" + hot.size() + " buckets)",
                seriesExact));
        out.println(cold.row("series of counter " + COUNTERS + " (the coldest), 30 days of hours", seriesExact));
        out.println();
        out.println("top 10: " + top.answer());
        return topExact && seriesExact && active == COUNTERS;
    }

    private static long sum(Object series) {
        return ((List<?>) series).stream().mapToLong(b -> ((BucketCount) b).count()).sum();
    }

    private static List<RankedCounter> expectedTop(long[] counts, int n) {
        List<RankedCounter> all = new ArrayList<>();
        for (int id = 1; id < counts.length; id++) {
            if (counts[id] != 0) {
                all.add(new RankedCounter(id, counts[id]));
            }
        }
        all.sort(Comparator.comparingLong(RankedCounter::count).reversed().thenComparingLong(RankedCounter::recordId));
        return all.subList(0, Math.min(n, all.size()));
    }

    /** Times two reads of the same answer, one run of each in turn, so that drift falls on both. */
    private Timing[] timeAlternately(Supplier<List<?>> first, Supplier<List<?>> second) {
        for (int i = 0; i < 3; i++) {
            first.get();
            second.get();
        }
        long[][] nanos = new long[2][runs];
        List<?>[] answers = new List<?>[2];
        for (int i = 0; i < runs; i++) {
            for (int which = 0; which < 2; which++) {
                long started = System.nanoTime();
                answers[which] = (which == 0 ? first : second).get();
                nanos[which][i] = System.nanoTime() - started;
            }
        }
        Arrays.sort(nanos[0]);
        Arrays.sort(nanos[1]);
        return new Timing[] {new Timing(nanos[0], answers[0]), new Timing(nanos[1], answers[1])};
    }

    private static List<?> topBySql(HikariDataSource pool, String sql) {
        List<RankedCounter> top = new ArrayList<>();
        try (Connection connection = pool.getConnection();
                PreparedStatement select = connection.prepareStatement(sql);
                ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                top.add(new RankedCounter(rows.getLong(1), rows.getLong(2)));
            }
        } catch (SQLException e) {
            throw new IllegalStateException(sql, e);
        }
        return top;
    }

    private Timing time(Supplier<List<?>> read) {
        for (int i = 0; i < 3; i++) {
            read.get();
        }
        long[] nanos = new long[runs];
        List<?> answer = null;
        for (int i = 0; i < runs; i++) {
            long started = System.nanoTime();
            answer = read.get();
            nanos[i] = System.nanoTime() - started;
        }
        Arrays.sort(nanos);
        return new Timing(nanos, answer);
    }

    /** One read's timed runs, sorted, and its last answer. */
    private record Timing(long[] nanos, List<?> answer) {
        String row(String read, boolean checked) {
            return String.format(Locale.ROOT, "| %s | %s | %s | %s | %d | %s |", read, millis(0.50), millis(0.95),
                    millis(1.0), nanos.length, checked ? "exact" : "WRONG");
        }

        int size() {
            return answer.size();
        }

        private String millis(double q) {
            int at = Math.min(nanos.length - 1, (int) Math.ceil(q * nanos.length) - 1);
            return String.format(Locale.ROOT, "%.1f ms", nanos[at] / 1e6);
        }
    }

    private void printFacts(MachineFacts machine) {
        out.println();
        out.println("| fact | value |");
        out.println("|---|---|");
        machine.facts().forEach((label, value) -> out.println("| " + label + " | " + value + " |"));
        machine.warnings().forEach(warning -> out.println("warning: " + warning));
    }

    private HikariDataSource pool() {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(db);
        config.setMaximumPoolSize(WRITERS + 4);
        config.setPoolName("bucket-reads");
        return new HikariDataSource(config);
    }

    private static void drop(HikariDataSource pool) throws SQLException {
        try (Connection connection = pool.getConnection(); Statement statement = connection.createStatement()) {
            for (String suffix : List.of("", "_ledger", "_keys", "_types", "_buckets")) {
                statement.execute("DROP TABLE IF EXISTS " + TABLE + suffix);
            }
        }
    }

    private static long queryLong(HikariDataSource pool, String sql) throws SQLException {
        try (Connection connection = pool.getConnection();
                PreparedStatement select = connection.prepareStatement(sql);
                ResultSet rows = select.executeQuery()) {
            rows.next();
            return rows.getLong(1);
        }
    }

    /** The benchmark's clock, moved an hour at a time while the data is written. */
    private static final class MovableClock extends Clock {
        private final AtomicLong millis;

        MovableClock(Instant start) {
            this.millis = new AtomicLong(start.toEpochMilli());
        }

        void set(Instant instant) {
            millis.set(instant.toEpochMilli());
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException("the benchmark's clock is UTC");
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis.get());
        }
    }
}
