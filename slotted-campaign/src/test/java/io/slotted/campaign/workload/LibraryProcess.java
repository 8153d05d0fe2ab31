package io.slotted.campaign.workload;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.slotted.BucketUnit;
import io.slotted.Limits;
import io.slotted.SlottedCounters;
import io.slotted.SlottedCountersBuilder;
import io.slotted.WriteMode;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One library instance standing for one application process: its own pool, through the fault
 * proxy, and its own {@link SlottedCounters} in {@code GROUPED}, {@code DIRECT} or {@code BUFFERED} mode,
 * rolling up the types bound to an owner column in the background as an application process does. It can be closed while its
 * flushes are under way and opened again, as a process is redeployed, or crash: its pool is shut
 * under it, cutting the statements on the wire, as a process that dies does.
 *
 * <p>The pool's connections carry a socket timeout, as an operator's should: a paused or silent
 * server then fails a statement within bounded time, and the engine retries or resolves it,
 * instead of a caller waiting for ever.
 */
public final class LibraryProcess implements AutoCloseable {
    private static final AtomicInteger POOLS = new AtomicInteger();
    /** Often, so that roll-ups run into the workload's increments, sets and faults all the time. */
    private static final Duration ROLL_UP_EVERY = Duration.ofMillis(200);

    private final String name;
    private final String jdbcUrl;
    private final String table;
    private final WriteMode mode;
    private final boolean rollsUp;
    private volatile HikariDataSource pool;
    private volatile SlottedCounters counters;

    /**
     * @param name the process's name in the history
     * @param jdbcUrl the database through the fault proxy, with the driver's socket timeout
     * @param table the counter table
     * @param mode {@code GROUPED}, as every front end runs, {@code DIRECT}, or {@code BUFFERED}, whose
     *     process is given no limits (the mode takes none) and so must not sell stock
     */
    public LibraryProcess(String name, String jdbcUrl, String table, WriteMode mode) {
        this(name, jdbcUrl, table, mode, true);
    }

    /**
     * @param rollsUp false for a process that rolls nothing up in the background, so that the
     *     only commits on its connections are its callers' (the releasing process's)
     */
    public LibraryProcess(String name, String jdbcUrl, String table, WriteMode mode, boolean rollsUp) {
        this.name = name;
        this.jdbcUrl = jdbcUrl;
        this.table = table;
        this.mode = mode;
        this.rollsUp = rollsUp;
        open();
    }

    /** The campaign's counters, as each process builds them: the same types and limits everywhere. */
    public static SlottedCounters countersOn(javax.sql.DataSource dataSource, String table) {
        return countersOn(dataSource, table, WriteMode.GROUPED, true);
    }

    private static SlottedCounters countersOn(javax.sql.DataSource dataSource, String table, WriteMode mode,
            boolean rollsUp) {
        SlottedCountersBuilder builder = SlottedCounters.builder(dataSource).table(table).writeMode(mode).flushers(2)
                .buckets(CampaignTypes.BUCKETED, BucketUnit.MINUTE, Duration.ofDays(2))
                .expiring(CampaignTypes.EXPIRING);
        if (mode != WriteMode.BUFFERED) {
            builder.limits(CampaignTypes.STOCK, Limits.atLeast(0)).limits(CampaignTypes.QUOTA, CampaignTypes.QUOTA_LIMITS);
        }
        if (rollsUp) {
            builder.rollUpEvery(ROLL_UP_EVERY);
        }
        return builder
                .retryBackoff(Duration.ofMillis(20)).outcomeResolutionTimeout(Duration.ofSeconds(20))
                .build();
    }

    public String name() {
        return name;
    }

    /** Whether this process may sell stock or charge a quota: it keeps their limits ({@code BUFFERED} takes none). */
    public boolean keepsLimits() {
        return mode != WriteMode.BUFFERED;
    }

    /** The pool as it is now, for work in the caller's own transactions. */
    public javax.sql.DataSource dataSource() {
        return pool;
    }

    /** The counters as they are now; after a crash or close, the ones opened again. */
    public SlottedCounters counters() {
        return counters;
    }

    private void open() {
        HikariConfig config = new HikariConfig();
        config.setPoolName(name + "-" + POOLS.incrementAndGet());
        config.setJdbcUrl(jdbcUrl);
        config.setMaximumPoolSize(8);
        config.setMinimumIdle(2);
        config.setConnectionTimeout(3_000);
        config.setValidationTimeout(2_000);
        config.setInitializationFailTimeout(-1);
        pool = new HikariDataSource(config);
        counters = countersOn(pool, table, mode, rollsUp);
    }

    /**
     * Closes the counters while their flushes may be under way, then opens new ones: what was
     * accepted is written before the close returns.
     */
    public void closeAndReopen() {
        SlottedCounters old = counters;
        HikariDataSource oldPool = pool;
        open();
        old.close();
        oldPool.close();
    }

    /**
     * Shuts the pool under the counters, cutting what is on the wire, then closes them and opens
     * new ones: a process that died and was started again.
     */
    public void crashAndRestart() {
        SlottedCounters old = counters;
        HikariDataSource oldPool = pool;
        open();
        oldPool.close();
        old.close();
    }

    @Override
    public void close() {
        counters.close();
        pool.close();
    }
}
