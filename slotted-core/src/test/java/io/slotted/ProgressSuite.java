package io.slotted;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.slotted.db.TestDatabase;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The calls that walk a whole table — recount, shrink, release, adopt, migrate — report their
 * steps to a {@link Progress}, and stop where it asks them to with nothing half done: the
 * transactions they committed stay, every total stays exact, and running the call again finishes
 * the work.
 */
@ParameterizedClass(name = "[{arguments}]")
@MethodSource("io.slotted.db.TestDatabases#all")
class ProgressSuite extends CounterTableTest {
    private static final int TYPE = 5;
    /** More counters than one transaction of each call takes (500 or 1,000). */
    private static final int COUNTERS = 2_500;

    ProgressSuite(TestDatabase db) {
        super(db);
    }

    @AfterEach
    void dropOwnerTable() {
        db.dropTable(table + "_owners");
    }

    /** Records the steps and the last advance, and asks to stop once {@code stopWhen} holds. */
    private static final class Recorded implements Progress {
        final List<String> steps = new ArrayList<>();
        long done;
        private final Predicate<Recorded> stopWhen;

        Recorded(Predicate<Recorded> stopWhen) {
            this.stopWhen = stopWhen;
        }

        String step() {
            return steps.isEmpty() ? "" : steps.get(steps.size() - 1);
        }

        @Override
        public void begin(String step, long total, String unit) {
            steps.add(step + " (" + total + " " + unit + ")");
            done = 0;
        }

        @Override
        public void advance(long done) {
            this.done = done;
        }

        @Override
        public boolean stopRequested() {
            return stopWhen.test(this);
        }
    }

    private Map<Long, Long> totals(SlottedCounters counters) {
        List<Long> ids = new ArrayList<>();
        for (long id = 0; id < COUNTERS; id++) {
            ids.add(id);
        }
        Map<Long, Long> totals = new HashMap<>();
        for (int from = 0; from < COUNTERS; from += 1000) {
            totals.putAll(counters.getAll(TYPE, ids.subList(from, Math.min(COUNTERS, from + 1000))));
        }
        return totals;
    }

    /**
     * Gives counter {@code id} the total {@code (id + 1) * times}, in {@code times} batches, each
     * one transaction that writes every counter to a slot of its own choosing.
     */
    private static Map<Long, Long> fill(SlottedCounters counters, int times) {
        Map<Long, Long> expected = new HashMap<>();
        List<Increment> batch = new ArrayList<>();
        for (long id = 0; id < COUNTERS; id++) {
            batch.add(new Increment(TYPE, id, id + 1));
            expected.put(id, (id + 1) * times);
        }
        for (int i = 0; i < times; i++) {
            counters.addAll(batch);
        }
        return expected;
    }

