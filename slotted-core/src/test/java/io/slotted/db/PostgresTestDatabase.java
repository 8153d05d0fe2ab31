package io.slotted.db;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * PostgreSQL: the server named by {@code SLOTTED_TEST_POSTGRES_URL} when it is set (CI sets it to
 * the machine's service), otherwise a real PostgreSQL started from Maven Central for this run.
 */
public final class PostgresTestDatabase extends ServerTestDatabase {
    /** A URL on which nothing listens. */
    public static final String UNREACHABLE_URL = "jdbc:postgresql://127.0.0.1:1/test?user=postgres&connectTimeout=2";
    /** The environment variable naming an existing server. */
    public static final String URL_VARIABLE = "SLOTTED_TEST_POSTGRES_URL";

    private static PostgresTestDatabase configured;
    private static PostgresTestDatabase embedded;

    private final String url;

    private PostgresTestDatabase(String url) {
        this.url = url;
    }

    /** The server named by the environment, or the embedded one when none is named. */
    public static synchronized PostgresTestDatabase instance() {
        String url = System.getenv(URL_VARIABLE);
        if (url == null || url.isBlank()) {
            return embedded();
        }
        if (configured == null) {
            configured = new PostgresTestDatabase(url);
        }
        return configured;
    }

    /** A server at a URL of the caller's choosing, such as a private embedded one. */
    public static PostgresTestDatabase at(String url) {
        return new PostgresTestDatabase(url);
    }

    /** Always the embedded server, to prove that a machine with only a JDK and Maven can test. */
    public static synchronized PostgresTestDatabase embedded() {
        if (embedded == null) {
            embedded = new PostgresTestDatabase(EmbeddedPostgresServer.shared().jdbcUrl());
        }
        return embedded;
    }

    @Override
    public String name() {
        return url.equals(System.getenv(URL_VARIABLE)) ? "PostgreSQL" : "PostgreSQL (embedded)";
    }

    @Override
    public String jdbcUrl() {
        return url;
    }

    @Override
    protected String shortLockWaitSql() {
        return "SET lock_timeout = '500ms'";
    }

    /**
     * None to trust: {@code pg_stat_database.deadlocks} is counted in the detecting backend's
     * pending statistics, which reach shared memory only when that backend goes idle (at most once
     * a second, otherwise some ten seconds later) or exits, so a read right after a deadlock may
     * not show it yet, and only waiting could tell.
     */
    @Override
    public OptionalLong deadlocksDetected() {
        return OptionalLong.empty();
    }

    /** The seed's table in PostgreSQL's words: a serial id, INT columns, the same unique key. */
    @Override
    public String seedTableDdl(String table) {
        return "CREATE TABLE " + table + " ("
                + "id serial PRIMARY KEY, "
                + "record_type int NOT NULL, "
                + "record_id int NOT NULL, "
                + "slot int NOT NULL DEFAULT 0, "
                + "count int DEFAULT NULL, "
                + "CONSTRAINT " + table + "_records_and_slots UNIQUE (record_type, record_id, slot))";
    }

    @Override
    public String unreachableJdbcUrl() {
        return UNREACHABLE_URL;
    }

    @Override
    public boolean sendsStatementsTogether() {
        return true;
    }

    /**
     * PgJDBC is told not to negotiate TLS and not to turn COMMIT into a named server-side
     * statement after a few uses, so that the proxy sees the word COMMIT on every commit.
     */
    @Override
    public String jdbcUrlVia(String host, int port) {
        return super.jdbcUrlVia(host, port) + "&sslmode=disable&prepareThreshold=0";
    }

    @Override
    public List<String> lockTableStatements(String table) {
        return List.of("LOCK TABLE " + table + " IN ACCESS EXCLUSIVE MODE");
    }

    /** None: the rollback releases the lock. */
    @Override
    public String unlockTablesStatement() {
        return null;
    }

    @Override
    public String createReadOnlyUser(String user, String table) {
        execute("CREATE ROLE " + user + " LOGIN PASSWORD 'read-only'");
        execute("GRANT SELECT ON " + String.join(", ", counterTables(table)) + " TO " + user);
        return jdbcUrlAs(user, "read-only");
    }

    @Override
    public String jdbcUrlInSchema(String schema) {
        return jdbcUrl() + (jdbcUrl().contains("?") ? "&" : "?") + "currentSchema=" + schema;
    }

    @Override
    public String createLeastPrivilegeUser(String user, String schema) {
        execute("CREATE ROLE " + user + " LOGIN PASSWORD 'least'");
        execute("GRANT USAGE ON SCHEMA " + schema + " TO " + user);
        execute("GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA " + schema + " TO " + user);
        execute("ALTER DEFAULT PRIVILEGES IN SCHEMA " + schema + " GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO "
                + user);
        String url = jdbcUrlAs(user, "least");
        return url + "&currentSchema=" + schema;
    }

    @Override
    public void revoke(String privilege, String user, String schema) {
        execute("REVOKE " + privilege + " ON ALL TABLES IN SCHEMA " + schema + " FROM " + user);
    }

    @Override
    public void dropUser(String user) {
        execute("DROP ROLE IF EXISTS " + user);
    }

    @Override
    public void restartSeedIdsAt(String table, long next) {
        execute("SELECT setval(pg_get_serial_sequence('" + table + "', 'id'), " + (next - 1) + ")");
    }

    @Override
    public Optional<PrivateServers> privateServers() {
        return Optional.of(new PrivateServers(EmbeddedPostgresServer::privateServer,
                EmbeddedPostgresServer::privateServerWithTls, PostgresTestDatabase::at));
    }
}
