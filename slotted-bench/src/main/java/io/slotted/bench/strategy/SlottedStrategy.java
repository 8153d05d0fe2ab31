package io.slotted.bench.strategy;

import com.zaxxer.hikari.HikariDataSource;
import io.slotted.SlottedCounters;
import io.slotted.SlottedCountersBuilder;
import io.slotted.SlottedStats;
import io.slotted.WriteMode;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.LongStream;

/**
 * Slotted in one write mode, through its public API only, with the defaults a user gets: 100 slots
 * for {@code DIRECT}; 16 slots and 2 flushers for {@code GROUPED} and {@code BUFFERED}.
 *
 * <p>Slotted borrows a pool connection per write (or per flush), so writers hold nothing between
 * increments. In {@code DIRECT} mode each writer borrows one for each increment, so the pool has
 * one per writer up to the connection cap, and writers beyond it wait their turn; in the queued
 * modes only the flushers write, so the pool holds their connections and a few spare whatever the
 * writer count. Every cell gets a fresh table made by {@code migrate()}, and is read back through
 * {@code getAll}, which is what a user would call.
 */
public final class SlottedStrategy implements Strategy {
    /** The record type every benchmark counter uses, and the single-row table too. */
    public static final int RECORD_TYPE = 1;
    /**
     * Slotted's default flusher count ({@code SlottedCountersBuilder}'s default, which has no
     * public constant; a test checks the two agree): reserved in the pool for GROUPED and BUFFERED,
     * and the ceiling's consumer count.
     */
    public static final int DEFAULT_FLUSHERS = 2;
    /** The cap on writer connections when none is given: well under MariaDB's default of 151. */
    public static final int DEFAULT_MAX_CONNECTIONS = 64;
    /**
     * The tables {@code migrate()} makes beside the counter table (the flush ledger, the
     * idempotency keys, the registry, the time buckets), named by suffix in slotted-core's internal
     * {@code SchemaMigrator}.
     */
    private static final List<String> COMPANION_SUFFIXES = List.of("_ledger", "_keys", "_types", "_buckets", "_names",
            "_expiry", "_schema");

    private final String url;
    private final WriteMode mode;
    private final int flushers;
    private final int maxConnections;

    /**
     * Creates the strategy.
     *
     * @param url the JDBC URL of the database to write
     * @param mode the write mode to measure
     * @param flushers the flusher count, or 0 for the default; named in the strategy's name
     * @param maxConnections the most connections writers get in {@code DIRECT} mode, shared when
     *     they are more
     * @throws IllegalArgumentException if {@code maxConnections} is less than 1
     */
    public SlottedStrategy(String url, WriteMode mode, int flushers, int maxConnections) {
        this.url = url;
        this.mode = mode;
        this.flushers = flushers;
        this.maxConnections = BenchPool.checkMaxConnections(maxConnections);
    }

    @Override
    public String name() {
        String name = mode.name().toLowerCase(Locale.ROOT);
        return flushers == 0 ? name : name + "-" + flushers;
    }

    @Override
    public Run open(String cell, int writers, int keySpace) {
        String table = "bench_" + name().replace('-', '_') + "_" + cell;
        boolean direct = mode == WriteMode.DIRECT;
        int connections = direct ? BenchPool.writerConnections(writers, maxConnections)
                : flushers > 0 ? flushers : DEFAULT_FLUSHERS;
        HikariDataSource pool = BenchPool.open(url, connections + BenchPool.SPARE, "bench-" + cell);
        try {
            dropTables(pool, table);
            SlottedCounters counters = builder(pool, table).build();
            counters.migrate();
            return new SlottedRun(pool, table, counters, keySpace, !direct,
                    direct ? BenchPool.sharingNote(writers, maxConnections) : "");
        } catch (Exception e) {
            pool.close();
            throw new IllegalStateException("could not prepare table " + table + ": " + e.getMessage(), e);
        }
    }

    /** The counter table and its companions, so that no cell leaves tables behind. */
    static void dropTables(HikariDataSource pool, String table) throws SQLException {
        List<String> drops = new ArrayList<>();
        drops.add("DROP TABLE IF EXISTS " + table);
        COMPANION_SUFFIXES.forEach(suffix -> drops.add("DROP TABLE IF EXISTS " + table + suffix));
        BenchPool.execute(pool, drops.toArray(String[]::new));
    }

    private SlottedCountersBuilder builder(HikariDataSource pool, String table) {
        SlottedCountersBuilder builder = SlottedCounters.builder(pool).table(table).writeMode(mode);
        if (mode == WriteMode.DIRECT) {
            builder.slots(100);
        }
        if (flushers > 0) {
            builder.flushers(flushers);
        }
        return builder;
    }
}
