package io.slotted.db;

import java.util.List;

/**
 * A server of the MySQL family, MariaDB or MySQL itself, on InnoDB: the SQL the two share for what
 * the tests ask of a database, reached through a driver that sends the statements of one string
 * together only when the URL says {@code allowMultiQueries}.
 */
public abstract class InnoDbTestDatabase extends ServerTestDatabase {

    @Override
    protected String shortLockWaitSql() {
        return "SET SESSION innodb_lock_wait_timeout = 1";
    }

    /**
     * The seed's DDL, word for word: MariaDB takes it as it is, MySQL 8 with warnings for the
     * display widths and utf8.
     */
    @Override
    public String seedTableDdl(String table) {
        return "CREATE TABLE `" + table + "` (\n"
                + "  `id` int(11) NOT NULL AUTO_INCREMENT,\n"
                + "  `record_type` int(11) NOT NULL,\n"
                + "  `record_id` int(11) NOT NULL,\n"
                + "  `slot` int(11) NOT NULL DEFAULT '0',\n"
                + "  `count` int(11) DEFAULT NULL,\n"
                + "  PRIMARY KEY (`id`),\n"
                + "  UNIQUE KEY `records_and_slots` (`record_type`,`record_id`,`slot`)\n"
                + ") ENGINE=InnoDB DEFAULT CHARSET=utf8";
    }

    @Override
    public boolean sendsStatementsTogether() {
        return false;
    }

    @Override
    public String jdbcUrlViaSendingStatementsTogether(String host, int port) {
        return jdbcUrlVia(host, port) + "&allowMultiQueries=true";
    }

    @Override
    public List<String> lockTableStatements(String table) {
        return List.of("LOCK TABLES " + table + " WRITE");
    }

    @Override
    public String unlockTablesStatement() {
        return "UNLOCK TABLES";
    }

    /** A user granted SELECT on each table alone. */
    @Override
    public String createReadOnlyUser(String user, String table) {
        execute("CREATE USER '" + user + "'@'%' IDENTIFIED BY 'read-only'");
        for (String name : counterTables(table)) {
            execute("GRANT SELECT ON " + name + " TO '" + user + "'@'%'");
        }
        return jdbcUrlAs(user, "read-only");
    }

    @Override
    public void dropSchema(String schema) {
        execute("DROP SCHEMA IF EXISTS " + schema);
    }

    @Override
    public String jdbcUrlInSchema(String schema) {
        return jdbcUrl().replaceFirst("(//[^/]+/)[^?]*", "$1" + schema);
    }

    @Override
    public String createLeastPrivilegeUser(String user, String schema) {
        execute("CREATE USER '" + user + "'@'%' IDENTIFIED BY 'least'");
        execute("GRANT SELECT, INSERT, UPDATE, DELETE ON " + schema + ".* TO '" + user + "'@'%'");
        return jdbcUrlAs(user, "least").replaceFirst("(//[^/]+/)[^?]*", "$1" + schema);
    }

    @Override
    public void revoke(String privilege, String user, String schema) {
        execute("REVOKE " + privilege + " ON " + schema + ".* FROM '" + user + "'@'%'");
    }

    @Override
    public void dropUser(String user) {
        execute("DROP USER IF EXISTS '" + user + "'@'%'");
    }

    @Override
    public void restartSeedIdsAt(String table, long next) {
        execute("ALTER TABLE " + table + " AUTO_INCREMENT = " + next);
    }

    /** {@code SHOW ENGINE INNODB STATUS} describes the latest deadlock. */
    @Override
    public boolean describesLatestDeadlock() {
        return true;
    }
}
