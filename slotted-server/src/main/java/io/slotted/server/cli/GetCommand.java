package io.slotted.server.cli;

import io.slotted.server.config.CounterType;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code slotted get TYPE ID…}: prints counts, one {@code TYPE ID: COUNT} line per id. */
@Command(name = "get", mixinStandardHelpOptions = true, description = "Prints counters' counts.")
final class GetCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "TYPE", description = "A type name from --types, or a record_type number.")
    String type;

    @Parameters(index = "1..*", arity = "1..*", paramLabel = "ID", description = "Record ids, signed 64-bit integers.")
    List<Long> ids;

    @Mixin
    TypeNamesOption types;

    @Mixin
    DatabaseOptions db;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        CounterType counterType = types.resolve(type);
        db.withCounters(2, counters -> counters.getAll(counterType.recordType(), ids).forEach((id, count) ->
                spec.commandLine().getOut().println(counterType + " " + id + ": " + count)));
        return 0;
    }
}
