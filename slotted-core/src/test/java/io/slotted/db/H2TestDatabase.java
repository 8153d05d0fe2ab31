package io.slotted.db;

import java.nio.file.Path;
import java.util.List;

/** H2 as Slotted embeds it: a file database in the build directory. */
public final class H2TestDatabase extends TestDatabase {
    private static final H2TestDatabase INSTANCE = new H2TestDatabase();

    public static H2TestDatabase instance() {
        return INSTANCE;
    }

    @Override
    public String name() {
        return "H2";
    }

    @Override
    public String jdbcUrl() {
        Path file = Path.of("target", "h2-test", "slotted").toAbsolutePath();
        return "jdbc:h2:file:" + file + ";DB_CLOSE_DELAY=-1";
    }

    @Override
    protected String shortLockWaitSql() {
        return "SET LOCK_TIMEOUT 500";
    }

    @Override
    public String seedTableDdl(String table) {
        return "CREATE TABLE " + table + " ("
                + "id INT AUTO_INCREMENT PRIMARY KEY, "
                + "record_type INT NOT NULL, "
                + "record_id INT NOT NULL, "
                + "slot INT DEFAULT 0 NOT NULL, "
                + "count INT DEFAULT NULL, "
                + "CONSTRAINT " + table + "_records_and_slots UNIQUE (record_type, record_id, slot))";
    }

    @Override
    public String unreachableJdbcUrl() {
        return "jdbc:h2:tcp://127.0.0.1:1/nothing-listens-here";
    }

    /**
     * H2 locks no single table against reads: {@code SET EXCLUSIVE 1} makes every other session
     * wait for the whole database instead.
     */
    @Override
    public List<String> lockTableStatements(String table) {
        return List.of("SET EXCLUSIVE 1");
    }

    @Override
    public String unlockTablesStatement() {
        return "SET EXCLUSIVE 0";
    }

    @Override
    public String createReadOnlyUser(String user, String table) {
        execute("CREATE USER " + user + " PASSWORD 'read-only'");
        execute("GRANT SELECT ON " + String.join(", ", counterTables(table)) + " TO " + user);
        // DB_CLOSE_DELAY is an admin's setting; the database is open already.
        return jdbcUrl().replace(";DB_CLOSE_DELAY=-1", "") + ";USER=" + user + ";PASSWORD=read-only";
    }

    @Override
    public String jdbcUrlInSchema(String schema) {
        return jdbcUrl() + ";SCHEMA=" + schema;
    }

    @Override
    public String createLeastPrivilegeUser(String user, String schema) {
        execute("CREATE USER " + user + " PASSWORD 'least'");
        execute("GRANT SELECT, INSERT, UPDATE, DELETE ON SCHEMA " + schema + " TO " + user);
        return jdbcUrl().replace(";DB_CLOSE_DELAY=-1", "") + ";SCHEMA=" + schema + ";USER=" + user
                + ";PASSWORD=least";
    }

    @Override
    public void revoke(String privilege, String user, String schema) {
        execute("REVOKE " + privilege + " ON SCHEMA " + schema + " FROM " + user);
    }

    @Override
    public void dropUser(String user) {
        execute("DROP USER IF EXISTS " + user);
    }

    @Override
    public void restartSeedIdsAt(String table, long next) {
        execute("ALTER TABLE " + table + " ALTER COLUMN id RESTART WITH " + next);
    }
}
