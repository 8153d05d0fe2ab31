package io.slotted.server;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import org.slf4j.LoggerFactory;
import io.slotted.bench.ContentionBenchmark;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

/**
 * The {@code slotted} command line: {@code serve}, {@code incr}, {@code get}, {@code migrate} and
 * {@code bench} (the contention benchmark harness of the slotted-bench module).
 *
 * <p>Exit status: 0 on success; 2 on a usage error, with a one-line reason on standard error; 1 on a
 * runtime failure, with one line naming the cause, such as the database that could not be reached.
 * Stack traces go to the debug log only: a person at a terminal needs the reason, not the trace.
 */
@Command(name = "slotted", mixinStandardHelpOptions = true, versionProvider = SlottedCommand.Version.class,
        description = "Hot counters kept exact and durable in your SQL database.",
        subcommands = {ServeCommand.class, IncrCommand.class, GetCommand.class, MigrateCommand.class})
public final class SlottedCommand implements Callable<Integer> {
    /** Exit status of a usage error. */
    public static final int USAGE = 2;
    /** Exit status of a runtime failure. */
    public static final int FAILURE = 1;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "missing command: use serve, incr, get, migrate or bench");
    }

    /**
     * The command line, printing to the given writers, with the exit statuses described above.
     *
     * @param out where a command's results go
     * @param err where errors go
     * @return a command line ready to {@link CommandLine#execute(String...) execute}
     */
    public static CommandLine commandLine(PrintWriter out, PrintWriter err) {
        CommandLine commandLine = new CommandLine(new SlottedCommand());
        CommandLine bench = new CommandLine(new ContentionBenchmark());
        bench.getCommandSpec().name("bench");
        commandLine.addSubcommand("bench", bench);
        commandLine.setOut(out);
        commandLine.setErr(err);
        commandLine.setParameterExceptionHandler(SlottedCommand::usageError);
        commandLine.setExecutionExceptionHandler(SlottedCommand::failure);
        return commandLine;
    }

    private static int usageError(ParameterException e, String[] args) {
        CommandLine command = e.getCommandLine();
        String name = command.getCommandSpec().qualifiedName();
        command.getErr().println(name + ": " + oneLine(e.getMessage()) + " (see '" + name + " --help')");
        command.getErr().flush();
        return USAGE;
    }

    private static int failure(Exception e, CommandLine command, ParseResult parsed) {
        String name = command.getCommandSpec().qualifiedName();
        if (e instanceof UsageException) {
            command.getErr().println(name + ": " + oneLine(e.getMessage()));
            command.getErr().flush();
            return USAGE;
        }
        LoggerFactory.getLogger(SlottedCommand.class).debug("{} failed", name, e);
        String reason = e instanceof CommandFailure ? e.getMessage() : FailureMessage.of(e);
        command.getErr().println(name + ": " + oneLine(reason));
        command.getErr().flush();
        return FAILURE;
    }

    private static String oneLine(String message) {
        return String.valueOf(message).strip().replaceAll("\\s*[\\r\\n]+\\s*", " ");
    }

    /** The version from the jar's manifest. */
    static final class Version implements IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = SlottedCommand.class.getPackage().getImplementationVersion();
            return new String[] {"slotted " + (version == null ? "(development build)" : version)};
        }
    }
}
