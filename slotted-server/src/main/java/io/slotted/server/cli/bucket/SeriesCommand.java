package io.slotted.server.cli.bucket;

import io.slotted.BucketCount;
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
 * {@code slotted series TYPE ID --from … --to …}: prints one counter's count per time bucket, one
 * {@code START COUNT} line per bucket, zeros included.
 */
@Command(name = "series", mixinStandardHelpOptions = true,
        description = "Prints a counter's count per time bucket over a window.")
public final class SeriesCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "TYPE", description = "A type name from --types, or a record_type number.")
    String type;

    @Parameters(index = "1", paramLabel = "ID", description = "The record id, a signed 64-bit integer.")
    long id;

    @Mixin
    WindowOptions window;

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
            for (BucketCount bucket : counters.timeSeries().series(counterType.recordType(), id,
                    window.from(), window.to())) {
                out.println(bucket.start() + " " + bucket.count());
            }
        });
        return 0;
    }
}
