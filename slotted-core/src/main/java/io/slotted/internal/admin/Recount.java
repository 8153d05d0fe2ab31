package io.slotted.internal.admin;

import io.slotted.CounterOverflowException;
import io.slotted.Increment;
import io.slotted.RecountReport;
import io.slotted.SlottedException;
import io.slotted.internal.dialect.Failure;
import io.slotted.internal.jdbc.Database;
import io.slotted.internal.jdbc.Retrier;
import io.slotted.internal.jdbc.Transactions;
import io.slotted.internal.progress.Steps;
import io.slotted.internal.dialect.statements.OwnerStatements;
import io.slotted.internal.registry.Registration;
import io.slotted.internal.registry.TypeRegistry;
import io.slotted.internal.sql.SlotRange;
import io.slotted.internal.write.DirectWriter;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Compares a counter type with a source of truth and repairs the differences.
 *
 * <p>The race to avoid (GitLab's counter refresh had it): read the true count, then overwrite the
 * counter with it, and every increment that landed in between is lost or counted twice. So the
 * source and the counters are read in one snapshot (a repeatable-read transaction), and a repair
 * adds the difference as an increment rather than setting a value: increments landing meanwhile
 * commute with it. When each counted event commits together with its increment, the snapshot
 * sees both or neither, its differences are exactly what is wrong, and the repair is exact.
 *
 * <p>When they commit apart, a snapshot can see an event whose increment is still in flight, and
 * adding that difference would count it twice once the increment lands. A repair therefore reads
 * two snapshots {@link #SETTLE} apart and repairs only differences seen unchanged in both; a
 * counter whose difference moved is reported unsettled and left alone.
 */
public final class Recount {
    /** The time between the two snapshots of a repair: longer than an increment is in flight. */
    static final Duration SETTLE = Duration.ofSeconds(1);
    private static final int FIX_BATCH = 1_000;
    private static final int LARGEST = 10;

    private final Database database;
    private final Retrier retrier;
    private final TypeRegistry registry;
    private final DirectWriter writer;

    /**
     * Creates the recount.
     *
     * @param database the database
     * @param retrier how failures are retried and reported
     * @param registry which types fold into an owner column
     * @param writer how repairs are written: batches, each one transaction
     */
    public Recount(Database database, Retrier retrier, TypeRegistry registry, DirectWriter writer) {
        this.database = database;
        this.retrier = retrier;
        this.registry = registry;
        this.writer = writer;
    }

    /**
     * Compares, and repairs if asked.
     *
     * @param recordType the type
     * @param sourceQuery rows of (record id, count)
     * @param fix whether to repair
     * @param steps what follows it, and may stop it while it reads or between batches of repairs
     * @return the report
     */
    public RecountReport recount(int recordType, String sourceQuery, boolean fix, Steps steps) {
        Snapshot first = snapshot(recordType, sourceQuery, steps, "");
        if (!fix) {
            return report(recordType, first, 0, 0);
        }
        steps.begin("waiting a second for increments in flight", -1, "seconds");
        pause();
        Snapshot second = snapshot(recordType, sourceQuery, steps, " again");
        List<Increment> repairs = new ArrayList<>();
        long unsettled = 0;
        for (RecountReport.Difference now : second.differing().values()) {
            RecountReport.Difference before = first.differing().get(now.recordId());
            if (before != null && before.expected() - before.actual() == now.expected() - now.actual()) {
                repairs.add(repair(recordType, now));
            } else {
                unsettled++;
            }
        }
        steps.begin("repairing", repairs.size(), "counters");
        for (int from = 0; from < repairs.size(); from += FIX_BATCH) {
            int done = from;
            steps.stopIfAsked(() -> "stopped after repairing " + done + " of the " + repairs.size()
                    + " counters of record_type " + recordType + " that differ from the source; the others"
                    + " are as they were: run the recount with fix again to repair them");
            writer.correct(repairs.subList(from, Math.min(repairs.size(), from + FIX_BATCH)));
            steps.advance(Math.min(repairs.size(), from + FIX_BATCH));
        }
        return report(recordType, second, repairs.size(), unsettled);
    }

    /** The increment that repairs a difference, which one slot row must be able to take. */
    private static Increment repair(int recordType, RecountReport.Difference difference) {
        BigDecimal by = BigDecimal.valueOf(difference.expected()).subtract(BigDecimal.valueOf(difference.actual()));
        if (by.abs().compareTo(BigDecimal.valueOf(SlotRange.MAX_DELTA)) > 0) {
            throw new CounterOverflowException("counter (record_type=" + recordType + ", record_id="
                    + difference.recordId() + ") differs from its source by " + by + ", more than one"
                    + " repair may add (" + SlotRange.MAX_DELTA + "); nothing was repaired: set that"
                    + " counter to its source's count with set(), then recount again");
        }
        return new Increment(recordType, difference.recordId(), by.longValueExact());
    }

    private static RecountReport report(int recordType, Snapshot snapshot, long fixed, long unsettled) {
        List<RecountReport.Difference> largest = snapshot.differing().values().stream()
                .sorted(Comparator.comparing(Recount::size).reversed()
                        .thenComparing(RecountReport.Difference::recordId))
                .limit(LARGEST).toList();
        return new RecountReport(recordType, snapshot.checked(), snapshot.differing().size(), fixed,
                unsettled, largest);
    }

    private static BigDecimal size(RecountReport.Difference difference) {
        return BigDecimal.valueOf(difference.expected()).subtract(BigDecimal.valueOf(difference.actual()))
                .abs();
    }

    /** One snapshot: how many counters were compared, and those that differ from the source. */
    private record Snapshot(long checked, Map<Long, RecountReport.Difference> differing) {
    }

    private Snapshot snapshot(int recordType, String sourceQuery, Steps steps, String again) {
        Supplier<String> nothingChanged = () -> "stopped while reading record_type " + recordType
                + " and its source; nothing was changed";
        return retrier.read("recount record_type " + recordType, (connection, dialect) -> {
            Optional<Registration> folds = registry.registration(connection, recordType)
                    .filter(Registration::folds);
            return Transactions.inSnapshot(connection, dialect, () -> {
                Map<Long, Long> expected;
                try {
                    steps.begin("reading the source" + again, -1, "rows");
                    expected = source(connection, sourceQuery, steps, nothingChanged);
                } catch (SQLException e) {
                    if (dialect.classify(e) == Failure.CONNECTION) {
                        throw e;
                    }
                    throw new IllegalArgumentException("the source query failed: " + e.getMessage()
                            + " [SQLState " + e.getSQLState() + "]; nothing was changed", e);
                }
                steps.begin("reading the counters" + again, -1, "rows");
                return compare(expected, counters(connection, recordType, folds, steps, nothingChanged));
            });
        });
    }

    private static Snapshot compare(Map<Long, Long> expected, Map<Long, Long> actual) {
        Set<Long> ids = new HashSet<>(expected.keySet());
        ids.addAll(actual.keySet());
        Map<Long, RecountReport.Difference> differing = new HashMap<>();
        for (Long id : ids) {
            long want = expected.getOrDefault(id, 0L);
            long have = actual.getOrDefault(id, 0L);
            if (want != have) {
                differing.put(id, new RecountReport.Difference(id, want, have));
            }
        }
        return new Snapshot(ids.size(), differing);
    }

    /** Runs the source query: rows of two integer columns, one row per id. */
    private static Map<Long, Long> source(Connection connection, String sourceQuery, Steps steps,
            Supplier<String> stopped) throws SQLException {
        Map<Long, Long> expected = new HashMap<>();
        try (PreparedStatement select = connection.prepareStatement(sourceQuery);
                ResultSet rows = select.executeQuery()) {
            if (rows.getMetaData().getColumnCount() != 2) {
                throw new IllegalArgumentException("the source query must return two columns, the"
                        + " record id and its count, but returned " + rows.getMetaData().getColumnCount()
                        + "; nothing was changed");
            }
            while (rows.next()) {
                long id = integer(rows, 1, "record id");
                long count = integer(rows, 2, "count");
                if (expected.put(id, count) != null) {
                    throw new IllegalArgumentException("the source query returned record id " + id
                            + " more than once; group it by id (GROUP BY); nothing was changed");
                }
                steps.rowRead(expected.size(), stopped);
            }
        }
        steps.advance(expected.size());
        return expected;
    }

    private static long integer(ResultSet rows, int column, String what) throws SQLException {
        BigDecimal value = rows.getBigDecimal(column);
        if (value == null) {
            throw new IllegalArgumentException("the source query returned a null " + what
                    + "; nothing was changed");
        }
        try {
            return value.longValueExact();
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("the source query returned " + what + " "
                    + value.toPlainString() + ", which is not a 64-bit integer; nothing was changed");
        }
    }

    /** Every counter of the type with a non-zero total, column included for a fold-mode type. */
    private Map<Long, Long> counters(Connection connection, int recordType,
            Optional<Registration> folds, Steps steps, Supplier<String> stopped) throws SQLException {
        Map<Long, Long> totals = new HashMap<>();
        AtomicLong rows = new AtomicLong();
        try (PreparedStatement select = connection.prepareStatement(
                database.slotStatements().totalsOfType())) {
            select.setInt(1, recordType);
            addAll(select, totals, () -> steps.rowRead(rows.incrementAndGet(), stopped));
        }
        if (folds.isPresent()) {
            OwnerStatements owner = database.ownerStatements(folds.get().owner());
            try (PreparedStatement select = connection.prepareStatement(owner.nonZeroSql())) {
                addAll(select, totals, () -> steps.rowRead(rows.incrementAndGet(), stopped));
            }
        }
        steps.advance(rows.get());
        totals.values().removeIf(total -> total == 0);
        return totals;
    }

    private static void addAll(PreparedStatement select, Map<Long, Long> totals, Runnable rowRead)
            throws SQLException {
        try (ResultSet rows = select.executeQuery()) {
            while (rows.next()) {
                long id = rows.getLong(1);
                BigDecimal value = rows.getBigDecimal(2);
                long add;
                try {
                    add = value.longValueExact();
                } catch (ArithmeticException e) {
                    throw new SlottedException("counter (record_id=" + id + ") totals "
                            + value.toPlainString() + ", outside the 64-bit range; recount cannot"
                            + " compare it");
                }
                totals.merge(id, add, Math::addExact);
                rowRead.run();
            }
        }
    }

    private static void pause() {
        try {
            Thread.sleep(SETTLE.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SlottedException("interrupted between the two readings of a recount; nothing"
                    + " was changed", e);
        }
    }
}
