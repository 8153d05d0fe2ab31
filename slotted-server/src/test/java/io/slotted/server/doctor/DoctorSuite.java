package io.slotted.server.doctor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import io.slotted.SlottedCounters;
import io.slotted.SlottedSchema;
import io.slotted.db.RestartableServer;
import io.slotted.db.ServerTestDatabase;
import io.slotted.server.doctor.locks.HotRow;
import io.slotted.server.doctor.locks.HotRows;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code slotted doctor} against real contention on a real server: 32 connections updating one
 * row, a quiet database, a deadlock made on purpose, each check of Slotted's tables tripped by the
 * state it looks for, and the doctor's connection in plain text over loopback and encrypted. On
 * each server of which a test can start a private one, to give it TLS.
 */
@ParameterizedClass(name = "[{arguments}]")
@MethodSource("io.slotted.db.TestDatabases#withPrivateServers")
class DoctorSuite {
    private static final AtomicInteger TABLES = new AtomicInteger();

    private final ServerTestDatabase db;
    private String table;

    DoctorSuite(ServerTestDatabase db) {
        this.db = db;
    }

    @BeforeEach
    void freshTable() {
        table = freshName();
    }

    /** A name for a table or a user that no other test of this run takes. */
    static String freshName() {
        return "doc_" + ProcessHandle.current().pid() + "_" + TABLES.incrementAndGet();
    }

    private DoctorReport examine(Duration watch) {
        return examine(watch, table + "_counters");
    }

    private DoctorReport examine(Duration watch, String slottedTable) {
        DoctorSettings settings = DoctorSettings.watching(watch, "").withTable(slottedTable);
        return new Doctor(db.dataSource(), settings, Clock.systemUTC()).examine();
    }

    /** A run without a window on another pool, such as one reaching the server another way. */
    protected static DoctorReport examineOn(DataSource dataSource) {
        return new Doctor(dataSource, DoctorSettings.watching(Duration.ZERO, ""), Clock.systemUTC()).examine();
    }

