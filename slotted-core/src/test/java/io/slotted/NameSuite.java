package io.slotted;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import io.slotted.db.TestDatabase;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The name dictionary on a real database: string ids and type names mapped once, the same in
 * every process and after a restart, counted exactly, read back by name in SQL; numbers left
 * alone; bad names refused; the bounds on new names kept.
 */
@ParameterizedClass(name = "[{arguments}]")
@MethodSource("io.slotted.db.TestDatabases#all")
class NameSuite extends CounterTableTest {
    private static final int TYPE = 3;

    NameSuite(TestDatabase db) {
        super(db);
    }

    private SlottedCountersBuilder builder() {
        return SlottedCounters.builder(db.dataSource()).table(table).flushInterval(Duration.ofMillis(5));
    }

    /** Names such as real clients send: paths, colons, spaces, Unicode, the longest allowed. */
    private static List<String> names(int count, long seed) {
        Random random = new Random(seed);
        List<String> names = new ArrayList<>();
        names.add("/blog/hello-world");
        names.add("post:8f3a");
        names.add("alice smith");
        names.add("Alice Smith");
        names.add("alice smith ");
        names.add("Zürich – 東京 😀");
        names.add("x".repeat(CounterNames.MAX_ID_BYTES - 4) + "😀");
        names.add("+5");
        names.add("99999999999999999999");
        while (names.size() < count) {
            names.add("user-" + Long.toHexString(random.nextLong()));
        }
        return names;
    }

    @Test
    void stringIds_countedByManyThreads_totalsExactAndReadableByNameInSql() throws Exception {
        long seed = 20261126L;
        System.out.println("seed " + seed);
        SlottedCounters counters = migrated(builder());
        List<String> names = names(300, seed);
        Map<String, AtomicLong> expected = new ConcurrentHashMap<>();
        runConcurrently(16, thread -> {
            Random random = new Random(seed + thread);
            for (int i = 0; i < 400; i++) {
                String name = names.get(random.nextInt(names.size()));
                long delta = 1 + random.nextInt(5);
                counters.add(TYPE, counters.names().id(TYPE, name), delta);
                expected.computeIfAbsent(name, n -> new AtomicLong()).addAndGet(delta);
            }
        });
        Map<String, Long> bySql = totalsByName();
        assertThat(bySql).hasSameSizeAs(expected);
        expected.forEach((name, total) -> {
            assertThat(bySql.get(name)).as(name).isEqualTo(total.get());
            assertThat(counters.get(TYPE, counters.names().id(TYPE, name))).as(name).isEqualTo(total.get());
        });
    }

    @Test
    void mappedIds_areDistinctAndBelowTheNumericRange_andReadBack() {
        SlottedCounters counters = migrated(builder());
        List<String> names = names(200, 7);
        Map<Long, String> byNumber = new HashMap<>();
        for (String name : names) {
            long id = counters.names().id(TYPE, name);
            assertThat(CounterNames.isMapped(id)).as(name).isTrue();
            assertThat(byNumber.put(id, name)).as(name).isNull();
        }
        assertThat(counters.names().idsOf(TYPE, byNumber.keySet())).isEqualTo(byNumber);
        assertThat(counters.names().idsOf(TYPE, List.of(42L))).isEmpty();
    }

    @Test
    void twoProcessesMeetingTheSameNewNamesAtOnce_getOneNumberEach_andARestartKeepsThem() throws Exception {
        migrated(builder()).close();
        List<String> names = names(1000, 11);
        List<Map<String, Long>> seen = List.of(new ConcurrentHashMap<>(), new ConcurrentHashMap<>());
        try (HikariDataSource first = db.applicationPool("names-a", 4);
                HikariDataSource second = db.applicationPool("names-b", 4);
                SlottedCounters a = SlottedCounters.builder(first).table(table).build();
                SlottedCounters b = SlottedCounters.builder(second).table(table).build()) {
            List<SlottedCounters> processes = List.of(a, b);
            runConcurrently(8, thread -> {
                SlottedCounters process = processes.get(thread % 2);
                List<String> mine = new ArrayList<>(names);
                Collections.shuffle(mine, new Random(thread));
                for (String name : mine) {
                    seen.get(thread % 2).put(name, process.names().id(TYPE, name));
                }
            });
        }
        assertThat(seen.get(0)).hasSize(1000).isEqualTo(seen.get(1));
        assertThat(new HashSet<>(seen.get(0).values())).hasSize(1000);
        SlottedCounters restarted = counters(builder());
        for (String name : names) {
            assertThat(restarted.names().findId(TYPE, name)).as(name).hasValue(seen.get(0).get(name));
        }
        assertThat(rowsOfType(TYPE)).isEqualTo(1000);
    }

