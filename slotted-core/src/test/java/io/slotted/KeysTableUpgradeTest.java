package io.slotted;

import static org.assertj.core.api.Assertions.assertThat;

import io.slotted.db.MariaDbTestDatabase;
import io.slotted.db.TestDatabase;
import io.slotted.db.TestDatabases;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The upgrade of a keys table only MariaDB had, in the write modes that acknowledge an increment
 * once it is durable.
 */
@ParameterizedClass(name = "[{arguments}]")
@MethodSource("mariaDbInDurableModes")
class KeysTableUpgradeTest extends CounterTableTest {
    private final WriteMode mode;

    KeysTableUpgradeTest(TestDatabase db, WriteMode mode) {
        super(db);
        this.mode = mode;
    }

    static Stream<Arguments> mariaDbInDurableModes() {
        return TestDatabases.inModes(List.of(MariaDbTestDatabase.instance()), WriteMode.DIRECT, WriteMode.GROUPED);
    }

    private SlottedCountersBuilder builder() {
        return SlottedCounters.builder(db.dataSource()).table(table).writeMode(mode);
    }

    /**
     * Earlier releases made the key column {@code ascii_bin}, a PAD SPACE collation that ignores
     * trailing spaces. The keys table is Slotted's own, so {@code migrate()} converts it, keeping
     * the keys recorded before.
     */
    @Test
    void migrate_keysTableWithPaddedKeyColumn_isConvertedSoTrailingSpacesCount() {
        MutableClock clock = new MutableClock();
        String keys = table + "_keys";
        db.execute("CREATE TABLE " + keys + " (idempotency_key VARCHAR(128) CHARACTER SET ascii"
                + " COLLATE ascii_bin NOT NULL, fingerprint VARCHAR(200) NOT NULL,"
                + " flush_ref VARCHAR(100) NOT NULL, created_ms BIGINT NOT NULL,"
                + " PRIMARY KEY (idempotency_key)) ENGINE=InnoDB");
        db.execute("CREATE INDEX " + keys + "_created ON " + keys + " (created_ms)");
        db.execute("INSERT INTO " + keys + " VALUES ('kept', 'add 5 to counter (record_type=1,"
                + " record_id=1)', 'direct', " + clock.millis() + ")");
        SlottedCounters counters = counters(builder().clock(clock));

        MigrationReport report = counters.migrate();

        assertThat(report.actions()).anySatisfy(action -> assertThat(action)
                .contains("converted column idempotency_key of table " + keys)
                .contains("trailing spaces"));
        assertThat(counters.add(1, 1L, 5, "kept")).as("a key from before the upgrade").isFalse();
        assertThat(counters.add(1, 1L, 5, "k")).isTrue();
        assertThat(counters.add(1, 1L, 5, "k ")).as("another key since the upgrade").isTrue();
        assertThat(counters.get(1, 1L)).isEqualTo(10);
        assertThat(counters.migrate().actions()).as("nothing left to convert").isEmpty();
    }
}
