package io.slotted.server.cli;

import io.slotted.server.names.NamedCounter;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code slotted get TYPE ID…}: prints counts, one {@code TYPE ID: COUNT} line per id. */
@Command(name = "get", mixinStandardHelpOptions = true, description = "Prints counters' counts.")
final class GetCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "TYPE", description = "A type name, or a record_type number.")
    String type;

    @Parameters(index = "1..*", arity = "1..*", paramLabel = "ID", description = "Ids: signed 64-bit"
            + " integers, or strings mapped through the name dictionary.")
    List<String> ids;

    @Mixin
    TypeNamesOption types;

    @Mixin
    DatabaseOptions db;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        db.withCounters(2, counters -> {
            for (String id : ids) {
                Optional<NamedCounter> counter = types.toRead(counters, type, id);
                long count = counter.map(c -> counters.get(c.type().recordType(), c.id())).orElse(0L);
                spec.commandLine().getOut().println(counter.map(c -> c.type() + " " + c.echoId()).orElse(type + " " + id)
                        + ": " + count);
            }
        });
        return 0;
    }
}
