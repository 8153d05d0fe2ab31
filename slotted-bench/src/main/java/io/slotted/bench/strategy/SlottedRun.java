package io.slotted.bench.strategy;

import com.zaxxer.hikari.HikariDataSource;
import io.slotted.SlottedCounters;
import io.slotted.SlottedStats;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;

/**
 * One cell's Slotted counters, read back through {@code getAll} as a user would.
 *
 * @param note said on the cell's line, such as how writers share connections; empty if nothing
 */
record SlottedRun(HikariDataSource pool, String table, SlottedCounters counters,
        int keySpace, boolean flushes, String note) implements Strategy.Run {

    @Override
    public Strategy.Incrementer incrementer() {
        return recordId -> counters.increment(SlottedStrategy.RECORD_TYPE, recordId);
    }

    /** {@code close()} writes everything accepted: for BUFFERED, the increments still queued. */
    @Override
    public void drain() {
        counters.close();
    }

    /** Reads after {@code close()}: reads need no writer, and the table is still there. */
    @Override
    public long[] totals() {
        List<Long> ids = LongStream.rangeClosed(1, keySpace).boxed().toList();
        Map<Long, Long> read = counters.getAll(SlottedStrategy.RECORD_TYPE, ids);
        long[] totals = new long[keySpace];
        read.forEach((id, total) -> totals[(int) (id - 1)] = total);
        return totals;
    }

    @Override
    public EngineCounts engineCounts() {
        SlottedStats stats = counters.stats();
        return new EngineCounts(flushes ? stats.flushes() : -1, stats.retries(), note);
    }

    @Override
    public void close() throws SQLException {
        try {
            counters.close();
            SlottedStrategy.dropTables(pool, table);
        } finally {
            pool.close();
        }
    }
}
