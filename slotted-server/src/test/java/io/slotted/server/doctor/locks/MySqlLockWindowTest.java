package io.slotted.server.doctor.locks;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * How a row of MySQL 8's lock tables is read, without a MySQL server: a real result set of the
 * same columns, made by H2. MySQL names a lock's schema and table apart where MariaDB quotes them
 * together; both give the key decoded.
 */
class MySqlLockWindowTest {
    /** Transaction 2569 of connection 46, waiting 3 s for the row (7, 'a, b') of github.down_loads. */
    private static final Wait WAIT = new Wait("2569", 46, new TableRef("github", "down_loads"), "PRIMARY",
            List.of("7", "'a, b'"), "UPDATE t SET n = n + 1 WHERE id = 1", 3_000);
    private static final String WAITER = "SELECT '2569', 46, 'UPDATE t SET n = n + 1 WHERE id = 1', 3, ";
    private static final String INDEX_AND_KEY = "'PRIMARY', '7, ''a, b'''";

    @Test
    void aRowOfDataLocks_namesTheSchemaTableIndexAndKey_andWaitsInMilliseconds() throws SQLException {
        assertThat(firstWait(new MySqlLockWindow(), "'github', 'down_loads', ")).isEqualTo(WAIT);
    }

    @Test
    void aRowOfMariaDbsLockTables_namesTheSameFromItsQuotedTable() throws SQLException {
        assertThat(firstWait(new MariaDbLockWindow(), "'`github`.`down_loads`', ")).isEqualTo(WAIT);
    }

    /** The wait the window reads from a row of the waiter, the table as given, and the index and key. */
    private static Wait firstWait(MariaDbLockWindow window, String table) throws SQLException {
        try (Connection h2 = DriverManager.getConnection("jdbc:h2:mem:");
                Statement statement = h2.createStatement();
                ResultSet rows = statement.executeQuery(WAITER + table + INDEX_AND_KEY)) {
            rows.next();
            return window.waitOf(rows);
        }
    }
}
