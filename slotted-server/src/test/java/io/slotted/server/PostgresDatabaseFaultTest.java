package io.slotted.server;

import io.slotted.db.PostgresTestDatabase;
import java.util.List;

/** The database faults on PostgreSQL: {@code LOCK TABLE … IN ACCESS EXCLUSIVE MODE}, a SELECT-only role. */
class PostgresDatabaseFaultTest extends DatabaseFaultSuite {
    private static final PostgresTestDatabase DB = PostgresTestDatabase.instance();

    PostgresDatabaseFaultTest() {
        super(DB);
    }

    @Override
    protected List<String> lockTable(String table) {
        return List.of("LOCK TABLE " + table + " IN ACCESS EXCLUSIVE MODE");
    }

    @Override
    protected String unlockTables() {
        return null;
    }

    @Override
    protected String createReadOnlyUser(String user, String table) {
        DB.execute("CREATE ROLE " + user + " LOGIN PASSWORD 'read-only'");
        DB.execute("GRANT SELECT ON " + String.join(", ", serviceTables(table)) + " TO " + user);
        return JdbcUrls.withLogin(DB.jdbcUrl(), user, "read-only");
    }

    @Override
    protected void dropUser(String user) {
        DB.execute("DROP ROLE IF EXISTS " + user);
    }
}
