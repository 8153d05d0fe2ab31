package io.slotted.bench.strategy;

import com.zaxxer.hikari.HikariDataSource;
import io.slotted.SlottedCounters;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Locale;

/**
 * Counting an application's own event — a download recorded as a row — three ways, to show what
 * counting inside the event's transaction costs (the Spring Boot starter's
 * {@code slotted.join-transactions}):
 *
 * <ul>
 *   <li>{@code event}: the event's transaction alone, {@code INSERT} and {@code COMMIT}, counting
 *       nothing: what every other way adds to;</li>
 *   <li>{@code event-joined}: the {@code INSERT} and {@code add(connection, …)} in one transaction,
 *       so the count lands or rolls back with the row; the slot row's lock is held until the
 *       commit;</li>
 *   <li>{@code event-joined-twice}: as {@code event-joined}, with the event's counter added to
 *       twice in its transaction ({@code +2}, then {@code -1}, so each event still counts one), as
 *       a transaction recording several events of one counter does: the second increment must
 *       not lock a second slot row while holding the first, or two such transactions
 *       deadlock;</li>
 *   <li>{@code event-grouped}: the event's transaction, then {@code increment} in {@code GROUPED}
 *       mode, which waits for a group commit shared with other writers: two durable commits per
 *       event, not atomic together.</li>
 * </ul>
 *
 * <p>Each writer holds its own connection for its events, as an application's request thread holds
 * one for its transaction, so the writers are capped at the connection cap. The counters have the
 * defaults a user gets: 16 slots, 2 flushers.
 */
public final class EventStrategy implements Strategy {
    /** The three ways, each named as on the command line. */
    public enum Counting {
        /** The event's transaction alone. */
        EVENT,
        /** The increment in the event's transaction. */
        EVENT_JOINED,
        /** Two increments of the event's counter in its transaction, adding up to one. */
        EVENT_JOINED_TWICE,
        /** The increment after the event's commit, through group commit. */
        EVENT_GROUPED
    }

    private final String url;
    private final Counting counting;
    private final int maxConnections;

    /**
     * Creates the strategy.
     *
     * @param url the JDBC URL of the database to write
     * @param counting how each event is counted
     * @param maxConnections the most writers, each with a connection of its own
     */
    public EventStrategy(String url, Counting counting, int maxConnections) {
        this.url = url;
        this.counting = counting;
        this.maxConnections = BenchPool.checkMaxConnections(maxConnections);
    }

    @Override
    public String name() {
        return counting.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    @Override
    public Run open(String cell, int writers, int keySpace) {
        if (writers > maxConnections) {
            throw new IllegalArgumentException(name() + " gives each writer a connection of its own:"
                    + " at most --max-connections (" + maxConnections + ") writers, but " + writers
                    + " were asked for");
        }
        String table = "bench_" + name().replace('-', '_') + "_" + cell;
        HikariDataSource pool = BenchPool.open(url, writers + SlottedStrategy.DEFAULT_FLUSHERS + BenchPool.SPARE,
                "bench-" + cell);
        try {
            SlottedStrategy.dropTables(pool, table);
            BenchPool.execute(pool, "DROP TABLE IF EXISTS " + table + "_events",
                    "CREATE TABLE " + table + "_events (id " + autoIncrement(url)
                            + " PRIMARY KEY, record_id BIGINT NOT NULL)");
            SlottedCounters counters = SlottedCounters.builder(pool).table(table).build();
            counters.migrate();
            return new EventRun(pool, table, counters, keySpace);
        } catch (Exception e) {
            pool.close();
            throw new IllegalStateException("could not prepare table " + table + ": " + e.getMessage(), e);
        }
    }

    private static String autoIncrement(String url) {
        return url.startsWith("jdbc:postgresql:") ? "BIGSERIAL" : "BIGINT AUTO_INCREMENT";
    }

    /** One cell's events table and counters. */
    private final class EventRun implements Run {
        private final HikariDataSource pool;
        private final String table;
        private final SlottedCounters counters;
        private final SlottedRun readBack;

        EventRun(HikariDataSource pool, String table, SlottedCounters counters, int keySpace) {
            this.pool = pool;
            this.table = table;
            this.counters = counters;
            this.readBack = new SlottedRun(pool, table, counters, keySpace, counting == Counting.EVENT_GROUPED, "");
        }

        @Override
        public Incrementer incrementer() throws SQLException {
            return new EventWriter(pool.getConnection(), table, counters, counting);
        }

        /** For {@code event}, the events themselves; otherwise the counters. */
        @Override
        public long[] totals() throws SQLException {
            if (counting != Counting.EVENT) {
                return readBack.totals();
            }
            return BenchPool.totals(pool, readBack.keySpace(),
                    "SELECT record_id, COUNT(*) FROM " + table + "_events GROUP BY record_id");
        }

        @Override
        public EngineCounts engineCounts() {
            return readBack.engineCounts();
        }

        @Override
        public void close() throws SQLException {
            try {
                BenchPool.execute(pool, "DROP TABLE IF EXISTS " + table + "_events");
            } finally {
                readBack.close();
            }
        }
    }

    /** A writer's own connection, in a transaction per event. */
    private static final class EventWriter implements Incrementer {
        private final Connection connection;
        private final PreparedStatement insert;
        private final SlottedCounters counters;
        private final Counting counting;

        EventWriter(Connection connection, String table, SlottedCounters counters, Counting counting)
                throws SQLException {
            this.connection = connection;
            this.counters = counters;
            this.counting = counting;
            try {
                connection.setAutoCommit(false);
                this.insert = connection.prepareStatement("INSERT INTO " + table + "_events (record_id) VALUES (?)");
            } catch (SQLException e) {
                connection.close();
                throw e;
            }
        }

        @Override
        public void increment(long recordId) throws SQLException {
            try {
                insert.setLong(1, recordId);
                insert.executeUpdate();
                if (counting == Counting.EVENT_JOINED) {
                    counters.add(connection, SlottedStrategy.RECORD_TYPE, recordId, 1);
                } else if (counting == Counting.EVENT_JOINED_TWICE) {
                    counters.add(connection, SlottedStrategy.RECORD_TYPE, recordId, 2);
                    counters.add(connection, SlottedStrategy.RECORD_TYPE, recordId, -1);
                }
                connection.commit();
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
            if (counting == Counting.EVENT_GROUPED) {
                counters.increment(SlottedStrategy.RECORD_TYPE, recordId);
            }
        }

        @Override
        public void close() throws SQLException {
            connection.close();
        }
    }
}