    @Test
    void thirtyTwoSessionsUpdatingOneRow_nameTheTableTheKeyAndTheStatement_andAdviseAdopting()
            throws Exception {
        db.execute("CREATE TABLE " + table + " (id INT PRIMARY KEY, n BIGINT NOT NULL)");
        db.execute("INSERT INTO " + table + " VALUES (1, 0), (2, 0)");
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong updates = new AtomicLong();
        ExecutorService sessions = Executors.newFixedThreadPool(32);
        List<Future<?>> work = new ArrayList<>();
        DoctorReport report;
        // The sessions have a pool of their own, as the application would, so that the doctor's
        // connections never queue behind the 32 sessions' while the pool opens them on a busy machine.
        try (HikariDataSource application = db.applicationPool(table + "-sessions", 32)) {
            for (int s = 0; s < 32; s++) {
                work.add(sessions.submit(() -> {
                    try (Connection connection = application.getConnection();
                            Statement statement = connection.createStatement()) {
                        while (!stop.get()) {
                            statement.executeUpdate("UPDATE " + table + " SET n = n + 1 WHERE id = 1");
                            updates.incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> updates.get() >= 100);
            report = examine(Duration.ofSeconds(3));
            stop.set(true);
            for (Future<?> session : work) {
                session.get(1, TimeUnit.MINUTES);
            }
        } finally {
            stop.set(true);
            sessions.shutdown();
        }

        System.out.println(DoctorText.render(report));
        assertThat(report.hotRows()).as("the one hot row").hasSize(1);
        HotRow row = report.hotRows().get(0);
        assertThat(row.table()).endsWith("." + table);
        assertThat(row.key()).isEqualTo(Map.of("id", "1"));
        assertThat(row.statement()).isEqualTo("UPDATE " + table + " SET n = n + ? WHERE id = ?");
        assertThat(row.waits()).isGreaterThanOrEqualTo(HotRows.MIN_WAITS);
        assertThat(row.sessions()).isGreaterThan(1).isLessThanOrEqualTo(32);
        assertThat(row.advice()).contains("slotted adopt 1 --owner " + table + ".id.n");
        assertThat(report.hasFindings()).isTrue();
        assertThat(report.toJson()).contains("\"hot_rows\"").contains("\"total_wait_millis\"");
    }

    @Test
    void aQuietDatabase_hasNoHotRows() {
        DoctorReport report = examine(Duration.ofSeconds(1));

        assertThat(report.hotRows()).isEmpty();
        assertThat(report.samples()).isGreaterThan(1);
        assertThat(report.missingGrants()).isEmpty();
        assertThat(report.checks()).isNotEmpty().allSatisfy(check -> assertThat(check.ok()).as(check.toString()).isTrue());
        assertThat(report.hasFindings()).as(DoctorText.render(report)).isFalse();
    }

    @Test
    void theDoctorsOwnLoopbackConnection_isPlain_andOk_andSaysWhatItSaw() {
        DoctorReport report = examine(Duration.ZERO);

        Check connection = check(report, SessionTransport.CHECK);
        assertThat(connection.ok()).as(connection.toString()).isTrue();
        // MariaDB names a client by host name when it resolves names: localhost, or the address.
        assertThat(connection.value()).matches("not encrypted, over loopback \\((127\\.0\\.0\\.1|localhost)\\)");
        assertThat(connection.why()).contains("never leaves this machine");
        assertThat(DoctorText.render(report)).contains("ok   connection encryption: not encrypted, over loopback");
    }

    @Test
    void thisProcesssClock_isCheckedAgainstTheDatabases_andFiveSecondsOffIsAFinding() {
        Check same = check(examine(Duration.ZERO), ClockCheck.CHECK);
        assertThat(same.ok()).as(same.toString()).isTrue();
        assertThat(same.value()).matches("the database's clock is .* \\(± [0-9]+ ms\\)");

        DoctorSettings settings = DoctorSettings.watching(Duration.ZERO, "").withTable(table + "_counters");
        Clock slow = Clock.offset(Clock.systemUTC(), Duration.ofSeconds(-5));
        Check skewed = check(new Doctor(db.dataSource(), settings, slow).examine(), ClockCheck.CHECK);
        assertThat(skewed.ok()).as(skewed.toString()).isFalse();
        assertThat(skewed.value()).matches("the database's clock is [0-9]+ ms ahead of this process's .*");
        assertThat(skewed.advice()).contains("synchronised").contains("within 1 s");
    }

    /**
     * On a private server of this kind with TLS on, since the shared test servers run without it;
     * the doctor's connection asks for TLS in its URL.
     */
    @Test
    void anEncryptedSession_isOk_andNamesTheProtocolAndCipher() {
        RestartableServer server = privateServerWithTls();
        DoctorReport report;
        try (HikariDataSource encrypted = db.poolFor(server.jdbcUrl(), "doctor-tls", 2)) {
            report = examineOn(encrypted);
        } finally {
            server.stop();
        }

        System.out.println(DoctorText.render(report));
        Check connection = check(report, SessionTransport.CHECK);
        assertThat(connection.ok()).as(connection.toString()).isTrue();
        // A server that resolves its clients' names calls a loopback one localhost.
        assertThat(connection.value())
                .matches("encrypted \\(TLSv1\\.[23], [A-Za-z0-9_-]+\\), over loopback \\((localhost|127\\.0\\.0\\.1)\\)");
    }

    /**
     * The upkeep of the row versions every increment leaves. On PostgreSQL, on a private server
     * with autovacuum turned off, a counter table made by the application's own DDL (fillfactor
     * 100) and updated three times over: autovacuum, its dead versions and its share of HOT
     * updates are findings; fixed as their advice says (autovacuum on, fillfactor 50 and the table
     * rewritten, its counters reset), the same updates again are quiet. On MariaDB, the purge's
     * history list length is read, short on a server at rest.
     */
    @Test
    void theRowVersionsIncrementsLeave_autovacuumOffDeadVersionsFewHotUpdates_areFindings_quietOnceFixed()
            throws Exception {
        String counters = table + "_counters";
        String ddl = "CREATE TABLE " + counters + " (record_type INT NOT NULL, record_id BIGINT NOT NULL,"
                + " slot INT NOT NULL, count BIGINT NOT NULL, PRIMARY KEY (record_type, record_id, slot))";
        if (!db.name().startsWith("PostgreSQL")) {
            db.execute(ddl);
            Check purge = check(examine(Duration.ZERO), "InnoDB purge");
            assertThat(purge.ok()).as(purge.toString()).isTrue();
            assertThat(purge.value()).startsWith("history list length");
            return;
        }
        RestartableServer server = db.privateServers().orElseThrow().privateServer("doctor-upkeep");
        try (HikariDataSource pool = db.poolFor(server.jdbcUrl(), "doctor-upkeep", 2)) {
            run(pool, "ALTER SYSTEM SET autovacuum = off", "SELECT pg_reload_conf()", ddl,
                    "INSERT INTO " + counters + " SELECT 1, id, 0, 0 FROM generate_series(1, 50000) id");
            for (int pass = 0; pass < 3; pass++) {
                run(pool, "UPDATE " + counters + " SET count = count + 1");
            }
            awaitUpdatesCounted(pool, counters, 150_000);
            DoctorReport before = examineOn(pool, counters);
            System.out.println(DoctorText.render(before));
            assertThat(finding(before, counters + ": autovacuum").value()).isEqualTo("off for the server");
            assertThat(finding(before, counters + ": dead row versions").value()).contains("dead");
            assertThat(finding(before, counters + ": HOT updates").value()).contains("of 150,000 updates (fillfactor 100)");

            run(pool, "ALTER SYSTEM SET autovacuum = on", "SELECT pg_reload_conf()",
                    "ALTER TABLE " + counters + " SET (fillfactor = 50)", "VACUUM FULL " + counters,
                    "SELECT pg_stat_reset_single_table_counters('" + counters + "'::regclass)",
                    "UPDATE " + counters + " SET count = count + 1");
            awaitUpdatesCounted(pool, counters, 50_000);
            DoctorReport after = examineOn(pool, counters);
            System.out.println(DoctorText.render(after));
            for (String name : List.of("autovacuum", "dead row versions", "HOT updates")) {
                Check fixed = check(after, counters + ": " + name);
                assertThat(fixed.ok()).as(fixed.toString()).isTrue();
            }
        } finally {
            server.stop();
        }
    }

    private static DoctorReport examineOn(DataSource dataSource, String slottedTable) {
        return new Doctor(dataSource, DoctorSettings.watching(Duration.ZERO, "").withTable(slottedTable),
                Clock.systemUTC()).examine();
    }

    private static void run(DataSource dataSource, String... statements) throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
            // PostgreSQL sends a session's table statistics at most once a second, or when told to.
            statement.execute("SELECT pg_stat_force_next_flush()");
        }
    }

    /** Waits until PostgreSQL's statistics count this many updates of the table. */
    private static void awaitUpdatesCounted(DataSource dataSource, String table, long updates) {
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement();
                    var row = statement.executeQuery("SELECT n_tup_upd FROM pg_stat_user_tables WHERE relid = '"
                            + table + "'::regclass")) {
                return row.next() && row.getLong(1) >= updates;
            }
        });
    }

