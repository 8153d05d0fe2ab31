package io.slotted.campaign.workload;

import io.slotted.OwnerColumn;
import io.slotted.campaign.history.Counter;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import javax.sql.DataSource;

/** The owner tables of the campaign's counters: an id and a count column, a row at 0 for each counter. */
public final class OwnerTables {
    private OwnerTables() {
    }

    /** The owner column of a table of this shape. */
    public static OwnerColumn column(String ownerTable) {
        return new OwnerColumn(ownerTable, "id", "total");
    }

    /**
     * Creates the table with a row at 0 for each counter; nothing if it is there already with its
     * rows (a first try made them, and its answer was lost), so that it may be tried again.
     */
    public static void create(DataSource direct, OwnerColumn owner, List<Counter> counters) {
        try (Connection connection = direct.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE IF NOT EXISTS " + owner.table()
                    + " (id BIGINT PRIMARY KEY, total BIGINT NOT NULL)");
            try (ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM " + owner.table())) {
                rows.next();
                if (rows.getLong(1) > 0) {
                    return;
                }
            }
            StringBuilder insert = new StringBuilder("INSERT INTO " + owner.table() + " (id, total) VALUES ");
            for (int i = 0; i < counters.size(); i++) {
                insert.append(i == 0 ? "" : ", ").append('(').append(counters.get(i).id()).append(", 0)");
            }
            statement.execute(insert.toString());
        } catch (SQLException e) {
            throw new IllegalStateException("could not create the owner table " + owner.table() + ": " + e, e);
        }
    }
}
