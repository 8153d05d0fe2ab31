package io.slotted.internal.dialect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.slotted.SlottedCounters;
import io.slotted.db.ServerTestDatabase;
import io.slotted.internal.dialect.statements.AllowanceSpend;
import io.slotted.internal.dialect.statements.SpendStatements;
import io.slotted.internal.sql.CounterKey;
import io.slotted.internal.sql.FlushMark;
import io.slotted.internal.sql.TableName;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The statements that spend bounded counters' allowances and set the flusher's mark, run on the
 * real servers: each lands whole or changes nothing, and the one that commits by itself says
 * which, with two counters of which one allowance falls short, against a mark already fenced, and
 * naming a row that is not there.
 */
@ParameterizedClass(name = "[{arguments}]")
@MethodSource("io.slotted.db.TestDatabases#servers")
class SpendStatementsSuite {
    private static final FlushMark MARK = new FlushMark(11, 12, 5);
    private static final CounterKey STOCK = new CounterKey(7, 1);
    private static final CounterKey OTHER = new CounterKey(7, 2);

    private final ServerTestDatabase db;
    private final String table = "t_" + ProcessHandle.current().pid() + "_spends";
    private Dialect dialect;

    SpendStatementsSuite(ServerTestDatabase db) {
        this.db = db;
    }

    @BeforeEach
    void createRows() throws SQLException {
        try (SlottedCounters counters = SlottedCounters.builder(db.dataSource()).table(table).build()) {
            counters.migrate();
        }
        try (Connection connection = db.dataSource().getConnection()) {
            dialect = Dialects.detect(connection);
        }
        db.execute("INSERT INTO " + table + " (record_type, record_id, slot, count) VALUES ("
                + FlushMark.RECORD_TYPE + ", 11, 12, 4), (7, 1, -1, 10), (7, 2, -1, 3)");
    }

    @AfterEach
    void dropTables() {
        db.dropCounterTables(table);
    }

    private List<AllowanceSpend> spends(long otherNeeds) {
        return List.of(new AllowanceSpend(STOCK, -1, -4, 4, Long.MAX_VALUE),
                new AllowanceSpend(OTHER, -1, -otherNeeds, otherNeeds, Long.MAX_VALUE));
    }

    @Test
    void alone_whenEveryAllowanceCovers_spendsAndSetsTheMark() throws SQLException {
        assertThat(runAlone(spends(3))).as("landed").isTrue();
        assertThat(rows()).isEqualTo(Map.of(-1, 6L, -2, 0L, 5, 5L));
    }

    @Test
    void alone_whenOneAllowanceFallsShort_changesNothing() throws SQLException {
        assertThat(runAlone(spends(4))).as("landed").isFalse();
        assertThat(rows()).isEqualTo(Map.of(-1, 10L, -2, 3L, 5, 4L));
    }

    @Test
    void alone_whenTheMarkAlreadyHoldsTheFlushsNumber_failsWhole() throws SQLException {
        db.execute("UPDATE " + table + " SET count = 5 WHERE record_type = " + FlushMark.RECORD_TYPE);
        String sql = spending().andMarkAlone(MARK, spends(3));
        assertThatThrownBy(() -> db.execute(sql)).as("fenced").hasCauseInstanceOf(SQLException.class);
        assertThat(rows()).isEqualTo(Map.of(-1, 10L, -2, 3L, 5, 5L));
    }

    @Test
    void alone_namingAnAllowanceRowThatIsNotThere_updatesFewerRowsThanItNames() throws SQLException {
        db.execute("DELETE FROM " + table + " WHERE record_type = 7 AND record_id = 2");
        String sql = spending().andMarkAlone(MARK, spends(3));
        try (Connection connection = db.dataSource().getConnection(); Statement statement = connection.createStatement()) {
            assertThat(statement.executeUpdate(sql)).as("the mark and one spend of the two it names: the count"
                    + " the flush checks, since no allowance row is ever deleted but by hand").isEqualTo(2);
        }
    }

    @Test
    void inATransaction_updatesOneRowPerSpendAndTheMark_onlyWhenEveryAllowanceCovers() throws SQLException {
        String sql = spending().andMark(MARK, spends(4));
        try (Connection connection = db.dataSource().getConnection(); Statement statement = connection.createStatement()) {
            connection.setAutoCommit(false);
            assertThat(statement.executeUpdate(sql)).as("the mark and the covered spend, not the other").isEqualTo(2);
            connection.rollback();
            sql = spending().andMark(MARK, spends(3));
            assertThat(statement.executeUpdate(sql)).isEqualTo(3);
            connection.commit();
        }
        assertThat(rows()).isEqualTo(Map.of(-1, 6L, -2, 0L, 5, 5L));
    }

    /** The dialect's spends, which every server database has. */
    private SpendStatements spending() {
        return dialect.spendStatements(TableName.parse(table)).orElseThrow();
    }

    /** Runs the statement that commits by itself as the flush does: whether it landed. */
    private boolean runAlone(List<AllowanceSpend> spends) throws SQLException {
        String sql = spending().andMarkAlone(MARK, spends);
        try (Connection connection = db.dataSource().getConnection(); Statement statement = connection.createStatement()) {
            assertThat(statement.executeUpdate(sql)).as("a row per spend and the mark").isEqualTo(spends.size() + 1);
            return true;
        } catch (SQLException e) {
            if (spending().fellShort(e)) {
                return false;
            }
            throw e;
        }
    }

    /** The two allowances (as slots -1 and -2) and the mark (as slot 5), by slot. */
    private Map<Integer, Long> rows() throws SQLException {
        Map<Integer, Long> rows = new TreeMap<>();
        Function<Long, Integer> slotOf = id -> id == 1 ? -1 : -2;
        try (Connection connection = db.dataSource().getConnection(); Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SELECT record_type, record_id, count FROM " + table)) {
            while (row.next()) {
                rows.put(row.getInt(1) == FlushMark.RECORD_TYPE ? 5 : slotOf.apply(row.getLong(2)), row.getLong(3));
            }
        }
        return rows;
    }
}
