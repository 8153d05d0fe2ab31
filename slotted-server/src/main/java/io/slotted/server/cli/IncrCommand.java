package io.slotted.server.cli;

import io.slotted.server.cli.bucket.BucketsOption;
import io.slotted.server.config.CounterSettings;
import io.slotted.server.names.NamedCounter;
import io.slotted.SlottedCounters;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code slotted incr TYPE ID [--by N]}: one durable increment, then the counter's new count. The
 * schema is created first if it is missing, as {@code serve} does, so that the embedded default
 * works on a fresh machine. A type given {@code --buckets} also counts in the current bucket.
 */
@Command(name = "incr", mixinStandardHelpOptions = true,
        description = "Adds to one counter and prints its count after.")
final class IncrCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "TYPE", description = "A type name (recorded on first use,"
            + " or pinned with --types), or a record_type number.")
    String type;

    @Parameters(index = "1", paramLabel = "ID", description = "The id: a signed 64-bit integer, or any"
            + " other string of up to 512 bytes, mapped through the name dictionary.")
    String id;

    @Option(names = "--by", paramLabel = "N", defaultValue = "1",
            description = "The amount to add, negative to subtract, never 0, at most 2^52 - 1 either way. Default: 1.")
    long by;

    @Mixin
    TypeNamesOption types;

    @Mixin
    BucketsOption buckets;

    @Mixin
    DatabaseOptions db;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (by == 0 || by < -SlottedCounters.MAX_DELTA || by > SlottedCounters.MAX_DELTA) {
            throw new ParameterException(spec.commandLine(), "--by must be from -" + SlottedCounters.MAX_DELTA
                    + " to " + SlottedCounters.MAX_DELTA + " (2^52 - 1, the most one slot row holds), other"
                    + " than 0, but was " + by);
        }
        CounterSettings settings = CounterSettings.DEFAULTS.withBuckets(buckets.kept(types));
        db.withCounters(settings, 4, counters -> {
            counters.migrate();
            NamedCounter counter = types.toWrite(counters, type, id);
            counters.add(counter.type().recordType(), counter.id(), by);
            long count = counters.get(counter.type().recordType(), counter.id());
            spec.commandLine().getOut().println(counter.type() + " " + counter.echoId() + ": " + count
                    + " (" + (by > 0 ? "+" : "") + by + ")");
        });
        return 0;
    }
}
