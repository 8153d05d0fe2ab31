package io.slotted.server.cli.token;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The {@code --tokens} option of the token commands: the file they write. */
final class TokenFileOption {
    /** Where the token commands write when neither the option nor its variable names a file. */
    static final String DEFAULT_FILE = "slotted-tokens";

    @Option(names = "--tokens", paramLabel = "FILE", defaultValue = "${env:SLOTTED_TOKENS}",
            description = "The token file, which serve reads with --tokens. Default: " + DEFAULT_FILE
                    + " in the working directory. Env: SLOTTED_TOKENS.")
    Path file;

    /**
     * The token file to write.
     *
     * @return the file given, or {@value #DEFAULT_FILE} in the working directory
     */
    Path file() {
        // An empty SLOTTED_TOKENS means none, as it does for serve.
        return file == null || file.toString().isBlank() ? Path.of(DEFAULT_FILE) : file;
    }
}
