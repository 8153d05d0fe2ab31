package io.slotted.internal.write;

import static org.assertj.core.api.Assertions.assertThat;

import io.slotted.SlottedCounters;
import io.slotted.db.TestDatabase;
import io.slotted.internal.dialect.Dialect;
import io.slotted.internal.dialect.Dialects;
import io.slotted.internal.dialect.statements.SlotStatements;
import io.slotted.internal.sql.TableName;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What a roll-up takes out of the slot rows it read, on every database, whether the dialect sends
 * one statement or a batch: exactly what was read from each row, an increment landed since kept,
 * more rows than one statement takes, and a row deleted since the read reported rather than
 * skipped (the caller rolls back, or what it moved elsewhere would be counted twice).
 */
@ParameterizedClass(name = "[{arguments}]")
@MethodSource("io.slotted.db.TestDatabases#all")
class SlotRowsSubtractSuite {
    private static final int TYPE = 3;

    private final TestDatabase db;
    private final String table = "t_" + ProcessHandle.current().pid() + "_subtract";
    private SlotStatements statements;

    SlotRowsSubtractSuite(TestDatabase db) {
        this.db = db;
    }

    @BeforeEach
    void createTable() throws SQLException {
        try (SlottedCounters counters = SlottedCounters.builder(db.dataSource()).table(table).build()) {
            counters.migrate();
        }
        try (Connection connection = db.dataSource().getConnection()) {
            Dialect dialect = Dialects.detect(connection);
            statements = dialect.slotStatements(TableName.parse(table));
        }
    }

    @AfterEach
    void dropTables() {
        db.dropCounterTables(table);
    }

    @Test
    void subtract_takesWhatWasReadFromEachRow_andKeepsWhatLandedSince() throws SQLException {
        db.execute("INSERT INTO " + table + " (record_type, record_id, slot, count) VALUES"
                + " (3, 1, 0, 5), (3, 1, 7, -2), (3, 1, 9, 0), (3, 2, 4, 11), (3, 3, 0, 8)");
        assertThat(subtractAfter("UPDATE " + table + " SET count = count + 100 WHERE record_id = 2"))
                .as("every row there").isTrue();
        assertThat(rows()).isEqualTo(Map.of("1/0", 0L, "1/7", 0L, "1/9", 0L, "2/4", 100L, "3/0", 8L));
    }

    @Test
    void subtract_ofMoreRowsThanOneStatementTakes_takesFromEveryOne() throws SQLException {
        int counters = SlotStatements.SUBTRACTED_AT_ONCE + 300;
        StringBuilder values = new StringBuilder();
        for (long id = 1; id <= counters; id++) {
            values.append(id == 1 ? "" : ", ").append("(3, ").append(id).append(", 1, ").append(id)
                    .append("), (3, ").append(id).append(", 2, 1)");
        }
        db.execute("INSERT INTO " + table + " (record_type, record_id, slot, count) VALUES " + values);
        try (Connection connection = db.dataSource().getConnection()) {
            List<Long> ids = LongStream.rangeClosed(1, counters).boxed().toList();
            List<CounterRows> read = new ArrayList<>();
            for (int from = 0; from < ids.size(); from += 500) {
                read.addAll(SlotRows.read(connection, statements, TYPE, ids.subList(from,
                        Math.min(ids.size(), from + 500)), SlotRows.SETTLED_SLOTS).values());
            }
            db.execute("UPDATE " + table + " SET count = count + 1 WHERE record_id = " + counters + " AND slot = 2");
            connection.setAutoCommit(false);
            assertThat(SlotRows.subtract(connection, statements, TYPE, read)).as("every row there").isTrue();
            connection.commit();
        }
        Map<String, Long> rows = rows();
        assertThat(rows).hasSize(2 * counters);
        assertThat(rows.get(counters + "/2")).as("the increment landed after the read").isEqualTo(1L);
        assertThat(rows.values().stream().mapToLong(Long::longValue).sum()).as("what is left in the rows")
                .isEqualTo(1L);
    }

    @Test
    void subtract_fromARowDeletedSinceTheRead_saysSo() throws SQLException {
        db.execute("INSERT INTO " + table + " (record_type, record_id, slot, count) VALUES"
                + " (3, 1, 0, 5), (3, 2, 0, 6), (3, 2, 3, 7)");
        assertThat(subtractAfter("DELETE FROM " + table + " WHERE record_id = 2 AND slot = 3"))
                .as("every row there").isFalse();
        assertThat(rows()).isEqualTo(Map.of("1/0", 5L, "2/0", 6L));
    }

    /**
     * Reads counters 1 and 2, runs a statement on another connection, then takes what was read
     * from the rows in a transaction, committed if every row was there and rolled back if not.
     */
    private boolean subtractAfter(String between) throws SQLException {
        try (Connection connection = db.dataSource().getConnection()) {
            Map<Long, CounterRows> read = SlotRows.read(connection, statements, TYPE, List.of(1L, 2L),
                    SlotRows.SETTLED_SLOTS);
            db.execute(between);
            connection.setAutoCommit(false);
            boolean taken = SlotRows.subtract(connection, statements, TYPE, read.values());
            if (taken) {
                connection.commit();
            } else {
                connection.rollback();
            }
            return taken;
        }
    }

    /** The table's rows as "id/slot" to count. */
    private Map<String, Long> rows() throws SQLException {
        Map<String, Long> rows = new TreeMap<>();
        try (Connection connection = db.dataSource().getConnection();
                Statement select = connection.createStatement();
                ResultSet result = select.executeQuery("SELECT record_id, slot, count FROM " + table
                        + " WHERE record_type = " + TYPE)) {
            while (result.next()) {
                rows.put(result.getLong(1) + "/" + result.getInt(2), result.getLong(3));
            }
        }
        return rows;
    }
}
