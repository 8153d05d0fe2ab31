package io.slotted.server;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.pool.HikariPool;
import io.micrometer.core.instrument.MeterRegistry;
import io.slotted.DatabaseUnavailableException;
import io.slotted.SlottedCounters;
import io.slotted.SlottedCountersBuilder;
import io.slotted.WriteMode;

/**
 * One database opened for the command line or the service: a HikariCP pool and the
 * {@link SlottedCounters} that write through it. Closing it drains the counters first, then closes
 * the pool, so nothing accepted is lost on the way out.
 */
public final class Database implements AutoCloseable {
    /** How long a request waits for a pooled connection before the database counts as down. */
    static final long CONNECTION_TIMEOUT_MILLIS = 5_000;

    private final DatabaseSettings settings;
    private final HikariDataSource pool;
    private final SlottedCounters counters;

    private Database(DatabaseSettings settings, HikariDataSource pool, SlottedCounters counters) {
        this.settings = settings;
        this.pool = pool;
        this.counters = counters;
    }

    /**
     * Opens the pool and builds the counters. The pool makes its first connection at once, so an
     * unreachable database is reported here, by name.
     *
     * @param settings where the database is
     * @param counters the counter table and write settings
     * @param poolSize the most connections to hold
     * @param registry where the pool reports its metrics, or null for none
     * @return the open database
     * @throws CommandFailure if the database cannot be reached
     */
    public static Database open(DatabaseSettings settings, CounterSettings counters, int poolSize,
            MeterRegistry registry) {
        HikariDataSource pool = openPool(settings, poolSize, registry);
        try {
            return new Database(settings, pool, counters.applyTo(SlottedCounters.builder(pool)).build());
        } catch (RuntimeException e) {
            pool.close();
            throw e;
        }
    }

    private static HikariDataSource openPool(DatabaseSettings settings, int poolSize,
            MeterRegistry registry) {
        HikariConfig config = new HikariConfig();
        config.setPoolName("slotted");
        config.setJdbcUrl(settings.jdbcUrl());
        config.setUsername(settings.user());
        config.setPassword(settings.password());
        config.setMaximumPoolSize(poolSize);
        config.setConnectionTimeout(CONNECTION_TIMEOUT_MILLIS);
        if (registry != null) {
            config.setMetricRegistry(registry);
        }
        try {
            return new HikariDataSource(config);
        } catch (HikariPool.PoolInitializationException e) {
            throw unreachable(settings, e);
        } catch (RuntimeException e) {
            // The driver rejected the URL itself, before any connection was tried.
            throw new CommandFailure("cannot use the database URL " + settings.describe() + ": "
                    + FailureMessage.rootMessage(e), e);
        }
    }

    /**
     * The counters, migrated or not as the caller decides.
     *
     * @return the counters
     */
    public SlottedCounters counters() {
        return counters;
    }

    /**
     * The pool, for readiness checks.
     *
     * @return the pool
     */
    public HikariDataSource pool() {
        return pool;
    }

    /**
     * Where the database is, safe to print.
     *
     * @return the URL with any password masked
     */
    public String describe() {
        return settings.describe();
    }

    /**
     * Restates a failure of this database for the command line: an unreachable database is named,
     * with the driver's reason.
     *
     * @param e what a call on the counters threw
     * @return a failure whose message names the database and the cause
     */
    public CommandFailure explain(RuntimeException e) {
        if (e instanceof DatabaseUnavailableException) {
            return unreachable(settings, e);
        }
        return new CommandFailure("the database at " + settings.describe() + " failed: "
                + FailureMessage.of(e), e);
    }

    private static CommandFailure unreachable(DatabaseSettings settings, Exception e) {
        return new CommandFailure("cannot reach the database at " + settings.describe() + ": "
                + FailureMessage.rootMessage(e), e);
    }

    /** Drains the counters, then closes the pool. */
    @Override
    public void close() {
        try {
            counters.close();
        } finally {
            pool.close();
        }
    }

    /**
     * How the counters are configured beyond the database: the table, the write mode, the slots.
     *
     * @param table the counter table
     * @param mode how increments are written
     * @param slots slots per counter, or null for the write mode's default
     */
    public record CounterSettings(String table, WriteMode mode, Integer slots) {
        /** The defaults: table {@code slotted_counters}, {@code GROUPED}, the mode's slots. */
        public static final CounterSettings DEFAULTS =
                new CounterSettings("slotted_counters", WriteMode.GROUPED, null);

        /**
         * Checks the values at once, so a bad {@code --slots} is a usage error.
         *
         * @throws UsageException if {@code slots} is out of range
         */
        public CounterSettings {
            if (slots != null && (slots < 1 || slots > SlottedCountersBuilder.MAX_SLOTS)) {
                throw new UsageException("--slots must be between 1 and "
                        + SlottedCountersBuilder.MAX_SLOTS + ", but was " + slots);
            }
        }

        SlottedCountersBuilder applyTo(SlottedCountersBuilder builder) {
            builder.table(table).writeMode(mode);
            return slots == null ? builder : builder.slots(slots);
        }
    }
}
