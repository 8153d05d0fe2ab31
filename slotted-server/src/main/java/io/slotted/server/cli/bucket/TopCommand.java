package io.slotted.server.cli.bucket;

import io.slotted.RankedCounter;
import io.slotted.server.cli.DatabaseOptions;
import io.slotted.server.cli.TypeNamesOption;
import io.slotted.server.config.CounterSettings;
import io.slotted.server.config.CounterType;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code slotted top TYPE --from … --to … [-n 10]}: prints the counters of a type with the most
 * added over a window, one {@code ID COUNT} line each, highest first.
 */
@Command(name = "top", mixinStandardHelpOptions = true,
        description = "Prints the counters of a type with the most added over a window.")
public final class TopCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "TYPE", description = "A type name from --types, or a record_type number.")
    String type;

    @Mixin
    WindowOptions window;

    @Option(names = "-n", paramLabel = "N", defaultValue = "10",
            description = "How many counters, 1 to 1000. Default: 10.")
    int n;

    @Mixin
    TypeNamesOption types;

    @Mixin
    DatabaseOptions db;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        CounterType counterType = types.resolve(type);
        CounterSettings settings = window.settingsFor(types, counterType);
        PrintWriter out = spec.commandLine().getOut();
        db.withCounters(settings, 2, counters -> {
            for (RankedCounter counter : counters.timeSeries().top(counterType.recordType(),
                    window.from(), window.to(), n)) {
                out.println(counter.recordId() + " " + counter.count());
            }
        });
        return 0;
    }
}
