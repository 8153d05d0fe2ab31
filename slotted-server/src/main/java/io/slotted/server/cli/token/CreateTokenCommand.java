package io.slotted.server.cli.token;

import io.slotted.server.auth.Scope;
import io.slotted.server.auth.TokenFile;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code slotted token create NAME --scope …}: makes a random token, appends its hashed line to the
 * token file and prints the token on standard output, once, for a script or a person to take; what
 * was done, and that the token is stored nowhere, goes to standard error so that it never mixes
 * with the token.
 */
@Command(name = "create", mixinStandardHelpOptions = true,
        description = "Makes a random token, prints it once, and appends its hash to the token file.")
final class CreateTokenCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "NAME", description = "The token's name, by which logs"
            + " speak of it: a letter or digit, then up to 63 letters, digits, '.', '_' or '-';"
            + " unique in the file.")
    String name;

    // Read as one list rather than split by picocli, whose synopsis of a split option repeats it.
    @Option(names = "--scope", required = true, paramLabel = "read|write|admin[,...]",
            description = "What the token may do: read counters; write (increment, and read);"
                    + " admin (everything). Several may be given, separated by commas.")
    String scopes;

    @Mixin
    TokenFileOption tokens;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        Path file = tokens.file();
        String token = TokenFile.create(file, name, Scope.namedIn(scopes));
        spec.commandLine().getOut().println(token);
        spec.commandLine().getErr().println("appended the hash of the token " + name + " to "
                + file.toAbsolutePath() + "; the token itself is stored nowhere, so copy it now:"
                + " it cannot be shown again");
        return 0;
    }
}