    /** A server of this kind, of the test's own, with TLS on, whose URL asks for TLS. */
    private RestartableServer privateServerWithTls() {
        return db.privateServers().orElseThrow().privateServerWithTls("doctor-tls");
    }

    @Test
    void aDeadlockMadeOnPurpose_isReported() throws Exception {
        db.execute("CREATE TABLE " + table + " (id INT PRIMARY KEY, n BIGINT NOT NULL)");
        db.execute("INSERT INTO " + table + " VALUES (1, 0), (2, 0)");
        CompletableFuture<DoctorReport> report = CompletableFuture.supplyAsync(() -> examine(Duration.ofSeconds(3)));
        Thread.sleep(500); // inside the window, after its counters were read
        try (Connection first = db.dataSource().getConnection();
                Connection second = db.dataSource().getConnection()) {
            first.setAutoCommit(false);
            second.setAutoCommit(false);
            update(first, 1);
            update(second, 2);
            CompletableFuture<Void> firstWaits = CompletableFuture.runAsync(() -> updateQuietly(first, 2));
            await().pollDelay(Duration.ofMillis(200)).until(() -> true);
            CompletableFuture<Void> secondWaits = CompletableFuture.runAsync(() -> updateQuietly(second, 1));
            CompletableFuture.allOf(firstWaits, secondWaits).get(30, TimeUnit.SECONDS);
            first.rollback();
            second.rollback();
        }

        DoctorReport found = report.get(1, TimeUnit.MINUTES);
        System.out.println(DoctorText.render(found));
        assertThat(found.deadlocks()).isGreaterThanOrEqualTo(1);
        assertThat(found.hasFindings()).isTrue();
        checkLatestDeadlock(found);
    }

    /**
     * What the database says of the latest deadlock beyond its count, where it says anything
     * (PostgreSQL counts deadlocks but keeps no description of the latest one).
     */
    private void checkLatestDeadlock(DoctorReport report) {
        if (db.describesLatestDeadlock()) {
            assertThat(report.latestDeadlock()).isNotNull();
            assertThat(report.latestDeadlock().rows()).allSatisfy(row -> assertThat(row).contains(table));
            assertThat(report.latestDeadlock().statements()).hasSize(2);
        }
    }

