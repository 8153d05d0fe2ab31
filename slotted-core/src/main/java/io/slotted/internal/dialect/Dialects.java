package io.slotted.internal.dialect;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;

/** Picks the dialect for a connection from the name its driver reports for the database. */
public final class Dialects {
    private Dialects() {
    }

    /**
     * Detects the dialect of the database behind a connection.
     *
     * @param connection an open connection
     * @return the matching dialect
     * @throws SQLException if the metadata cannot be read
     * @throws io.slotted.SlottedException if the database is not one Slotted supports
     */
    public static Dialect detect(Connection connection) throws SQLException {
        String product = connection.getMetaData().getDatabaseProductName();
        String name = product.toLowerCase(Locale.ROOT);
        if (name.contains("mariadb") || name.contains("mysql")) {
            String version = connection.getMetaData().getDatabaseProductVersion().toLowerCase(Locale.ROOT);
            boolean mysql = !name.contains("mariadb") && !version.contains("mariadb");
            return mysql ? new MySqlDialect() : new MariaDbDialect(wsrepOn(connection));
        }
        if (name.contains("postgres")) {
            return new PostgresDialect();
        }
        if (name.equals("h2")) {
            return new H2Dialect();
        }
        throw new io.slotted.SlottedException("database '" + product + "' is not supported;"
                + " Slotted works with MariaDB, MySQL, PostgreSQL and H2");
    }

    /**
     * Whether the MariaDB server is a Galera node with replication on. A server built without
     * Galera has no {@code wsrep_on} at all and refuses the query: it is no Galera node.
     */
    private static boolean wsrepOn(Connection connection) {
        try (Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SELECT @@global.wsrep_on")) {
            return row.next() && row.getInt(1) == 1;
        } catch (SQLException unknownVariable) {
            return false;
        }
    }
}
