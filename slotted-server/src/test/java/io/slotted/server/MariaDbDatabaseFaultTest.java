package io.slotted.server;

import io.slotted.db.MariaDbTestDatabase;
import java.util.List;

/** The database faults on MariaDB: {@code LOCK TABLES … WRITE}, a user granted SELECT only. */
class MariaDbDatabaseFaultTest extends DatabaseFaultSuite {
    private static final MariaDbTestDatabase DB = MariaDbTestDatabase.instance();

    MariaDbDatabaseFaultTest() {
        super(DB);
    }

    @Override
    protected List<String> lockTable(String table) {
        return List.of("LOCK TABLES " + table + " WRITE");
    }

    @Override
    protected String unlockTables() {
        return "UNLOCK TABLES";
    }

    @Override
    protected String createReadOnlyUser(String user, String table) {
        DB.execute("CREATE USER '" + user + "'@'%' IDENTIFIED BY 'read-only'");
        for (String name : serviceTables(table)) {
            DB.execute("GRANT SELECT ON " + name + " TO '" + user + "'@'%'");
        }
        return JdbcUrls.withLogin(DB.jdbcUrl(), user, "read-only");
    }

    @Override
    protected void dropUser(String user) {
        DB.execute("DROP USER IF EXISTS '" + user + "'@'%'");
    }
}