    private long rowsBeyond(int slots) throws SQLException {
        try (Connection connection = db.dataSource().getConnection();
                PreparedStatement select = connection.prepareStatement("SELECT COUNT(*) FROM " + table
                        + " WHERE record_type = ? AND slot >= ?")) {
            select.setInt(1, TYPE);
            select.setInt(2, slots);
            try (ResultSet row = select.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        }
    }

    @Test
    void recount_stoppedWhileRepairing_keepsTheBatchesRepaired_andARecountRepairsTheRest() {
        SlottedCounters counters = migrated(SlottedCounters.builder(db.dataSource()).table(table));
        Map<Long, Long> truth = fill(counters, 1);
        // The truth is one more than each counter holds.
        String source = "SELECT DISTINCT record_id, record_id + 2 FROM " + table + " WHERE record_type = " + TYPE;
        Recorded progress = new Recorded(p -> p.step().startsWith("repairing") && p.done > 0);

        assertThatThrownBy(() -> counters.admin().recount(TYPE, source, true, progress))
                .isInstanceOf(StoppedException.class)
                .hasMessageContaining("stopped after repairing 1000 of the " + COUNTERS + " counters");

        assertThat(progress.steps).containsExactly("reading the source (-1 rows)", "reading the counters (-1 rows)",
                "waiting a second for increments in flight (-1 seconds)", "reading the source again (-1 rows)",
                "reading the counters again (-1 rows)", "repairing (" + COUNTERS + " counters)");
        Map<Long, Long> totals = totals(counters);
        assertThat(totals.values().stream().filter(total -> total != 0).count()).isEqualTo(COUNTERS);
        long repaired = truth.keySet().stream().filter(id -> totals.get(id) == truth.get(id) + 1).count();
        assertThat(repaired).as("one batch of repairs, whole").isEqualTo(1000);
        assertThat(truth.keySet().stream().filter(id -> totals.get(id).equals(truth.get(id))).count())
                .as("the others as they were").isEqualTo(COUNTERS - 1000);

        assertThat(counters.admin().recount(TYPE, source, false).differing()).isEqualTo(COUNTERS - 1000);
        assertThat(counters.admin().recount(TYPE, source, true).fixed()).isEqualTo(COUNTERS - 1000);
        assertThat(totals(counters)).allSatisfy((id, total) -> assertThat(total).isEqualTo(truth.get(id) + 1));
    }

    @Test
    void recount_stoppedWhileReading_changesNothing() {
        SlottedCounters counters = migrated(SlottedCounters.builder(db.dataSource()).table(table));
        Map<Long, Long> truth = fill(counters, 1);
        Recorded progress = new Recorded(p -> p.done > 0);

        // A read reports every 10,000 rows, where it may stop: this source has 12,500.
        String source = "SELECT record_id, SUM(count) + 7 FROM " + table + " WHERE record_type = " + TYPE
                + " GROUP BY record_id UNION ALL SELECT record_id + 1000000, 1 FROM " + table
                + " UNION ALL SELECT record_id + 2000000, 1 FROM " + table
                + " UNION ALL SELECT record_id + 3000000, 1 FROM " + table
                + " UNION ALL SELECT record_id + 4000000, 1 FROM " + table;
        assertThatThrownBy(() -> counters.admin().recount(TYPE, source, true, progress))
                .isInstanceOf(StoppedException.class).hasMessageContaining("nothing was changed");

        assertThat(totals(counters)).isEqualTo(truth);
    }

    @Test
    void shrink_stoppedBetweenMoves_staysExact_andAShrinkMovesTheRest() throws Exception {
        SlottedCounters counters = migrated(SlottedCounters.builder(db.dataSource()).table(table).slots(TYPE, 16));
        Map<Long, Long> expected = fill(counters, 4);
        assertThat(rowsBeyond(1)).isGreaterThan(1000);
        Recorded progress = new Recorded(p -> p.step().startsWith("moving rows") && p.done > 0);

        assertThatThrownBy(() -> counters.admin().shrink(TYPE, 1, progress))
                .isInstanceOf(StoppedException.class)
                .hasMessageContaining("every read stays exact: run the shrink again");

        assertThat(progress.steps.get(0)).startsWith("recording 1 slots");
        assertThat(progress.step()).matches("moving rows beyond slot 0 onto 1 slots \\(\\d+ counters\\)");
        assertThat(totals(counters)).isEqualTo(expected);
        assertThat(rowsBeyond(1)).as("rows left beyond the count").isPositive();

        counters.admin().shrink(TYPE, 1, Progress.NONE);
        assertThat(rowsBeyond(1)).isZero();
        assertThat(totals(counters)).isEqualTo(expected);
    }

    private OwnerColumn ownerTable() throws SQLException {
        db.execute("CREATE TABLE " + table + "_owners (id BIGINT PRIMARY KEY, n BIGINT DEFAULT 0 NOT NULL)");
        try (Connection connection = db.dataSource().getConnection();
                PreparedStatement insert = connection.prepareStatement("INSERT INTO " + table
                        + "_owners (id, n) VALUES (?, 0)")) {
            for (long id = 0; id < COUNTERS; id++) {
                insert.setLong(1, id);
                insert.addBatch();
            }
            insert.executeBatch();
        }
        return OwnerColumn.parse(table + "_owners.id.n");
    }

    private Map<Long, Long> columns() throws SQLException {
        Map<Long, Long> columns = new HashMap<>();
        try (Connection connection = db.dataSource().getConnection();
                PreparedStatement select = connection.prepareStatement("SELECT id, n FROM " + table + "_owners");
                ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                columns.put(rows.getLong(1), rows.getLong(2));
            }
        }
        return columns;
    }

    @Test
    void release_stoppedBetweenChunks_staysBound_andAReleaseFinishes() throws Exception {
        OwnerColumn owner = ownerTable();
        SlottedCounters counters = migrated(SlottedCounters.builder(db.dataSource()).table(table));
        Recorded adopting = new Recorded(p -> false);
        counters.owners().adopt(TYPE, owner, OwnerMode.FOLD, adopting);
        assertThat(adopting.steps).hasSize(4).last().isEqualTo("recording the binding (-1 statements)");
        Map<Long, Long> expected = fill(counters, 1);
        Recorded progress = new Recorded(p -> p.step().startsWith("rolling counters up") && p.done > 0);

        assertThatThrownBy(() -> counters.owners().release(TYPE, progress))
                .isInstanceOf(StoppedException.class)
                .hasMessageContaining("stopped after rolling 500 of " + COUNTERS)
                .hasMessageContaining("stays bound");

        assertThat(counters.admin().types()).singleElement().satisfies(type -> assertThat(type.owner()).contains(owner));
        assertThat(totals(counters)).as("reads of a bound type, part rolled up").isEqualTo(expected);
        assertThat(columns().values().stream().filter(n -> n != 0).count()).isEqualTo(500);

        counters.owners().release(TYPE);
        assertThat(counters.admin().types()).isEmpty();
        assertThat(columns()).isEqualTo(expected);
    }

