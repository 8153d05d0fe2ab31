package io.slotted.db;

import java.util.Optional;
import java.util.OptionalLong;

/**
 * MariaDB: the server named by {@code SLOTTED_TEST_MARIADB_URL} when it is set (CI sets it to the
 * machine's service), otherwise a real MariaDB started from Maven Central for this test run.
 */
public final class MariaDbTestDatabase extends InnoDbTestDatabase {
    /** A URL on which nothing listens. */
    public static final String UNREACHABLE_URL = "jdbc:mariadb://127.0.0.1:1/test?user=root&connectTimeout=2000";
    /** The environment variable naming an existing server. */
    public static final String URL_VARIABLE = "SLOTTED_TEST_MARIADB_URL";

    private static MariaDbTestDatabase configured;
    private static MariaDbTestDatabase embedded;

    private final String url;

    private MariaDbTestDatabase(String url) {
        this.url = url;
    }

    /** The server named by the environment, or the embedded one when none is named. */
    public static synchronized MariaDbTestDatabase instance() {
        String url = System.getenv(URL_VARIABLE);
        if (url == null || url.isBlank()) {
            return embedded();
        }
        if (configured == null) {
            configured = new MariaDbTestDatabase(url);
        }
        return configured;
    }

    /** A server at a URL of the caller's choosing, such as a private embedded one. */
    public static MariaDbTestDatabase at(String url) {
        return new MariaDbTestDatabase(url);
    }

    /** Always the embedded server, to prove that a machine with only a JDK and Maven can test. */
    public static synchronized MariaDbTestDatabase embedded() {
        if (embedded == null) {
            embedded = new MariaDbTestDatabase(EmbeddedMariaDbServer.shared().jdbcUrl("test"));
        }
        return embedded;
    }

    @Override
    public String name() {
        return url.equals(System.getenv(URL_VARIABLE)) ? "MariaDB" : "MariaDB (embedded)";
    }

    @Override
    public String jdbcUrl() {
        return url;
    }

    /** InnoDB counts a deadlock in the moment it detects it, before either transaction moves on. */
    @Override
    public OptionalLong deadlocksDetected() {
        return OptionalLong.of(queryLong("SHOW GLOBAL STATUS LIKE 'Innodb_deadlocks'", 2));
    }

    @Override
    public String unreachableJdbcUrl() {
        return UNREACHABLE_URL;
    }

    /** MariaDB 11.4 makes its own certificate; its TLS library names ciphers like TLS13-AES256-GCM-SHA384. */
    @Override
    public Optional<PrivateServers> privateServers() {
        return Optional.of(new PrivateServers(EmbeddedMariaDbServer::privateServer,
                EmbeddedMariaDbServer::privateServerWithTls, MariaDbTestDatabase::at));
    }
}
