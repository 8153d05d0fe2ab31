package io.slotted.server.cli.owner;

import io.slotted.server.cli.DatabaseOptions;
import io.slotted.server.cli.TypeNamesOption;
import io.slotted.server.cli.progress.CommandProgress;
import io.slotted.server.config.CounterType;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code slotted shrink TYPE --slots N}: moves a counter type onto N slots, for every process using
 * the database, while increments continue; returns once no slot row is left beyond N. The slot
 * count's range is the library's rule: outside it is a usage error.
 */
@Command(name = "shrink", mixinStandardHelpOptions = true,
        description = "Moves a counter type onto fewer slots while increments continue.")
public final class ShrinkCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "TYPE", description = "A type name from --types, or a record_type number.")
    String type;

    @Option(names = "--slots", paramLabel = "N", defaultValue = "${env:SLOTTED_SHRINK_SLOTS}",
            description = "The new number of slots per counter of the type, 1 to 1024."
                    + " Env: SLOTTED_SHRINK_SLOTS.")
    Integer slots;

    @Mixin
    TypeNamesOption types;

    @Mixin
    DatabaseOptions db;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (slots == null) {
            throw new ParameterException(spec.commandLine(), "missing --slots N, the new number of"
                    + " slots per counter, such as --slots 4");
        }
        CounterType counterType = types.resolve(type);
        db.withCounters(2, counters -> {
            long moved;
            try (CommandProgress progress = CommandProgress.start(spec.commandLine())) {
                moved = counters.admin().shrink(counterType.recordType(), slots, progress);
            }
            spec.commandLine().getOut().println(counterType + " now has " + slots + " slot"
                    + (slots == 1 ? "" : "s") + " per counter: moved " + moved + " slot row"
                    + (moved == 1 ? "" : "s"));
        });
        return 0;
    }
}
