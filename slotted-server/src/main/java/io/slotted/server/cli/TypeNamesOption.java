package io.slotted.server.cli;

import io.slotted.SlottedCounters;
import io.slotted.server.config.CounterType;
import io.slotted.server.config.TypeNames;
import io.slotted.server.names.CounterNaming;
import io.slotted.server.names.NamedCounter;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import picocli.CommandLine.Option;

/** The {@code --types} option of the commands that name counter types. */
public final class TypeNamesOption {
    @Option(names = "--types", paramLabel = "NAME=N,…", defaultValue = "${env:SLOTTED_TYPES}",
            description = "Names for record_type numbers, such as downloads=1,views=2; a type is"
                    + " then given by name or by number. Env: SLOTTED_TYPES.")
    String spec;

    /**
     * The configured names.
     *
     * @return the names, possibly none
     * @throws IllegalArgumentException if the option is malformed
     */
    public TypeNames names() {
        return TypeNames.parse(spec);
    }

    /**
     * Reads a TYPE argument: a configured name or a number.
     *
     * @param text the argument
     * @return the type
     * @throws IllegalArgumentException if it is neither, or a name that is not configured
     */
    public CounterType resolve(String text) {
        return names().resolve(text);
    }

    /**
     * The counter a write names, recording a new type name or string id in the name dictionary
     * (the pinned names of {@code --types} first), as the service does.
     *
     * @param counters the counters of the command
     * @param type the TYPE argument
     * @param id the ID argument
     * @return the counter
     * @throws IllegalArgumentException if either is malformed
     * @throws io.slotted.SlottedException if the name cannot be recorded
     */
    public NamedCounter toWrite(SlottedCounters counters, String type, String id) {
        return joined(CounterNaming.start(names(), counters.names()).toWrite(type, id));
    }

    /**
     * The counter a read names, recording nothing.
     *
     * @param counters the counters of the command
     * @param type the TYPE argument
     * @param id the ID argument
     * @return the counter, or empty when its name was never recorded (it reads 0)
     * @throws IllegalArgumentException if either is malformed
     */
    public Optional<NamedCounter> toRead(SlottedCounters counters, String type, String id) {
        return joined(CounterNaming.forReads(names(), counters.names()).toRead(type, id));
    }

    private static <T> T joined(CompletableFuture<T> answer) {
        try {
            return answer.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : e;
        }
    }
}
