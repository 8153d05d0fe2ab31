package io.slotted;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import io.slotted.db.CommitCuttingProxy;
import io.slotted.db.CommitCuttingProxy.Cut;
import io.slotted.db.ServerTestDatabase;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A roller whose connection is cut while it commits a roll-up, by a proxy on loopback: before the
 * server received the COMMIT (the roll-up is rolled back) and after (it committed, the roller never
 * heard). Either way nothing is lost or moved twice, reads stay exact, and the next roll-up, by
 * another instance, converges. It runs on every database a proxy can stand in front of.
 */
@ParameterizedClass(name = "[{arguments}]")
@MethodSource("io.slotted.db.TestDatabases#servers")
class RollUpFaultSuite {
    private static final AtomicInteger TABLES = new AtomicInteger();
    private static final int TYPE = 4;

    private final ServerTestDatabase db;
    private String table;
    private CommitCuttingProxy proxy;
    private HikariDataSource viaProxy;

    RollUpFaultSuite(ServerTestDatabase db) {
        this.db = db;
    }

    @BeforeEach
    void proxyInFront() throws Exception {
        table = "rfault_" + ProcessHandle.current().pid() + "_" + TABLES.incrementAndGet();
        proxy = new CommitCuttingProxy(db.host(), db.port());
        viaProxy = db.poolFor(db.jdbcUrlVia("127.0.0.1", proxy.port()), "roller-via-proxy", 4);
    }

    @AfterEach
    void cleanUp() throws Exception {
        viaProxy.close();
        proxy.close();
        db.dropCounterTables(table);
        db.dropTable(table + "_repos");
    }

    @ParameterizedTest
    @EnumSource(Cut.class)
    void rollUpCommitCut_nothingLostOrMovedTwice_andTheNextRollUpConverges(Cut how) {
        db.execute("CREATE TABLE " + table + "_repos (id BIGINT PRIMARY KEY,"
                + " downloads_count BIGINT DEFAULT 0 NOT NULL)");
        for (int id = 0; id < 50; id++) {
            db.execute("INSERT INTO " + table + "_repos (id, downloads_count) VALUES (" + id + ", 1000)");
        }
        try (SlottedCounters healthy = SlottedCounters.builder(db.dataSource()).table(table).build();
                SlottedCounters roller = SlottedCounters.builder(viaProxy).table(table).build()) {
            healthy.migrate();
            healthy.owners().adopt(TYPE, OwnerColumn.parse(table + "_repos.id.downloads_count"), OwnerMode.FOLD);
            Map<Long, Long> expected = new HashMap<>();
            for (int i = 0; i < 500; i++) {
                long id = i % 50;
                healthy.add(TYPE, id, 1 + i % 3);
                expected.merge(id, 1L + i % 3, Long::sum);
            }
            expected.replaceAll((id, n) -> n + 1000);

            proxy.cutNextCommit(how);
            assertThatThrownBy(roller.owners()::rollUpNow).as("the roller lost its connection while committing")
                    .isInstanceOf(SlottedException.class);

            assertThat(proxy.cuts()).isEqualTo(1);
            assertThat(healthy.getAll(TYPE, expected.keySet())).isEqualTo(expected);
            healthy.owners().rollUpNow();
            assertThat(columns()).isEqualTo(expected);
            assertThat(healthy.getAll(TYPE, expected.keySet())).isEqualTo(expected);
        }
    }

    private Map<Long, Long> columns() {
        Map<Long, Long> columns = new HashMap<>();
        try (Connection connection = db.dataSource().getConnection();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(
                        "SELECT id, downloads_count FROM " + table + "_repos")) {
            while (rows.next()) {
                columns.put(rows.getLong(1), rows.getLong(2));
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return columns;
    }
}
