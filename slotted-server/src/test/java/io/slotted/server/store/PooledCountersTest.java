package io.slotted.server.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.slotted.WriteMode;
import io.slotted.db.MariaDbTestDatabase;
import io.slotted.server.config.CounterSettings;
import io.slotted.server.config.DatabaseSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Opening the counters on a pool reports each kind of mistake for what it is: a bad setting before
 * anything is connected, an unreachable database or an unusable URL by name.
 */
class PooledCountersTest {
    /** An H2 file database under target/store-h2/NAME, with nothing left from an earlier run. */
    private static DatabaseSettings freshH2(String name) throws IOException {
        Path dir = Path.of("target", "store-h2", name);
        if (Files.exists(dir)) {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
            }
        }
        return h2(dir);
    }

    private static DatabaseSettings h2(Path dir) {
        return new DatabaseSettings("jdbc:h2:file:" + dir.toAbsolutePath().resolve("slotted"), null, null);
    }

    @Test
    void badSlotCount_isRefusedByTheLibrary_beforeAnythingIsConnected() throws IOException {
        DatabaseSettings h2 = freshH2("never-connected");

        assertThatThrownBy(() -> PooledCounters.open(h2,
                new CounterSettings("slotted_counters", WriteMode.GROUPED, 0, Duration.ZERO), 2, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("slots must be between 1 and 1024, but was 0");
        assertThat(Path.of("target", "store-h2", "never-connected"))
                .as("H2 creates its file on the first connection").doesNotExist();
    }

    @Test
    void unreachableDatabase_isReportedWhenOpened_byItsUrl() {
        DatabaseSettings down = new DatabaseSettings(MariaDbTestDatabase.UNREACHABLE_URL, null, null);

        assertThatThrownBy(() -> PooledCounters.open(down, CounterSettings.DEFAULTS, 2, null))
                .isInstanceOf(DatabaseFailure.class)
                .hasMessageStartingWith("cannot reach the database at " + MariaDbTestDatabase.UNREACHABLE_URL);
    }

    @Test
    void urlNoDriverTakes_isReportedAsUnusable() {
        DatabaseSettings unknown = new DatabaseSettings("jdbc:nosuchdb://127.0.0.1/x", null, null);

        assertThatThrownBy(() -> PooledCounters.open(unknown, CounterSettings.DEFAULTS, 2, null))
                .isInstanceOf(DatabaseFailure.class)
                .hasMessageStartingWith("cannot use the database URL jdbc:nosuchdb://127.0.0.1/x");
    }

    @Test
    void socketTimeout_isSetInEachDriversUnit_unlessTheUrlSetsOne_orTheDatabaseIsH2() {
        Duration minute = PooledCounters.SERVICE_SOCKET_TIMEOUT;

        assertThat(minute).isEqualTo(Duration.ofSeconds(60));
        assertThat(PooledCounters.socketTimeout("jdbc:mariadb://db:3306/app?user=slotted", minute))
                .as("MariaDB Connector/J counts milliseconds").contains("60000");
        assertThat(PooledCounters.socketTimeout("jdbc:mysql://db:3306/app", minute)).contains("60000");
        assertThat(PooledCounters.socketTimeout("jdbc:postgresql://db:5432/app", minute))
                .as("PgJDBC counts seconds").contains("60");
        assertThat(PooledCounters.socketTimeout("jdbc:postgresql://db/app", Duration.ofMillis(300)))
                .as("at least the one second PgJDBC can say").contains("1");
        assertThat(PooledCounters.socketTimeout("jdbc:mariadb://db/app?socketTimeout=0", minute))
                .as("the URL's own, even none, wins").isEmpty();
        assertThat(PooledCounters.socketTimeout("jdbc:postgresql://db/app?ssl=true&socketTimeout=600", minute))
                .isEmpty();
        assertThat(PooledCounters.socketTimeout("jdbc:postgresql://db/app?SocketTimeout=600", minute))
                .as("a name the driver does not know sets nothing").contains("60");
        assertThat(PooledCounters.socketTimeout("jdbc:h2:file:./slotted-data/slotted", minute)).isEmpty();
        assertThat(PooledCounters.socketTimeout("jdbc:mariadb://db/app", Duration.ZERO))
                .as("the commands' pools").isEmpty();
    }

    @Test
    void close_drainsTheCountersBeforeClosingThePool() throws IOException {
        DatabaseSettings h2 = freshH2("drained");
        try (PooledCounters store = PooledCounters.open(h2,
                new CounterSettings("slotted_counters", WriteMode.BUFFERED, 4, Duration.ZERO), 2, null)) {
            store.counters().migrate();
            for (int i = 0; i < 100; i++) {
                store.counters().addAsync(1, 7, 5);
            }
        }
        try (PooledCounters store = PooledCounters.open(h2, CounterSettings.DEFAULTS, 2, null)) {
            assertThat(store.counters().get(1, 7)).isEqualTo(500);
        }
    }
}
