package io.slotted.db;

import java.nio.file.Path;

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
}
