package io.slotted.server.cli.owner;

import io.slotted.AdoptionReport;
import io.slotted.OwnerColumn;
import io.slotted.OwnerMode;
import io.slotted.server.cli.DatabaseOptions;
import io.slotted.server.cli.TypeNamesOption;
import io.slotted.server.cli.progress.CommandProgress;
import io.slotted.server.config.CounterType;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code slotted adopt TYPE --owner TABLE.KEY.COLUMN [--mode fold|copy]}: binds a counter type to
 * a column of its owning row, for every process using the database, and prints what it found of
 * the column: its type, its largest value, the limit of its type and the headroom between them,
 * and any warnings. The schema is created first if it is missing, since the binding is recorded in
 * it.
 *
 * <p>An owner that cannot be bound as asked (no such table or column, a column that is not an
 * integer, a key that is not unique, values the mode would count twice or lose) is a usage error;
 * a type that is already bound is a runtime failure, since the command was right and the
 * database's state refused it.
 */
@Command(name = "adopt", mixinStandardHelpOptions = true,
        description = "Binds a counter type to an owner column, such as"
                + " repositories.id.downloads_count, for every process using the database.")
public final class AdoptCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "TYPE", description = "A type name from --types, or a record_type number.")
    String type;

    @Option(names = "--owner", paramLabel = "TABLE.KEY.COLUMN", defaultValue = "${env:SLOTTED_OWNER}",
            description = "The owner table, its unique key column (the record_id) and its integer"
                    + " count column, such as repositories.id.downloads_count. Env: SLOTTED_OWNER.")
    String owner;

    @Option(names = "--mode", paramLabel = "fold|copy", converter = OwnerModeConverter.class,
            defaultValue = "${env:SLOTTED_OWNER_MODE:-fold}",
            description = {"fold: the column's current value is each counter's base and a roll-up"
                    + " adds the slots to it; nothing is copied, so a column still updated by the"
                    + " application can be adopted while it runs.",
                    "copy: the slots hold the whole count and a roll-up copies their sum into the"
                    + " column. Default: fold. Env: SLOTTED_OWNER_MODE."})
    OwnerMode mode;

    @Mixin
    TypeNamesOption types;

    @Mixin
    DatabaseOptions db;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (owner == null || owner.isBlank()) {
            throw new ParameterException(spec.commandLine(), "missing --owner TABLE.KEY.COLUMN,"
                    + " such as --owner repositories.id.downloads_count");
        }
        CounterType counterType = types.resolve(type);
        OwnerColumn column = OwnerColumn.parse(owner.strip());
        db.withCounters(2, counters -> {
            AdoptionReport report;
            try (CommandProgress progress = CommandProgress.start(spec.commandLine())) {
                counters.migrate(progress);
                report = counters.owners().adopt(counterType.recordType(), column, mode, progress);
            }
            print(counterType, report);
        });
        return 0;
    }

    private void print(CounterType counterType, AdoptionReport report) {
        PrintWriter out = spec.commandLine().getOut();
        out.println("bound " + counterType + " to " + report.owner() + " in "
                + OwnerModeConverter.label(report.mode()) + " mode");
        out.println("column type: " + report.columnType());
        out.println("largest value: " + report.largest());
        out.println("limit: " + report.limit());
        out.println("headroom: " + report.headroom());
        report.warnings().forEach(warning -> out.println("warning: " + warning));
        out.println(report.mode() == OwnerMode.FOLD
                ? "reads now add the column to the slots; roll-ups into the column begin in a few"
                        + " seconds, once every process has seen the binding (slotted serve and"
                        + " slotted rollup run them)"
                : "roll-ups copy the slots' sum into the column from now on (slotted serve and"
                        + " slotted rollup run them)");
    }
}
