package io.slotted.server.doctor;

import io.slotted.server.doctor.dialect.DoctorDialect;
import io.slotted.server.doctor.dialect.DoctorDialects;
import io.slotted.server.doctor.locks.HotRow;
import io.slotted.server.doctor.locks.HotRows;
import io.slotted.server.doctor.locks.LockWindow;
import io.slotted.server.doctor.locks.Statements;
import io.slotted.server.store.DatabaseFailure;
import io.slotted.server.store.FailureMessage;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Examines a database for {@code slotted doctor}: samples row-lock waits for a window and names
 * the hot rows with what to do, then checks the durability settings, whether its connection
 * could be read on a network, and Slotted's own tables.
 *
 * <p>Everything runs on one connection of the doctor's own, in auto-commit, reading only. What
 * it asks differs by database, and is the database's {@link DoctorDialect}, picked once from what
 * core makes of the connection ({@link DoctorDialects}); what is asked of every database alike
 * stays here and in {@link SlottedTableChecks}. A privilege the doctor lacks (MariaDB's
 * {@code PROCESS} for the lock tables, PostgreSQL's {@code pg_read_all_stats} for other sessions'
 * statements) is reported with the statement that grants it, and the doctor goes on with what it
 * can still see. H2 keeps no lock-wait tables of this kind: there only Slotted's tables are
 * checked, and the connection when it goes to an H2 server.
 */
public final class Doctor {
    private final DataSource dataSource;
    private final DoctorSettings settings;
    private final Clock clock;

    /**
     * A doctor for one database.
     *
     * @param dataSource where to connect
     * @param settings the window and the table
     * @param clock the wall clock, for ages of rows
     */
    public Doctor(DataSource dataSource, DoctorSettings settings, Clock clock) {
        this.dataSource = dataSource;
        this.settings = settings;
        this.clock = clock;
    }

