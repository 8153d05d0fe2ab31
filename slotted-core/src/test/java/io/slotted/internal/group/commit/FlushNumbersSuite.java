package io.slotted.internal.group.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.slotted.SlottedCounters;
import io.slotted.db.ServerTestDatabase;
import io.slotted.internal.dialect.Dialect;
import io.slotted.internal.dialect.SlotRow;
import io.slotted.internal.jdbc.Database;
import io.slotted.internal.schema.SchemaMigrator;
import io.slotted.internal.sql.CounterKey;
import io.slotted.internal.sql.FlushMark;
import io.slotted.internal.sql.TableName;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A flusher's numbers and its mark on the real servers: the one-statement flush lands only with a
 * number above the mark's, so a statement that arrives late — after its retry, or after any later
 * flush — counts nothing; and a flusher that has used up its numbers takes a new id, whose mark
 * starts again below 1 while the old mark keeps refusing the old id's statements.
 */
@ParameterizedClass(name = "[{arguments}]")
@MethodSource("io.slotted.db.TestDatabases#servers")
class FlushNumbersSuite {
    private static final CounterKey COUNTER = new CounterKey(7, 1);

    private final ServerTestDatabase db;
    private final String table = "t_" + ProcessHandle.current().pid() + "_numbers";
    private Database database;
    private Dialect dialect;

    FlushNumbersSuite(ServerTestDatabase db) {
        this.db = db;
    }

    @BeforeEach
    void createTables() throws SQLException {
        try (SlottedCounters counters = SlottedCounters.builder(db.dataSource()).table(table).build()) {
            counters.migrate();
        }
        database = new Database(db.dataSource(), TableName.parse(table));
        try (Connection connection = database.connect()) {
            dialect = database.dialect();
        }
    }

    @AfterEach
    void dropTables() {
        db.dropCounterTables(table);
    }

    private FlushLedger ledger(long lastNumber) {
        return new FlushLedger(database, TableName.parse(table).withSuffix(SchemaMigrator.LEDGER_SUFFIX), "abc-0",
                Clock.systemUTC(), lastNumber);
    }

    @Test
    void numbers_runFromOneToTheLast_thenComeUnderANewIdFromOneAgain() {
        FlushLedger ledger = ledger(3);
        assertThat(List.of(ledger.nextFlush(), ledger.nextFlush(), ledger.nextFlush())).containsExactly(1L, 2L, 3L);
        assertThat(ledger.flusherId()).isEqualTo("abc-0");

        assertThat(ledger.nextFlush()).isEqualTo(1);
        assertThat(ledger.flusherId()).isEqualTo("abc-0-1");
        assertThat(ledger.mark(1)).as("a mark row of its own").isNotEqualTo(ledger(3).mark(1));
    }

    @Test
    void aStatementWhoseNumberTheMarkHasPassed_countsNothing() throws SQLException {
        FlushLedger ledger = ledger(FlushLedger.LAST_NUMBER);
        register(ledger);
        for (int flush = 1; flush <= 3; flush++) {
            flush(ledger.mark(ledger.nextFlush()), 10);
        }

        assertThatThrownBy(() -> flush(ledger.mark(3), 1)).as("its own number, fenced").isInstanceOf(SQLException.class);
        assertThatThrownBy(() -> flush(ledger.mark(1), 1)).as("an earlier flush's, arriving late")
                .isInstanceOf(SQLException.class);
        assertThat(count()).isEqualTo(30);
        flush(ledger.mark(ledger.nextFlush()), 10);
        assertThat(count()).isEqualTo(40);
    }

    @Test
    void afterANewId_theOldIdsLateStatementsStillCountNothing_andTheNewOnesLand() throws SQLException {
        FlushLedger ledger = ledger(2);
        register(ledger);
        FlushMark first = ledger.mark(ledger.nextFlush());
        flush(first, 10);
        flush(ledger.mark(ledger.nextFlush()), 10);

        long renewed = ledger.nextFlush();
        register(ledger);
        flush(ledger.mark(renewed), 10);

        assertThatThrownBy(() -> flush(first, 1)).as("the old id's first flush, arriving late")
                .isInstanceOf(SQLException.class);
        assertThat(count()).isEqualTo(30);
    }

    /**
     * A lost flush that will not be written again as it was (it would overflow a slot): fenced one
     * past its number, its late statement counts nothing, the fence tells itself apart from the
     * statement if its own COMMIT is lost, and the flusher's next number comes after the fence.
     */
    @Test
    void aLostFlushFencedOff_neverLands_andTheNextFlushComesAfterTheFence() throws SQLException {
        FlushLedger ledger = ledger(FlushLedger.LAST_NUMBER);
        register(ledger);
        flush(ledger.mark(ledger.nextFlush()), 10);
        long lost = ledger.nextFlush();

        assertThat(fenceAbove(ledger, lost)).as("fenced off").isTrue();
        assertThat(fenceAbove(ledger, lost)).as("a fence whose COMMIT was lost, tried again").isTrue();
        assertThatThrownBy(() -> flush(ledger.mark(lost), 1)).as("the lost statement, arriving late")
                .isInstanceOf(SQLException.class);
        ledger.skipPast(lost + 1);
        long next = ledger.nextFlush();
        assertThat(next).isEqualTo(lost + 2);
        flush(ledger.mark(next), 10);
        assertThat(count()).isEqualTo(20);
    }

    @Test
    void aLostFlushThatLanded_isNotFencedOff() throws SQLException {
        FlushLedger ledger = ledger(FlushLedger.LAST_NUMBER);
        register(ledger);
        long landed = ledger.nextFlush();
        flush(ledger.mark(landed), 10);

        assertThat(fenceAbove(ledger, landed)).as("it landed").isFalse();
        assertThat(count()).isEqualTo(10);
    }

    private boolean fenceAbove(FlushLedger ledger, long seq) throws SQLException {
        try (Connection connection = db.dataSource().getConnection()) {
            connection.setAutoCommit(false);
            boolean fenced = ledger.fenceAbove(connection, seq);
            connection.commit();
            return fenced;
        }
    }

    private void register(FlushLedger ledger) throws SQLException {
        try (Connection connection = db.dataSource().getConnection()) {
            ledger.registerOnce(connection);
            connection.setAutoCommit(true);
        }
    }

    /** A one-statement flush of {@code delta} into slot 0 of the counter, in auto-commit. */
    private void flush(FlushMark mark, long delta) throws SQLException {
        String sql = dialect.oneStatementFlushSql(TableName.parse(table), mark, List.of(new SlotRow(COUNTER, 0, delta)))
                .orElseThrow();
        try (Connection connection = db.dataSource().getConnection(); Statement statement = connection.createStatement()) {
            statement.executeUpdate(sql);
        }
    }

    private long count() throws SQLException {
        try (Connection connection = db.dataSource().getConnection(); Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SELECT SUM(count) FROM " + table + " WHERE record_type = 7")) {
            row.next();
            return row.getLong(1);
        }
    }
}
