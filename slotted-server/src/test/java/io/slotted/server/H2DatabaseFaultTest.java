package io.slotted.server;

import io.slotted.db.H2TestDatabase;
import java.util.List;

/**
 * The database faults on H2, which locks no single table against reads: {@code SET EXCLUSIVE 1}
 * makes every other session wait for the whole database instead.
 */
class H2DatabaseFaultTest extends DatabaseFaultSuite {
    private static final H2TestDatabase DB = H2TestDatabase.instance();

    H2DatabaseFaultTest() {
        super(DB);
    }

    @Override
    protected List<String> lockTable(String table) {
        return List.of("SET EXCLUSIVE 1");
    }

    @Override
    protected String unlockTables() {
        return "SET EXCLUSIVE 0";
    }

    @Override
    protected String createReadOnlyUser(String user, String table) {
        DB.execute("CREATE USER " + user + " PASSWORD 'read-only'");
        DB.execute("GRANT SELECT ON " + table + ", " + table + "_ledger, " + table + "_keys, " + table
                + "_types TO " + user);
        // DB_CLOSE_DELAY is an admin's setting; the database is open already.
        return DB.jdbcUrl().replace(";DB_CLOSE_DELAY=-1", "") + ";USER=" + user + ";PASSWORD=read-only";
    }

    @Override
    protected void dropUser(String user) {
        DB.execute("DROP USER IF EXISTS " + user);
    }
}
