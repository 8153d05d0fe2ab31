package io.slotted.db;

import java.util.Optional;

/**
 * MySQL 8: the server named by {@code SLOTTED_TEST_MYSQL_URL}. No MySQL server can be started
 * from Maven Central, so the suites run on MySQL only where the variable names one, for example
 * {@code jdbc:mariadb://127.0.0.1:3307/test?user=root} (MariaDB's driver speaks to MySQL).
 */
public final class MySqlTestDatabase extends InnoDbTestDatabase {
    /** The environment variable naming an existing server. */
    public static final String URL_VARIABLE = "SLOTTED_TEST_MYSQL_URL";
    /** A URL on which nothing listens. */
    private static final String UNREACHABLE_URL = "jdbc:mariadb://127.0.0.1:1/test?user=root&connectTimeout=2000";

    private static MySqlTestDatabase configured;

    private final String url;

    private MySqlTestDatabase(String url) {
        this.url = url;
    }

    /** The server named by the environment, if one is named. */
    public static synchronized Optional<MySqlTestDatabase> configured() {
        String url = System.getenv(URL_VARIABLE);
        if (url == null || url.isBlank()) {
            return Optional.empty();
        }
        if (configured == null) {
            configured = new MySqlTestDatabase(url);
        }
        return Optional.of(configured);
    }

    @Override
    public String name() {
        return "MySQL";
    }

    @Override
    public String jdbcUrl() {
        return url;
    }

    @Override
    public String unreachableJdbcUrl() {
        return UNREACHABLE_URL;
    }
}
