package io.slotted.bench.strategy.plain;

import io.slotted.bench.strategy.Strategy;
import io.slotted.bench.strategy.Writers;
import io.slotted.db.TestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code limit-N}, the database's own limit, on every database server: each call upserts N
 * distinct rows in one auto-commit statement, every row one increment, and every counter's total
 * is exact however often a call names it, with writers on their own connections or sharing a few.
 */
@ParameterizedClass(name = "[{arguments}]")
@MethodSource("io.slotted.db.TestDatabases#servers")
class MultiRowUpsertSuite {
    private static final long SEED = 42;
    private final TestDatabase db;

    MultiRowUpsertSuite(TestDatabase db) {
        this.db = db;
    }

    private static String cell() {
        return "t" + UUID.randomUUID().toString().substring(0, 8);
    }

    private MultiRowUpsert limit(int rows, int maxConnections) {
        return new MultiRowUpsert(db.jdbcUrl(), rows, maxConnections);
    }

    /** 32 draws over 20 counters: every call names some counters more than once. */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {7, 42})
    void limit32_8WritersOver20Counters_everyRowIsAnIncrementAndTotalsAreExact(long seed)
            throws Exception {
        try (Strategy.Run run = limit(32, 64).open(cell(), 8, 20)) {
            long[] expected = Writers.incrementAndDrain(run, 8, 40, 20, seed);

            assertThat(IntStream.range(0, 20).mapToLong(i -> expected[i]).sum())
                    .as("8 writers x 40 calls x 32 increments").isEqualTo(8 * 40 * 32);
            assertThat(run.totals()).as("seed %d", seed).containsExactly(expected);
        }
    }

    @Test
    void limit32_oneHotCounter_eachWriterUpsertsItsOwn32RowsOfIt() throws Exception {
        String cell = cell();
        try (Strategy.Run run = limit(32, 64).open(cell, 8, 1)) {
            Writers.incrementAndDrain(run, 8, 50, 1, SEED);

            assertThat(run.totals()).containsExactly(8 * 50 * 32L);
            Map<Integer, Long> everyPart = IntStream.range(0, 8 * 32).boxed()
                    .collect(Collectors.toMap(part -> part, part -> 50L));
            assertThat(partsOfCounter1("bench_limit_32_" + cell)).isEqualTo(everyPart);
        }
    }

    @Test
    void limit32_12WritersOn3Connections_totalsAreExactAndTheLineSaysTheyShare() throws Exception {
        try (Strategy.Run run = limit(32, 3).open(cell(), 12, 50)) {
            long[] expected = Writers.incrementAndDrain(run, 12, 20, 50, SEED);

            assertThat(run.totals()).containsExactly(expected);
            assertThat(run.engineCounts().note()).isEqualTo("12 writers share 3 connections");
        }
    }

    @Test
    void limit32_singleIncrements_eachAddOneRow() throws Exception {
        try (Strategy.Run run = limit(32, 64).open(cell(), 1, 3);
                Strategy.Incrementer incrementer = run.incrementer()) {
            incrementer.increment(2);
            incrementer.increment(2);
            incrementer.increment(3);

            assertThat(run.totals()).containsExactly(0, 2, 1);
        }
    }

    private Map<Integer, Long> partsOfCounter1(String table) throws SQLException {
        Map<Integer, Long> parts = new LinkedHashMap<>();
        try (Connection connection = db.dataSource().getConnection();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(
                        "SELECT part, count FROM " + table + " WHERE record_id = 1 ORDER BY part")) {
            while (rows.next()) {
                parts.put(rows.getInt(1), rows.getLong(2));
            }
        }
        return parts;
    }
}
