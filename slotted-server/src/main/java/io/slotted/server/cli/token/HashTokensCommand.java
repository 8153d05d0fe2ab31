package io.slotted.server.cli.token;

import io.slotted.server.auth.TokenFile;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code slotted token hash}: replaces every plain token in the token file with its hash, and says
 * how many. The tokens keep working; only reading the file no longer reveals them.
 */
@Command(name = "hash", mixinStandardHelpOptions = true,
        description = "Replaces the plain tokens in the token file with their hashes; the tokens keep working.")
final class HashTokensCommand implements Callable<Integer> {
    @Mixin
    TokenFileOption tokens;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        Path file = tokens.file();
        int converted = TokenFile.hashPlainTokens(file);
        spec.commandLine().getOut().println(converted == 0
                ? "no plain tokens in " + file + ": every line holds a hash already"
                : "hashed " + converted + " plain token" + (converted == 1 ? "" : "s") + " in " + file
                        + ", each named line-N after its line; the tokens keep working");
        return 0;
    }
}