    private void update(Connection connection, int id) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.executeUpdate("UPDATE " + table + " SET n = n + 1 WHERE id = " + id);
        }
    }

    /** An update that may be the deadlock's victim: that failure is the point. */
    private void updateQuietly(Connection connection, int id) {
        try {
            update(connection, id);
        } catch (SQLException e) {
            assertThat(e.getSQLState()).as(e.toString()).isIn("40001", "40P01");
        }
    }

    @Test
    void theSeedsTable_nearItsIntLimits_isReported() {
        String seed = table + "_seed";
        db.execute(db.seedTableDdl(seed));
        db.execute("INSERT INTO " + seed + " (record_type, record_id, slot, count) VALUES (1, 1, 0, 2000000000)");
        exhaustIds(seed);

        DoctorReport report = examine(Duration.ZERO, seed);

        System.out.println(DoctorText.render(report));
        assertThat(finding(report, seed + ": auto-increment id headroom").value()).contains("2,100,000,001");
        assertThat(finding(report, seed + ": count column headroom").value()).contains("2,000,000,000");
        assertThat(check(report, seed + ": slots per counter").value()).contains("type 1: 1 counters");
    }

    @Test
    void slotsPerCounter_countsTheRowsARollUpLeftAtZero() {
        String counters = table + "_zeros";
        db.execute(db.seedTableDdl(counters));
        db.execute("INSERT INTO " + counters + " (record_type, record_id, slot, count) VALUES (1, 1, 0, 5)");
        db.execute("INSERT INTO " + counters + " (record_type, record_id, slot, count) VALUES (1, 1, 1, 0)");
        db.execute("INSERT INTO " + counters + " (record_type, record_id, slot, count) VALUES (1, 2, 0, 0)");

        DoctorReport report = examine(Duration.ZERO, counters);

        assertThat(check(report, counters + ": slots per counter").value())
                .isEqualTo("type 1: 2 counters in 3 slot rows (1.5 each, highest slot 1, 2 of the rows at 0)");
    }

    @Test
    void slotsPerCounter_countsAllowanceRowsApart() {
        String counters = table + "_allowances";
        db.execute(db.seedTableDdl(counters));
        db.execute("INSERT INTO " + counters + " (record_type, record_id, slot, count) VALUES (7, 1, 0, 5)");
        db.execute("INSERT INTO " + counters + " (record_type, record_id, slot, count) VALUES (7, 1, 3, 2)");
        db.execute("INSERT INTO " + counters + " (record_type, record_id, slot, count) VALUES (7, 1, -1, 0)");
        db.execute("INSERT INTO " + counters + " (record_type, record_id, slot, count) VALUES (7, 1, -2, 4)");

        DoctorReport report = examine(Duration.ZERO, counters);

        assertThat(check(report, counters + ": slots per counter").value()).isEqualTo("type 7: 1 counters in 2"
                + " slot rows (2.0 each, highest slot 3) and 2 allowance rows of its limits, below slot 0");
    }

    /** Moves the seed table's next id to 2,100,000,001. */
    private void exhaustIds(String seedTable) {
        db.restartSeedIdsAt(seedTable, 2_100_000_001L);
    }

    @Test
    void abandonedLedgerRows_oldKeys_andALaggingRollUp_areReported() {
        String counters = table + "_counters";
        try (SlottedCounters slotted = SlottedCounters.builder(db.dataSource()).table(counters).build()) {
            slotted.migrate();
        }
        long twoDaysAgo = System.currentTimeMillis() - Duration.ofDays(2).toMillis();
        db.execute("INSERT INTO " + counters + "_ledger (flusher_id, flush_seq, updated_ms) VALUES ('gone', 7, "
                + twoDaysAgo + ")");
        db.execute("INSERT INTO " + counters + "_keys (idempotency_key, fingerprint, flush_ref, created_ms)"
                + " VALUES ('old-key', 'f', 'r', " + twoDaysAgo + ")");
        db.execute("INSERT INTO " + counters + "_types (record_type, owner_table, key_column, count_column,"
                + " owner_mode, slots, bound_ms, rolled_up_ms) VALUES (5, 'repositories', 'id', 'downloads',"
                + " 'fold', 16, " + twoDaysAgo + ", " + (System.currentTimeMillis() - 600_000) + ")");

        DoctorReport report = examine(Duration.ZERO, counters);

        System.out.println(DoctorText.render(report));
        assertThat(finding(report, counters + "_ledger: abandoned flusher rows").value()).startsWith("1 ");
        assertThat(finding(report, counters + "_keys: idempotency keys past retention").value()).startsWith("1 ");
        assertThat(finding(report, "type 5: roll-up lag into repositories.downloads").value()).startsWith("600.");
        assertThat(report.hasFindings()).isTrue();
    }

    @Test
    void theNameDictionary_isCounted_andTypeNamesNearTheirBound_areAFinding() {
        String counters = table + "_counters";
        try (SlottedCounters slotted = SlottedCounters.builder(db.dataSource()).table(counters).build()) {
            slotted.migrate();
            slotted.names().id(slotted.names().type("views"), "/blog/hello-world");
        }
        Check few = check(examine(Duration.ZERO, counters), counters + "_names: the name dictionary");
        assertThat(few.ok()).as(few.toString()).isTrue();
        assertThat(few.value()).isEqualTo("1 type names, 1 string ids");

        StringBuilder rows = new StringBuilder();
        for (int i = 0; i < 800; i++) {
            rows.append(rows.length() == 0 ? "" : ", ").append("(").append(SlottedCounters.RESERVED_RECORD_TYPE)
                    .append(", 'type_").append(i).append("', ").append(1_000 + i).append(", 0)");
        }
        db.execute("INSERT INTO " + counters + "_names (record_type, name, record_id, created_ms) VALUES " + rows);

        Check many = finding(examine(Duration.ZERO, counters), counters + "_names: the name dictionary");
        assertThat(many.value()).isEqualTo("801 type names, 1 string ids");
        assertThat(many.advice()).contains("views_123:1");
    }

    @Test
    void aServiceUserLackingAPrivilegeOnASlottedTable_isAFindingNamingItAndTheGrant_andTheSchemaVersionIsShown()
            throws SQLException {
        String schema = freshName();
        String user = freshName() + "_user";
        String counters = schema + ".slotted_counters";
        db.createSchema(schema);
        try {
            try (SlottedCounters slotted = SlottedCounters.builder(db.dataSource()).table(counters).build()) {
                slotted.migrate();
            }
            String url = db.createLeastPrivilegeUser(user, schema);
            DoctorSettings settings = DoctorSettings.watching(Duration.ZERO, "").withTable(counters);
            String privileges = counters + ": privileges";
            Check granted;
            try (HikariDataSource asTheUser = db.poolFor(url, user, 1)) {
                granted = check(new Doctor(asTheUser, settings, Clock.systemUTC()).examine(), privileges);
            }
            db.revoke("DELETE", user, schema);
            // A new connection: MariaDB applies a database-wide grant's change to sessions begun after it.
            try (HikariDataSource asTheUser = db.poolFor(url, user + "-revoked", 1)) {
                DoctorReport revoked = new Doctor(asTheUser, settings, Clock.systemUTC()).examine();

                assertThat(granted.ok()).as(granted.toString()).isTrue();
                Check lacking = finding(revoked, privileges);
                assertThat(lacking.value()).contains("DELETE on " + counters + "_keys (")
                        .contains("DELETE on " + counters + "_schema (").doesNotContain("INSERT on");
                assertThat(lacking.advice()).contains("GRANT SELECT, INSERT, UPDATE, DELETE ON " + counters + ", "
                        + counters + "_ledger");
                Check version = check(revoked, counters + ": schema version");
                assertThat(version.ok()).as(version.toString()).isTrue();
                assertThat(version.value()).isEqualTo(SlottedSchema.VERSION + ", this release's");
            }
            db.execute("DELETE FROM " + counters + "_schema");
            assertThat(finding(new Doctor(db.dataSource(), settings, Clock.systemUTC()).examine(),
                    counters + ": schema version").value()).isEqualTo("none recorded");
        } finally {
            db.dropSchema(schema);
            db.dropUser(user);
        }
    }

    protected static Check check(DoctorReport report, String name) {
        return report.checks().stream().filter(check -> check.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no check " + name + " in " + report.checks()));
    }

    protected static Check finding(DoctorReport report, String name) {
        Check check = check(report, name);
        assertThat(check.ok()).as(check.toString()).isFalse();
        assertThat(check.advice()).isNotBlank();
        return check;
    }
}
