package io.slotted.example.downloads;

import io.slotted.db.MariaDbTestDatabase;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The example's {@code mariadb} profile on a real MariaDB, in a database of its own made afresh,
 * since the profile's tables have fixed names.
 */
@ActiveProfiles("mariadb")
class MariaDbDownloadsApplicationTest extends DownloadsApplicationSuite {
    private static final String DATABASE = "slotted_example_downloads";

    @DynamicPropertySource
    static void freshDatabase(DynamicPropertyRegistry properties) {
        MariaDbTestDatabase server = MariaDbTestDatabase.instance();
        server.execute("DROP DATABASE IF EXISTS " + DATABASE);
        server.execute("CREATE DATABASE " + DATABASE);
        String url = server.jdbcUrl().replaceFirst("/[^/?]*(\\?|$)", "/" + DATABASE + "$1");
        properties.add("spring.datasource.url", () -> url);
    }
}
