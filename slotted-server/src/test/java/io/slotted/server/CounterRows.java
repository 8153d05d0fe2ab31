package io.slotted.server;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * A counter table as SQL sees it, for tests that check what the service wrote without asking the
 * service.
 *
 * @param dataSource the test database
 * @param table the counter table
 */
record CounterRows(DataSource dataSource, String table) {
    /** The counter's total as the table holds it, summed over its slots. */
    long total(int recordType, long recordId) throws SQLException {
        return ofCounter("COALESCE(SUM(count), 0)", recordType, recordId);
    }

    /** Every count of a type, summed over all its counters. */
    long typeTotal(int recordType) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement query = connection.prepareStatement(
                        "SELECT COALESCE(SUM(count), 0) FROM " + table + " WHERE record_type = ?")) {
            query.setInt(1, recordType);
            try (ResultSet row = query.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        }
    }

    /** How many slot rows the counter has. */
    long rows(int recordType, long recordId) throws SQLException {
        return ofCounter("COUNT(*)", recordType, recordId);
    }

    /**
     * A counter's total read by its names, as a SQL user reads it: the type's number and the id's
     * through the name dictionary, joined to the slot rows. A type given as a number is that number.
     */
    long totalByName(String type, String id) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement query = connection.prepareStatement("SELECT COALESCE(SUM(c.count), 0) FROM "
                        + table + " c JOIN " + table + "_names i ON i.record_type = c.record_type"
                        + " AND i.record_id = c.record_id WHERE i.name = ? AND c.record_type = "
                        + (type.matches("[0-9]+") ? type : "(SELECT t.record_id FROM " + table
                                + "_names t WHERE t.record_type = " + Integer.MIN_VALUE + " AND t.name = ?)"))) {
            query.setString(1, id);
            if (!type.matches("[0-9]+")) {
                query.setString(2, type);
            }
            try (ResultSet row = query.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        }
    }

    private long ofCounter(String aggregate, int recordType, long recordId) throws SQLException {
        try (Connection connection = dataSource.getConnection();
                PreparedStatement query = connection.prepareStatement("SELECT " + aggregate + " FROM "
                        + table + " WHERE record_type = ? AND record_id = ?")) {
            query.setInt(1, recordType);
            query.setLong(2, recordId);
            try (ResultSet row = query.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        }
    }
}
