package io.slotted.internal.write;

import static org.assertj.core.api.Assertions.assertThat;

import io.slotted.BucketUnit;
import io.slotted.SlottedCounters;
import io.slotted.db.H2TestDatabase;
import io.slotted.internal.dialect.BucketRow;
import io.slotted.internal.dialect.Dialect;
import io.slotted.internal.dialect.Dialects;
import io.slotted.internal.schema.SchemaMigrator;
import io.slotted.internal.sql.BucketKey;
import io.slotted.internal.sql.TableName;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * H2 repeats a statement that meets a row another session changed meanwhile without undoing what
 * the statement had already changed, so a statement adding to several rows can add to some twice.
 * Bucket rows are written there one per statement: four sessions adding to rows that a fifth keeps
 * deleting still leave every other row exactly what was committed to it.
 */
class BucketRowsOnH2Test {
    private static final int TYPE = 7;
    private static final long BUCKET = 1_764_000_000_000L;
    private static final int COUNTED = 10;
    private static final long CHURNED_FROM = 100;
    private static final int CHURNED = 10;

    private final H2TestDatabase db = H2TestDatabase.instance();
    private final String table = "t_" + ProcessHandle.current().pid() + "_bucket_rows";

    @AfterEach
    void dropTables() {
        db.dropCounterTables(table);
    }

    @Test
    void sessionsAddingToRowsAnotherDeletes_addEachCommittedDeltaOnce() throws Exception {
        DataSource dataSource = db.dataSource();
        try (SlottedCounters counters = SlottedCounters.builder(dataSource).table(table)
                .buckets(TYPE, BucketUnit.HOUR, Duration.ofDays(30)).build()) {
            counters.migrate();
        }
        TableName buckets = TableName.parse(table).withSuffix(SchemaMigrator.BUCKETS_SUFFIX);
        Dialect dialect;
        try (Connection connection = dataSource.getConnection()) {
            dialect = Dialects.detect(connection);
        }
        AtomicLongArray committed = new AtomicLongArray(COUNTED);
        AtomicInteger commits = new AtomicInteger();
        AtomicBoolean adding = new AtomicBoolean(true);

        Thread deleter = new Thread(() -> deleteChurnedRows(dataSource, buckets, adding));
        deleter.start();
        List<Thread> sessions = new ArrayList<>();
        for (int s = 0; s < 4; s++) {
            Random random = new Random(20261127L + s);
            Thread session = new Thread(() -> {
                try (Connection connection = dataSource.getConnection()) {
                    connection.setAutoCommit(false);
                    for (int i = 0; i < 1_500; i++) {
                        int[] counted = random.ints(3, 0, COUNTED).distinct().sorted().toArray();
                        List<BucketRow> rows = new ArrayList<>();
                        for (int id : counted) {
                            rows.add(row(id));
                        }
                        random.ints(3, 0, CHURNED).distinct().sorted().forEach(id -> rows.add(row(CHURNED_FROM + id)));
                        try {
                            BucketRows.upsert(connection, dialect, buckets, rows);
                            connection.commit();
                        } catch (SQLException e) {
                            connection.rollback(); // a deadlock or a lost race: nothing of it counts
                            continue;
                        }
                        commits.incrementAndGet();
                        for (int id : counted) {
                            committed.incrementAndGet(id);
                        }
                    }
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            sessions.add(session);
            session.start();
        }
        for (Thread session : sessions) {
            session.join();
        }
        adding.set(false);
        deleter.join();

        assertThat(commits.get()).as("most transactions commit").isGreaterThan(4_000);
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement();
                var rows = statement.executeQuery("SELECT record_id, count FROM " + buckets
                        + " WHERE record_id < " + COUNTED + " ORDER BY record_id")) {
            int seen = 0;
            while (rows.next()) {
                assertThat(rows.getLong(2)).as("row %d", rows.getLong(1))
                        .isEqualTo(committed.get((int) rows.getLong(1)));
                seen++;
            }
            assertThat(seen).isEqualTo(COUNTED);
        }
    }

    private static BucketRow row(long id) {
        return new BucketRow(new BucketKey(TYPE, BUCKET, id), 0, 1);
    }

    /** Deletes the churned rows, one at a time, until the sessions are done. */
    private static void deleteChurnedRows(DataSource dataSource, TableName buckets, AtomicBoolean adding) {
        Random random = new Random(99);
        try (Connection connection = dataSource.getConnection(); Statement statement = connection.createStatement()) {
            while (adding.get()) {
                try {
                    statement.executeUpdate("DELETE FROM " + buckets + " WHERE record_type = " + TYPE
                            + " AND bucket_start = " + BUCKET + " AND record_id = " + (CHURNED_FROM + random.nextInt(CHURNED)));
                } catch (SQLException e) {
                    // a lock wait timed out: the next delete goes on
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
