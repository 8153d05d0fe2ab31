package io.slotted.server.cli;

import io.slotted.CounterOverflowException;
import io.slotted.server.config.CounterType;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code slotted set TYPE ID COUNT}: sets one counter exactly, durably; increments acknowledged
 * after it count on top. The schema is created first if it is missing, as {@code incr} does. A
 * count that the owner column of a bound type cannot hold (an {@code INT} column, say) is a usage
 * error: nothing was changed.
 */
@Command(name = "set", mixinStandardHelpOptions = true, description = "Sets one counter exactly.")
final class SetCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "TYPE", description = "A type name from --types, or a record_type number.")
    String type;

    @Parameters(index = "1", paramLabel = "ID", description = "The record id, a signed 64-bit integer.")
    long id;

    @Parameters(index = "2", paramLabel = "COUNT", description = "The new count, a signed 64-bit integer.")
    long count;

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
            counters.migrate();
            try {
                counters.admin().set(counterType.recordType(), id, count);
            } catch (CounterOverflowException e) {
                throw new ParameterException(spec.commandLine(), e.getMessage());
            }
            spec.commandLine().getOut().println(counterType + " " + id + ": " + count + " (set)");
        });
        return 0;
    }
}
