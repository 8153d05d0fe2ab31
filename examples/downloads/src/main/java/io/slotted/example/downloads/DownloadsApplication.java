package io.slotted.example.downloads;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * Records downloads of repositories and counts them with Slotted.
 *
 * <p>A download is a row in {@code downloads} and an increment of the repository's counter, in one
 * transaction ({@code slotted.join-transactions=true}): both land, or neither. The counter type is
 * bound to {@code repositories.downloads_count}, which Slotted rolls up every second
 * ({@code slotted.roll-up-every=1s}), so the most-downloaded page is a plain
 * {@code ORDER BY downloads_count} on the application's own table.
 *
 * <pre>
 * java -jar target/slotted-example-downloads.jar                                   # H2 in memory
 * java -jar target/slotted-example-downloads.jar --spring.profiles.active=mariadb  # MariaDB on 127.0.0.1:3306
 * curl -X POST localhost:8080/repositories/1/downloads
 * curl localhost:8080/
 * </pre>
 */
@SpringBootApplication
public class DownloadsApplication {
    /** The counter type of downloads: Slotted's {@code record_type}. */
    static final int DOWNLOADS = 1;

    /**
     * Starts the application.
     *
     * @param args Spring Boot's arguments, such as {@code --spring.profiles.active=mariadb}
     */
    public static void main(String[] args) {
        SpringApplication.run(DownloadsApplication.class, args);
    }
}
