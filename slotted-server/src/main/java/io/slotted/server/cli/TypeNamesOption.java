package io.slotted.server.cli;

import io.slotted.server.config.CounterType;
import io.slotted.server.config.TypeNames;
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
}