    @Test
    void aCandidateHeldByAnotherName_movesTheNewNameToTheNextNumber() throws Exception {
        SlottedCounters counters = migrated(builder());
        long first = Long.MIN_VALUE + Math.floorMod(sha256Prefix("carol"), 1L << 62);
        insertName(TYPE, "not carol", first);
        assertThat(counters.names().id(TYPE, "carol")).isEqualTo(first + 1);
        assertThat(counters.names().id(TYPE, "not carol")).isEqualTo(first);
    }

    @Test
    void numericIds_areThemselves_andTheDictionaryIsNotTouched() throws Exception {
        SlottedCounters counters = migrated(builder());
        CounterNames names = counters.names();
        assertThat(names.id(TYPE, "456")).isEqualTo(456);
        assertThat(names.id(TYPE, "000000012345")).isEqualTo(12345);
        assertThat(names.id(TYPE, "-7")).isEqualTo(-7);
        assertThat(names.id(TYPE, "9223372036854775807")).isEqualTo(Long.MAX_VALUE);
        assertThat(names.id(TYPE, "-4611686018427387904")).isEqualTo(CounterNames.MAPPED_IDS_END);
        assertThat(rowsOfType(TYPE)).isZero();
    }

    @Test
    void badIds_areRefusedWithTheRule_andRecordNothing() throws Exception {
        CounterNames names = migrated(builder()).names();
        assertThatThrownBy(() -> names.id(TYPE, "")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("empty");
        assertThatThrownBy(() -> names.id(TYPE, "a\0b")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("NUL");
        assertThatThrownBy(() -> names.id(TYPE, "x".repeat(513))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at most 512 bytes").hasMessageContaining("has 513");
        assertThatThrownBy(() -> names.id(TYPE, "é".repeat(257))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has 514");
        assertThatThrownBy(() -> names.id(TYPE, "a\uD800")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lone surrogate");
        assertThatThrownBy(() -> names.id(TYPE, "-4611686018427387905")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("kept for string ids");
        assertThatThrownBy(() -> names.type("Views")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lowercase");
        assertThat(rowsOfType(TYPE)).isZero();
        assertThat(rowsOfType(SlottedCounters.RESERVED_RECORD_TYPE)).isZero();
    }

    @Test
    void findId_ofAnUnknownName_isEmptyAndRecordsNothing() throws Exception {
        CounterNames names = migrated(builder()).names();
        assertThat(names.findId(TYPE, "nobody")).isEmpty();
        assertThat(names.findType("nothing")).isEmpty();
        assertThat(rowsOfType(TYPE)).isZero();
        long id = names.id(TYPE, "somebody");
        assertThat(names.findId(TYPE, "somebody")).hasValue(id);
    }

    @Test
    void typeNames_recordedOnFirstUse_theSameInEveryProcess_andPinnedNumbersKept() throws Exception {
        SlottedCounters counters = migrated(builder());
        int views = counters.names().type("views");
        assertThat(views).isGreaterThanOrEqualTo(CounterNames.FIRST_NAMED_TYPE);
        counters.names().pin("downloads", 1);
        SlottedCounters other = counters(builder());
        assertThat(other.names().type("views")).isEqualTo(views);
        assertThat(other.names().findType("downloads")).isEqualTo(OptionalInt.of(1));
        other.names().pin("downloads", 1);
        assertThatThrownBy(() -> other.names().pin("downloads", 2)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("maps it to 1 already");
        assertThatThrownBy(() -> other.names().pin("uploads", 1)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("maps 1 to another name");
        assertThatThrownBy(() -> other.names().pin("views", 5)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("maps it to " + views);
        assertThat(rowsOfType(SlottedCounters.RESERVED_RECORD_TYPE)).isEqualTo(2);
    }

    @Test
    void newIdsOverThePerSecondBound_areRefusedAndRecordNothing_whileRecordedOnesAreServed() throws Exception {
        ManualTicker ticker = new ManualTicker();
        SlottedCounters counters = migrated(builder().writeMode(WriteMode.DIRECT).ticker(ticker).newNamesPerSecond(5));
        CounterNames names = counters.names();
        for (int i = 0; i < 5; i++) {
            names.id(TYPE, "early-" + i);
        }
        assertThatThrownBy(() -> names.id(TYPE, "one too many")).isInstanceOf(NameLimitException.class)
                .hasMessageContaining("more than 5 new ids per second");
        assertThat(names.findId(TYPE, "one too many")).isEmpty();
        SlottedCounters other = counters(builder().writeMode(WriteMode.DIRECT).ticker(ticker).newNamesPerSecond(5));
        for (int i = 0; i < 5; i++) {
            other.names().id(TYPE, "early-" + i); // recorded already: costs none of the allowance
        }
        assertThat(rowsOfType(TYPE)).isEqualTo(5);
        ticker.advance(Duration.ofSeconds(1));
        assertThat(CounterNames.isMapped(names.id(TYPE, "one too many"))).isTrue();
    }

    @Test
    void typeNamesBeyondTheBound_areRefusedAndRecordNothing() throws Exception {
        CounterNames names = migrated(builder().maxTypeNames(2)).names();
        names.type("a");
        names.type("b");
        assertThatThrownBy(() -> names.type("c")).isInstanceOf(NameLimitException.class)
                .hasMessageContaining("holds 2 type names");
        assertThat(names.type("a")).isGreaterThanOrEqualTo(CounterNames.FIRST_NAMED_TYPE);
        assertThat(rowsOfType(SlottedCounters.RESERVED_RECORD_TYPE)).isEqualTo(2);
    }

    @Test
    void aDictionaryNotYetMigrated_failsWithTheAdviceToMigrate() {
        SlottedCounters counters = counters(builder());
        assertThatThrownBy(() -> counters.names().id(TYPE, "alice")).isInstanceOf(SlottedException.class)
                .hasMessageContaining(table + "_names");
    }

    private Map<String, Long> totalsByName() throws Exception {
        Map<String, Long> totals = new HashMap<>();
        try (Connection connection = db.dataSource().getConnection();
                PreparedStatement select = connection.prepareStatement("SELECT n.name, SUM(c.count) FROM "
                        + table + " c JOIN " + table + "_names n ON n.record_type = c.record_type"
                        + " AND n.record_id = c.record_id WHERE c.record_type = ? GROUP BY n.name")) {
            select.setInt(1, TYPE);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    totals.put(rows.getString(1), rows.getLong(2));
                }
            }
        }
        return totals;
    }

    private long rowsOfType(int recordType) throws Exception {
        try (Connection connection = db.dataSource().getConnection();
                PreparedStatement select = connection.prepareStatement(
                        "SELECT COUNT(*) FROM " + table + "_names WHERE record_type = ?")) {
            select.setInt(1, recordType);
            try (ResultSet row = select.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        }
    }

    private void insertName(int recordType, String name, long number) throws Exception {
        try (Connection connection = db.dataSource().getConnection();
                PreparedStatement insert = connection.prepareStatement("INSERT INTO " + table
                        + "_names (record_type, name, record_id, created_ms) VALUES (?, ?, ?, 0)")) {
            insert.setInt(1, recordType);
            insert.setString(2, name);
            insert.setLong(3, number);
            insert.executeUpdate();
        }
    }

    /** The documented rule's hash: the first 64 bits of the SHA-256 of the UTF-8 bytes. */
    private static long sha256Prefix(String name) throws Exception {
        byte[] digest = MessageDigest.getInstance("SHA-256").digest(name.getBytes(StandardCharsets.UTF_8));
        long hash = 0;
        for (int i = 0; i < 8; i++) {
            hash = (hash << 8) | (digest[i] & 0xff);
        }
        return hash;
    }
}