    /**
     * Samples for the window, then checks.
     *
     * @return what was found
     * @throws DatabaseFailure if the database cannot be reached at all
     * @throws io.slotted.SlottedException if the database is not one Slotted supports
     * @throws IllegalStateException if interrupted while sampling
     */
    public DoctorReport examine() {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(true);
            waitAsLongAsItTakes(connection);
            return examine(connection);
        } catch (SQLException e) {
            throw new DatabaseFailure("the doctor could not examine the database: " + FailureMessage.of(e), e);
        }
    }

    /**
     * Lifts the socket timeout the service's pool gives its connections
     * ({@link io.slotted.server.store.PooledCounters#SERVICE_SOCKET_TIMEOUT}) on this one: the
     * checks scan whole tables, which may rightly take minutes on a big one, and a person asked for
     * them. The pool sets it again when the connection goes back.
     */
    private static void waitAsLongAsItTakes(Connection connection) throws SQLException {
        connection.setNetworkTimeout(Runnable::run, 0);
    }

    private DoctorReport examine(Connection connection) throws SQLException {
        DatabaseMetaData meta = connection.getMetaData();
        String database = meta.getDatabaseProductName() + " " + meta.getDatabaseProductVersion();
        DoctorDialect dialect = DoctorDialects.detect(connection);
        Examination exam = new Examination(dialect);
        SlottedTableChecks tables = new SlottedTableChecks(settings.table(), dialect, settings.keyRetention(), clock);
        tables.begin(connection);
        Optional<LockWindow> window = dialect.newLockWindow();
        if (window.isEmpty()) {
            exam.notes.add(meta.getDatabaseProductName() + " keeps no row-lock wait tables the doctor reads:"
                    + " only Slotted's tables were checked");
        }
        HotRows rows = new HotRows();
        Optional<LockWindow.WindowTotals> totals = window.flatMap(open -> exam.sample(connection, open, rows));
        List<Check> checks = new ArrayList<>(dialect.settings(connection));
        dialect.transport(connection).ifPresent(checks::add);
        ClockCheck.runIfServer(connection, dialect.clockSql(), clock).ifPresent(checks::add);
        checks.addAll(tables.run(connection));
        long lockTime = totals.map(LockWindow.WindowTotals::rowLockWaitMillis).orElse(-1L);
        int waitsSeen = rows.waitsSeen();
        List<HotRow> hot = rows.hot(spec -> keyColumns(connection, window.orElseThrow(), spec),
                spec -> advice(connection, spec)).stream()
                .map(row -> withShareOf(row, lockTime, waitsSeen)).toList();
        dialect.hiddenStatements(hot).ifPresent(exam.missingGrants::add);
        return new DoctorReport(database, exam.sampledMillis, exam.samples, hot,
                totals.map(LockWindow.WindowTotals::deadlocks).orElse(-1L),
                totals.flatMap(LockWindow.WindowTotals::latestDeadlock).orElse(null),
                totals.map(LockWindow.WindowTotals::lockWaitTimeouts).orElse(-1L),
                totals.map(LockWindow.WindowTotals::rowLockWaitMillis).orElse(-1L),
                checks, exam.missingGrants, exam.notes);
    }

    /** One run's sampling, and what it could not see. */
    private final class Examination {
        final DoctorDialect dialect;
        final List<String> missingGrants = new ArrayList<>();
        final List<String> notes = new ArrayList<>();
        long sampledMillis;
        int samples;

        Examination(DoctorDialect dialect) {
            this.dialect = dialect;
        }

        Optional<LockWindow.WindowTotals> sample(Connection connection, LockWindow window, HotRows rows) {
            long started = System.nanoTime();
            long deadline = started + settings.watch().toNanos();
            try {
                window.begin(connection);
                do {
                    rows.add(window.sample(connection), Duration.ofNanos(System.nanoTime() - started).toMillis());
                    samples++;
                    pause(Math.min(settings.sampleEvery().toNanos(), deadline - System.nanoTime()));
                } while (System.nanoTime() < deadline);
                sampledMillis = Duration.ofNanos(System.nanoTime() - started).toMillis();
                return Optional.of(window.end(connection));
            } catch (SQLException e) {
                missingGrants.add(dialect.lockTablesRefused(e));
                return Optional.empty();
            }
        }
    }

    private static void pause(long nanos) {
        if (nanos <= 0) {
            return;
        }
        try {
            Thread.sleep(Duration.ofNanos(nanos).toMillis(), (int) (nanos % 1_000_000));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sampling lock waits", e);
        }
    }

    /**
     * InnoDB reports when a wait began to the second only, so a row's waits of a few milliseconds
     * each add up to nothing; its exact total over all rows ({@code Innodb_row_lock_time}) is
     * shared out by each row's share of the waits seen, when that says more.
     */
    private static HotRow withShareOf(HotRow row, long lockTimeMillis, int waitsSeen) {
        if (lockTimeMillis <= 0 || waitsSeen == 0) {
            return row;
        }
        long share = lockTimeMillis * row.waits() / waitsSeen;
        return share <= row.totalWaitMillis() ? row : new HotRow(row.table(), row.index(), row.key(),
                row.waits(), row.sessions(), share, row.longestWaitMillis(), row.statement(), row.advice());
    }

    private static List<String> keyColumns(Connection connection, LockWindow window, HotRows.RowSpec spec) {
        try {
            return window.keyColumns(connection, spec.table(), spec.index());
        } catch (SQLException e) {
            return List.of();
        }
    }

    /** What to do about a hot row: adopt a counter column, spread Slotted's slots, or shorten. */
    private String advice(Connection connection, HotRows.RowSpec spec) {
        String own = settings.table().substring(settings.table().lastIndexOf('.') + 1);
        if (spec.table().name().equalsIgnoreCase(own)) {
            return "a slot row of Slotted's own table is hot: give this type more slots (slotted serve"
                    + " --slots N, or .slots(type, N) in the library) or more flushers (.flushers(N)), so"
                    + " that increments spread over more rows and commit in fewer, larger groups";
        }
        return Statements.counterUpdate(spec.statement())
                .map(update -> "a counter kept with UPDATE … SET " + update.column() + " = "
                        + update.column() + " + ?: let Slotted keep it — slotted adopt "
                        + nextFreeType(connection) + " --owner " + update.table() + "." + update.key() + "."
                        + update.column() + (settings.dbOption().isEmpty() ? "" : " " + settings.dbOption())
                        + " — then send its increments to Slotted (counters.add(type, id, delta), POST"
                        + " /v1/counters/{type}/{id}/increment, or INCR over the Redis protocol) instead")
                .orElse("transactions queue for this row: keep them short (commit right after the"
                        + " write), or take this row's lock last in each transaction");
    }

    /** The record type after the highest one bound in Slotted's registry, or 1. */
    private int nextFreeType(Connection connection) {
        try (Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SELECT MAX(record_type) FROM " + settings.table() + "_types")) {
            return row.next() && row.getObject(1) != null ? row.getInt(1) + 1 : 1;
        } catch (SQLException e) {
            return 1;
        }
    }
}
