package io.slotted.internal.owner;

import io.slotted.Limits;
import io.slotted.internal.dialect.statements.OwnerStatements;
import io.slotted.AdoptionReport;
import io.slotted.OwnerColumn;
import io.slotted.OwnerMode;
import io.slotted.internal.jdbc.Database;
import io.slotted.internal.jdbc.Retrier;
import io.slotted.internal.jdbc.Transactions;
import io.slotted.internal.progress.Steps;
import io.slotted.internal.registry.Registration;
import io.slotted.internal.registry.TypeRegistry;
import io.slotted.internal.sql.SlotRange;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Binds a counter type to an owner column, after checking that the binding is safe.
 *
 * <p>Fold mode adds the column to the slots, so the column's current values become the counters'
 * bases and nothing is copied. That would count twice where the slots already hold a counter's
 * count and the column holds a copy of it (an application that rolled up by hand), so a fold
 * binding is refused while any counter has both a non-zero column and non-zero slots. Copy mode
 * overwrites the column with the slots' sum, so it is refused while any column holds a value the
 * slots do not: it would be lost.
 *
 * <p>The binding is one row in the type registry, written under the row's lock in the same
 * transaction as the checks' reads, so two adoptions of one type cannot both succeed.
 */
public final class Adoption {
    private final Database database;
    private final Retrier retrier;
    private final TypeRegistry registry;
    private final Clock clock;

    /**
     * Creates the adopter.
     *
     * @param database the database
     * @param retrier how failures are retried and reported
     * @param registry the type registry
     * @param clock when bindings are made
     */
    public Adoption(Database database, Retrier retrier, TypeRegistry registry, Clock clock) {
        this.database = database;
        this.retrier = retrier;
        this.registry = registry;
        this.clock = clock;
    }

    /**
     * Binds a type to an owner column.
     *
     * @param recordType the counter type
     * @param owner the owner column
     * @param mode how the column is kept
     * @param steps what follows it: each check is one statement the database runs whole, and a stop
     *     asked for before the binding is written binds nothing
     * @return the column's type and headroom
     * @throws IllegalArgumentException if the owner column cannot be bound as asked
     * @throws IllegalStateException if the type is already bound
     */
    public AdoptionReport adopt(int recordType, OwnerColumn owner, OwnerMode mode, Steps steps) {
        AdoptionReport report = retrier.write("bind record_type " + recordType + " to " + owner,
                (connection, dialect) -> {
                    steps.begin("checking the column " + owner, -1, "statements");
                    ColumnRange type = OwnerShape.check(connection, dialect, owner);
                    ColumnRange range = mode == OwnerMode.FOLD ? type.folded() : type;
                    return Transactions.inTransaction(connection, () -> {
                        AdoptionReport done = bind(connection, recordType, owner, mode, range, steps);
                        connection.commit();
                        return done;
                    });
                });
        registry.invalidate();
        return report;
    }

