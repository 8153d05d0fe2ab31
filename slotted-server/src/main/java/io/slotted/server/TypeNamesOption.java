package io.slotted.server;

import picocli.CommandLine.Option;

/** The {@code --types} option of the commands that name counter types. */
final class TypeNamesOption {
    @Option(names = "--types", paramLabel = "NAME=N,…", defaultValue = "${env:SLOTTED_TYPES}",
            description = "Names for record_type numbers, such as downloads=1,views=2; a type is"
                    + " then given by name or by number. Env: SLOTTED_TYPES.")
    String spec;

    /**
     * The configured names.
     *
     * @return the names, possibly none
     * @throws UsageException if the option is malformed
     */
    TypeNames names() {
        return TypeNames.parse(spec);
    }

    /**
     * Reads a TYPE argument: a configured name or a number.
     *
     * @param text the argument
     * @return the type
     * @throws UsageException if it is neither
     */
    CounterType resolve(String text) {
        try {
            return names().resolve(text);
        } catch (ApiError e) {
            throw new UsageException(e.getMessage(), e);
        }
    }
}
