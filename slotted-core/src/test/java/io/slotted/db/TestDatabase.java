package io.slotted.db;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.slotted.internal.schema.SchemaMigrator;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.OptionalLong;
import javax.sql.DataSource;

/**
 * A real database server the tests run against, reached through a real connection pool.
 *
 * <p>Each kind says how to reach it, how to make a lock wait give up quickly, and how to write
 * the seed's DDL, lock a table and make a user who may only read, in its own SQL. The suites run
 * over every kind by parameter: {@link TestDatabases} lists them.
 */
public abstract class TestDatabase {
    private HikariDataSource pool;
    private HikariDataSource shortLockWaitPool;

    /** A name for test reports, such as {@code MariaDB}. */
    public abstract String name();

    /** The JDBC URL, with credentials, of a database the tests may create tables in. */
    public abstract String jdbcUrl();

    /** A statement that makes this session give up waiting for a row lock after about a second. */
    protected abstract String shortLockWaitSql();

    /** The seed's counter table DDL, as close to the original as this database's SQL allows. */
    public abstract String seedTableDdl(String table);

    /** A JDBC URL on which nothing listens, to see how an unreachable database is reported. */
    public abstract String unreachableJdbcUrl();

    /** Statements that lock a table against every other session, run with auto-commit off. */
    public abstract List<String> lockTableStatements(String table);

    /** A statement that releases the lock before its transaction is rolled back, or null. */
    public abstract String unlockTablesStatement();

    /**
     * Creates a user who may read a counter table and the tables beside it but write none of them.
     *
     * @return a JDBC URL that logs in as that user
     */
    public abstract String createReadOnlyUser(String user, String table);

    /** Drops a user again, after its tables are gone. */
    public abstract void dropUser(String user);

    /** Makes a schema (a database, in MariaDB's words) for a test alone. */
    public void createSchema(String schema) {
        execute("CREATE SCHEMA " + schema);
    }

    /** Drops a schema the test made, with its tables. */
    public void dropSchema(String schema) {
        execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
    }

    /** This database's JDBC URL, its connections working in {@code schema} by default. */
    public abstract String jdbcUrlInSchema(String schema);

    /**
     * Makes a user that may only read and write rows (SELECT, INSERT, UPDATE, DELETE) of the tables
     * of {@code schema}, those there and those made later by this connection's user, as an
     * application's user is where migrations run with another.
     *
     * @return the JDBC URL of the user, working in {@code schema}
     */
    public abstract String createLeastPrivilegeUser(String user, String schema);

    /** Takes a privilege on the tables of {@code schema} back from a user made by {@link #createLeastPrivilegeUser}. */
    public abstract void revoke(String privilege, String user, String schema);

    /** Makes the next row of a table of the seed's DDL take the id {@code next}. */
    public abstract void restartSeedIdsAt(String table, long next);

    /**
     * Whether the server keeps a description of the latest deadlock it detected (InnoDB does), as
     * well as counting them.
     */
    public boolean describesLatestDeadlock() {
        return false;
    }

    /** The shared pool: large enough for 64 writers and the connections tests hold beside them. */
    public synchronized DataSource dataSource() {
        if (pool == null) {
            pool = newPool(name() + "-pool", 80, null);
        }
        return pool;
    }

    /** A pool whose sessions give up on a lock wait quickly, for contention tests. */
    public synchronized DataSource shortLockWaitDataSource() {
        if (shortLockWaitPool == null) {
            shortLockWaitPool = newPool(name() + "-short-lock-wait", 4, shortLockWaitSql());
        }
        return shortLockWaitPool;
    }

    /** A pool like the shared one but reaching the server through {@code jdbcUrl}. */
    public HikariDataSource poolFor(String jdbcUrl, String poolName, int size) {
        HikariConfig config = new HikariConfig();
        config.setPoolName(poolName);
        config.setJdbcUrl(jdbcUrl);
        config.setMaximumPoolSize(size);
        config.setConnectionTimeout(1_000);
        config.setInitializationFailTimeout(-1);
        return new HikariDataSource(config);
    }

    /**
     * A pool as an application would make it: HikariCP's defaults (among them a 30 s connection
     * timeout) but for its name and size.
     */
    public HikariDataSource applicationPool(String poolName, int size) {
        HikariConfig config = new HikariConfig();
        config.setPoolName(poolName);
        config.setJdbcUrl(jdbcUrl());
        config.setMaximumPoolSize(size);
        return new HikariDataSource(config);
    }

    /** Runs one statement on a connection of its own, in auto-commit. */
    public void execute(String sql) {
        try (Connection connection = dataSource().getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException("on " + name() + ": " + sql, e);
        }
    }

    /**
     * How many deadlocks the server has detected since it started, where the server counts them
     * at once; empty where no such count can be trusted at the moment it is read.
     */
    public OptionalLong deadlocksDetected() {
        return OptionalLong.empty();
    }

    /** Runs a query on a connection of its own and reads one number from its first row. */
    protected long queryLong(String sql, int column) {
        try (Connection connection = dataSource().getConnection();
                Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery(sql)) {
            if (!row.next()) {
                throw new IllegalStateException("on " + name() + ": no row from " + sql);
            }
            return row.getLong(column);
        } catch (SQLException e) {
            throw new IllegalStateException("on " + name() + ": " + sql, e);
        }
    }

    /** Drops a table the test made. */
    public void dropTable(String table) {
        execute("DROP TABLE IF EXISTS " + table);
    }

    /** Drops a counter table and the companions {@code migrate()} creates beside it. */
    public void dropCounterTables(String table) {
        for (String name : counterTables(table)) {
            dropTable(name);
        }
    }

    /** A counter table and the companions {@code migrate()} creates beside it. */
    protected static List<String> counterTables(String table) {
        return SchemaMigrator.SUFFIXES.stream().map(suffix -> table + suffix).toList();
    }

    private HikariDataSource newPool(String poolName, int size, String initSql) {
        HikariConfig config = new HikariConfig();
        config.setPoolName(poolName);
        config.setJdbcUrl(jdbcUrl());
        config.setMaximumPoolSize(size);
        // Connections beyond a few are made when a test needs them and closed soon after, so that
        // the shared pools do not hold most of a server's connections (PostgreSQL allows 100) while
        // a test starts services of their own.
        config.setMinimumIdle(Math.min(size, 4));
        config.setIdleTimeout(10_000);
        config.setConnectionTimeout(10_000);
        // Fail at once, loudly, when the server cannot be reached: the test must not skip.
        config.setInitializationFailTimeout(10_000);
        if (initSql != null) {
            config.setConnectionInitSql(initSql);
        }
        return new HikariDataSource(config);
    }

    @Override
    public String toString() {
        return name();
    }
}