    @Test
    void release_ofACopyModeType_stoppedBetweenCopies_staysBoundWithItsSlotsAsTheyWere_andAReleaseFinishes()
            throws Exception {
        OwnerColumn owner = ownerTable();
        SlottedCounters counters = migrated(SlottedCounters.builder(db.dataSource()).table(table));
        counters.owners().adopt(TYPE, owner, OwnerMode.COPY);
        Map<Long, Long> expected = fill(counters, 1);
        long rows = rowsBeyond(0);
        Recorded progress = new Recorded(p -> p.step().startsWith("copying the slots") && p.done > 0);

        assertThatThrownBy(() -> counters.owners().release(TYPE, progress))
                .isInstanceOf(StoppedException.class)
                .hasMessageContaining("stopped after copying 500 of " + COUNTERS)
                .hasMessageContaining("stays bound and its slot rows as they were");

        assertThat(progress.steps).containsExactly("comparing the slots with " + owner + " (-1 statements)",
                "copying the slots into " + owner + " (" + COUNTERS + " counters)");
        assertThat(counters.admin().types()).singleElement().satisfies(type -> assertThat(type.mode())
                .contains(OwnerMode.COPY));
        assertThat(totals(counters)).as("reads of a copy-mode type, from its slots").isEqualTo(expected);
        assertThat(rowsBeyond(0)).isEqualTo(rows);
        assertThat(columns().values().stream().filter(n -> n != 0).count()).isEqualTo(500);

        Recorded finishing = new Recorded(p -> false);
        counters.owners().release(TYPE, finishing);
        assertThat(finishing.step()).isEqualTo("moving the slots into " + owner + ", deleting them, and unbinding ("
                + COUNTERS + " counters)");
        assertThat(finishing.done).isEqualTo(COUNTERS);
        assertThat(counters.admin().types()).isEmpty();
        assertThat(columns()).isEqualTo(expected);
        assertThat(rowsBeyond(0)).isZero();
    }

    @Test
    void release_ofACopyModeType_stoppedBeforeItsRollUp_changesNothing() throws Exception {
        OwnerColumn owner = ownerTable();
        SlottedCounters counters = migrated(SlottedCounters.builder(db.dataSource()).table(table));
        counters.owners().adopt(TYPE, owner, OwnerMode.COPY);
        Map<Long, Long> expected = fill(counters, 1);

        assertThatThrownBy(() -> counters.owners().release(TYPE, new Recorded(p -> true)))
                .isInstanceOf(StoppedException.class).hasMessageContaining("nothing was changed");

        assertThat(counters.admin().types()).singleElement().satisfies(type -> assertThat(type.mode())
                .contains(OwnerMode.COPY));
        assertThat(totals(counters)).isEqualTo(expected);
    }

    @Test
    void adopt_stoppedBeforeTheBinding_bindsNothing() throws Exception {
        OwnerColumn owner = ownerTable();
        SlottedCounters counters = migrated(SlottedCounters.builder(db.dataSource()).table(table));
        Recorded progress = new Recorded(p -> true);

        assertThatThrownBy(() -> counters.owners().adopt(TYPE, owner, OwnerMode.COPY, progress))
                .isInstanceOf(StoppedException.class).hasMessageContaining("nothing was changed");

        assertThat(counters.admin().types()).isEmpty();
    }

    @Test
    void migrate_stoppedBetweenTables_keepsThoseMade_andAMigrationFinishes() {
        SlottedCounters counters = counters(SlottedCounters.builder(db.dataSource()).table(table));
        Recorded progress = new Recorded(p -> p.done == 3);

        assertThatThrownBy(() -> counters.migrate(progress)).isInstanceOf(StoppedException.class)
                .hasMessageContaining("stopped after 3 of 8 tables");

        assertThat(progress.steps).singleElement().asString().endsWith("(8 tables)");
        MigrationReport finished = counters.migrate();
        assertThat(finished.created()).as("the counter table was made by the stopped migration").isFalse();
        counters.add(TYPE, 1, 1);
        assertThat(counters.get(TYPE, 1)).isEqualTo(1);
    }
}
