package io.slotted.server.doctor.dialect;

import io.slotted.server.doctor.Check;
import io.slotted.server.doctor.locks.HotRow;
import io.slotted.server.doctor.locks.LockWindow;
import io.slotted.server.store.FailureMessage;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/**
 * What the doctor asks one kind of database, in its own SQL, and how it words what it cannot see:
 * where row-lock waits are shown, which settings decide durability, how the doctor's own session
 * travels, and what the catalog says of Slotted's tables. One subclass per database, chosen from
 * core's dialect by {@link DoctorDialects}; what is the same everywhere (Slotted's tables, the hot
 * rows, the report) stays with the doctor.
 *
 * <p>A default here is what a database with nothing of its own to say gives: no lock window, no
 * settings, no catalog facts, so that a check is left out rather than asked in another
 * database's SQL.
 */
public abstract class DoctorDialect {
    /**
     * A new window on the database's row-lock waits, for one run.
     *
     * @return the window; empty where the database keeps no lock-wait tables the doctor reads
     */
    public Optional<LockWindow> newLockWindow() {
        return Optional.empty();
    }

    /**
     * What the report says when the lock tables refused the doctor, with the grant that lets it
     * read them where one does.
     *
     * @param refusal the database's error
     * @return a sentence for the report's missing privileges
     */
    public String lockTablesRefused(SQLException refusal) {
        return "the lock tables could not be read (" + FailureMessage.of(refusal) + "): no hot rows,"
                + " deadlocks or lock waits were sampled";
    }

    /**
     * What the report says when the database hid other users' waiting statements from the doctor.
     *
     * @param hot the hot rows found
     * @return the grant that shows them, or empty when nothing was hidden
     */
    public Optional<String> hiddenStatements(List<HotRow> hot) {
        return Optional.empty();
    }

    /**
     * The server settings that decide whether an increment Slotted acknowledged survives a crash,
     * and whether a value too big for its column is refused rather than cut.
     *
     * @param connection a connection of the doctor's own
     * @return one check per setting; none where the database has no such settings
     * @throws SQLException if the settings cannot be read
     */
    public List<Check> settings(Connection connection) throws SQLException {
        return List.of();
    }

    /**
     * How the database keeps up with the counter table's row versions, which every increment
     * leaves behind: PostgreSQL's autovacuum, dead versions and HOT updates; InnoDB's purge.
     *
     * @param connection a connection of the doctor's own
     * @param table the counter table, as configured (possibly qualified by its schema); it exists
     * @return the checks; none where the database has nothing to check
     * @throws SQLException if the statistics cannot be read
     */
    public List<Check> maintenance(Connection connection, String table) throws SQLException {
        return List.of();
    }

    /**
     * What lets the doctor read the statistics of {@link #maintenance}, when they were refused.
     *
     * @return the advice
     */
    public String statisticsGrant() {
        return "run the doctor as a user who may read the server's statistics";
    }

    /**
     * The statement that reads the database server's clock, as milliseconds since the epoch; empty
     * for an embedded database, which reads the process's own clock.
     *
     * @return one {@code SELECT} of one {@code BIGINT}, or empty
     */
    public Optional<String> clockSql() {
        return Optional.empty();
    }

    /**
     * Whether the doctor's own session is encrypted, and whether it could be read on a network.
     *
     * @param connection a connection of the doctor's own
     * @return the check; empty where the session has no connection to check (an embedded database)
     * @throws SQLException if the server's view of the session cannot be read
     */
    public abstract Optional<Check> transport(Connection connection) throws SQLException;

    /**
     * The value a table's auto-increment {@code id} gives the next new row.
     *
     * @param connection a connection of the doctor's own
     * @param table the table, as configured (possibly qualified by its schema)
     * @return the next id; empty where the catalog does not say
     * @throws SQLException if the catalog cannot be read
     */
    public Optional<Long> nextId(Connection connection, String table) throws SQLException {
        return Optional.empty();
    }

    /**
     * The type of one of a table's columns as the catalog names it, such as {@code int(11)} or
     * {@code integer}.
     *
     * @param connection a connection of the doctor's own
     * @param table the table, as configured (possibly qualified by its schema)
     * @param column the column
     * @return the type; empty where the table has no such column or the catalog does not say
     * @throws SQLException if the catalog cannot be read
     */
    public Optional<String> columnType(Connection connection, String table, String column) throws SQLException {
        return Optional.empty();
    }

    /**
     * How to widen a table's {@code count} column to {@code BIGINT}.
     *
     * @param table the table
     * @return the statement to advise
     */
    public String widenCount(String table) {
        return "ALTER TABLE " + table + " MODIFY count BIGINT";
    }

    /** The table's own name, without its schema. */
    static String unqualified(String table) {
        return table.substring(table.lastIndexOf('.') + 1);
    }

    /** The first column of the first row a query answers, its parameters bound in order. */
    static Optional<String> firstValue(Connection connection, String sql, String... parameters)
            throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                query.setString(i + 1, parameters[i]);
            }
            try (ResultSet row = query.executeQuery()) {
                return row.next() ? Optional.ofNullable(row.getString(1)) : Optional.empty();
            }
        }
    }
}
