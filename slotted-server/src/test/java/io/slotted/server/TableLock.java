package io.slotted.server;

import io.slotted.db.TestDatabase;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A lock on a counter table held by a session of the test's own, as another application or an
 * administrator holds one: every statement of the service on the table waits until it is closed.
 * Each database says how it locks a table ({@link TestDatabase#lockTableStatements}).
 */
final class TableLock implements AutoCloseable {
    private final TestDatabase db;
    private final Connection connection;
    private final AtomicBoolean held = new AtomicBoolean(true);

    private TableLock(TestDatabase db, Connection connection) {
        this.db = db;
        this.connection = connection;
    }

    /** Takes the lock on {@code table}; it is held until {@link #close()}. */
    static TableLock hold(TestDatabase db, String table) throws SQLException {
        Connection connection = db.dataSource().getConnection();
        connection.setAutoCommit(false);
        try (Statement statement = connection.createStatement()) {
            for (String sql : db.lockTableStatements(table)) {
                statement.execute(sql);
            }
        } catch (SQLException e) {
            connection.close();
            throw e;
        }
        return new TableLock(db, connection);
    }

    /** Releases the lock; later calls do nothing. */
    @Override
    public void close() throws SQLException {
        if (!held.getAndSet(false)) {
            return;
        }
        try (connection; Statement statement = connection.createStatement()) {
            if (db.unlockTablesStatement() != null) {
                statement.execute(db.unlockTablesStatement());
            }
            connection.rollback();
        }
    }
}