    private AdoptionReport bind(Connection connection, int recordType, OwnerColumn owner,
            OwnerMode mode, ColumnRange range, Steps steps) throws SQLException {
        Optional<Registration> existing = registry.lock(connection, recordType, false);
        if (existing.isPresent() && existing.get().bound()) {
            Registration bound = existing.get();
            throw new IllegalStateException("counter type " + recordType + " is already bound to "
                    + bound.owner() + " in " + bound.mode().name().toLowerCase(java.util.Locale.ROOT)
                    + " mode; release it first ('slotted release') to bind it again; nothing was changed");
        }
        if (mode == OwnerMode.FOLD && existing.isPresent() && existing.get().limits().bounded()) {
            // Binding in fold mode adds every column's value to its counter's total at once, which
            // no decision of the limits saw; limits recorded after the binding check each total.
            throw new IllegalArgumentException("counter type " + recordType + " has the limits "
                    + existing.get().limits() + ": bind its owner column in fold mode before it is given"
                    + " limits (the binding adds each column's value to its counter's total), or bind it in"
                    + " copy mode; nothing was changed");
        }
        OwnerStatements table = database.ownerStatements(owner);
        steps.begin(mode == OwnerMode.FOLD ? "looking for counters both " + owner.table() + " and the slots hold"
                : "looking for rows of " + owner.table() + " the slots do not add up to", -1, "statements");
        long clashes = count(connection, mode == OwnerMode.FOLD ? table.foldClashSql() : table.copyClashSql(),
                recordType);
        if (clashes > 0) {
            throw new IllegalArgumentException(clashMessage(recordType, owner, mode, clashes));
        }
        steps.begin("reading the smallest and largest " + owner.countColumn(), -1, "statements");
        long[] minMax = minMax(connection, table);
        if (!range.holds(minMax[0]) || !range.holds(minMax[1])) {
            throw new IllegalArgumentException("column " + owner + " holds values from " + minMax[0]
                    + " to " + minMax[1] + ", outside what it may hold as a fold-mode base, "
                    + range.describe() + ": a fold-mode total adds the slots to it and must stay a"
                    + " signed 64-bit integer. Bring those rows into range first; nothing was changed");
        }
        steps.stopIfAsked(() -> "stopped before binding record_type " + recordType + " to " + owner
                + "; nothing was changed");
        steps.begin("recording the binding", -1, "statements");
        long largest = Math.max(minMax[1], 0);
        long now = clock.millis();
        int slots = existing.map(Registration::slots).orElse(0);
        Limits limits = existing.map(Registration::limits).orElse(Limits.NONE);
        registry.write(connection, existing, new Registration(recordType, owner, mode, slots, now, now, limits,
                existing.map(Registration::expiring).orElse(false)));
        return new AdoptionReport(recordType, owner, mode, range.typeName(), largest, range.max(),
                range.max() - largest, warnings(owner, range, largest, minMax[0]));
    }

    private static String clashMessage(int recordType, OwnerColumn owner, OwnerMode mode, long clashes) {
        if (mode == OwnerMode.FOLD) {
            return clashes + " counters of type " + recordType + " have a non-zero " + owner
                    + " and non-zero slots; fold mode adds the two, which would count them twice if"
                    + " the column is a copy of the slots. If it is, bind in copy mode; if the two"
                    + " are separate counts, zero one of them first. Nothing was changed";
        }
        return clashes + " rows of " + owner.table() + " hold a non-zero " + owner.countColumn()
                + " that the slots of type " + recordType + " do not add up to; copy mode would"
                + " overwrite it with the slots' sum and lose it. Adopt an existing hot column in"
                + " fold mode (its value becomes the base). Nothing was changed";
    }

    private static List<String> warnings(OwnerColumn owner, ColumnRange range, long largest, long smallest) {
        List<String> warnings = new ArrayList<>();
        if (range.max() < SlotRange.COLUMN_MAX) {
            warnings.add("column " + owner + " is " + range.typeName() + ": it holds up to " + range.max()
                    + " and its largest value is " + largest + " (" + percent(largest, range.max())
                    + " used); a roll-up past it is refused and the counter stays in the slots, where"
                    + " reads still count it. ALTER it to BIGINT for room");
        }
        if (smallest < 0) {
            warnings.add("column " + owner + " holds negative values (the smallest is " + smallest + ")");
        }
        return warnings;
    }

    private static String percent(long part, long whole) {
        return String.format(java.util.Locale.ROOT, "%.4f%%", 100.0 * part / whole);
    }


    private static long count(Connection connection, String sql, int recordType) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(sql)) {
            select.setInt(1, recordType);
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? row.getLong(1) : 0;
            }
        }
    }

    private static long[] minMax(Connection connection, OwnerStatements table) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(table.rangeSql());
                ResultSet row = select.executeQuery()) {
            return row.next() ? new long[] {row.getLong(1), row.getLong(2)} : new long[] {0, 0};
        }
    }
}
