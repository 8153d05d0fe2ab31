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

    /** How many slot rows the counter has. */
    long rows(int recordType, long recordId) throws SQLException {
        return ofCounter("COUNT(*)", recordType, recordId);
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
