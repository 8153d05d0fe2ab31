package io.slotted.server.cli.owner;

import io.slotted.RollUpReport;
import io.slotted.server.cli.DatabaseOptions;
import io.slotted.server.cli.TypeNamesOption;
import io.slotted.server.cli.progress.CommandProgress;
import io.slotted.server.config.CounterType;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code slotted release TYPE}: rolls everything a bound counter type holds in its slots into its
 * owner column, unbinds it, and prints what that final roll-up did. Afterwards the application may
 * go back to plain {@code UPDATE}s of the column. A type that is not bound is a runtime failure.
 */
@Command(name = "release", mixinStandardHelpOptions = true,
        description = "Rolls a bound counter type into its owner column, then unbinds it.")
public final class ReleaseCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "TYPE", description = "A type name from --types, or a record_type number.")
    String type;

    @Mixin
    TypeNamesOption types;

    @Mixin
    DatabaseOptions db;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        CounterType counterType = types.resolve(type);
        db.withCounters(2, counters -> {
            RollUpReport report;
            try (CommandProgress progress = CommandProgress.start(spec.commandLine())) {
                report = counters.owners().release(counterType.recordType(), progress);
            }
            PrintWriter out = spec.commandLine().getOut();
            out.println("released " + counterType + ": the owner column holds its counts, and the"
                    + " application may update the column directly again");
            RollUpSummary.print(out, report);
        });
        return 0;
    }
}
