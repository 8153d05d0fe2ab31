package io.slotted.server.cli.token;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code slotted token}: the commands that write the token file {@code serve --tokens} reads,
 * {@code create} and {@code hash}.
 */
@Command(name = "token", mixinStandardHelpOptions = true,
        description = "Makes tokens for serve --tokens, keeping only their hashes in the token file.",
        subcommands = {CreateTokenCommand.class, HashTokensCommand.class})
public final class TokenCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    /**
     * Refuses to run without a subcommand.
     *
     * @return never
     * @throws ParameterException always: {@code create} or {@code hash} must follow
     */
    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "missing command: use create or hash");
    }
}
