package io.slotted.server.cli;

import io.slotted.StoppedException;
import io.slotted.server.ServiceFailure;
import io.slotted.server.cli.bucket.SeriesCommand;
import io.slotted.server.cli.bucket.TopCommand;
import io.slotted.server.cli.owner.AdoptCommand;
import io.slotted.server.cli.owner.RecountCommand;
import io.slotted.server.cli.owner.ReleaseCommand;
import io.slotted.server.cli.owner.RollupCommand;
import io.slotted.server.cli.owner.ShrinkCommand;
import io.slotted.server.cli.schema.MigrateCommand;
import io.slotted.server.cli.schema.SchemaCommand;
import io.slotted.server.cli.token.TokenCommand;
import io.slotted.server.store.DatabaseFailure;
import io.slotted.server.store.FailureMessage;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * The {@code slotted} command line: {@code serve}, {@code incr}, {@code get}, {@code set},
 * {@code migrate} and {@code schema} (the DDL it runs), the owner-column commands {@code adopt},
 * {@code release} and {@code rollup},
 * {@code recount}, {@code shrink}, {@code doctor}, the time bucket reads {@code series} and
 * {@code top}, {@code token create} and {@code token hash} (the token file), and {@code bench}
 * (which says where the contention benchmark's own jar is).
 *
 * <p>Exit status: 0 on success; 2 on a usage error, with a one-line reason on standard error; 1 on a
 * runtime failure, with one line naming the cause, such as the database that could not be reached;
 * {@value ExitStatus#FINDINGS} from a command that ran but found something left to fix ({@code recount}:
 * differences that remain); and {@value ExitStatus#STOPPED} from a command that walks a table when
 * {@code Ctrl-C} stopped it, with a line saying how far it got.
 * This class is the one place that decides between 1 and 2: a picocli {@link ParameterException}
 * (a bad option) and an {@link IllegalArgumentException} (a setting the command or the library
 * refused) are usage errors; anything else is a runtime failure. Stack traces go to the debug log
 * only: a person at a terminal needs the reason, not the trace.
 */
@Command(name = "slotted", mixinStandardHelpOptions = true, versionProvider = SlottedCommand.Version.class,
        description = "Hot counters kept exact and durable in your SQL database.",
        subcommands = {ServeCommand.class, IncrCommand.class, GetCommand.class, SetCommand.class,
            MigrateCommand.class, SchemaCommand.class, AdoptCommand.class, ReleaseCommand.class, RollupCommand.class,
            RecountCommand.class, ShrinkCommand.class, DoctorCommand.class, SeriesCommand.class,
            TopCommand.class, TokenCommand.class, BenchCommand.class})
public final class SlottedCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "missing command: use serve, incr, get,"
                + " set, migrate, schema, adopt, release, rollup, recount, shrink, doctor, series, top, token"
                + " or bench");
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
        commandLine.setOut(out);
        commandLine.setErr(err);
        commandLine.setParameterExceptionHandler(SlottedCommand::usageError);
        commandLine.setExecutionExceptionHandler(SlottedCommand::failure);
        return commandLine;
    }

    private static int usageError(ParameterException e, String[] args) {
        CommandLine command = e.getCommandLine();
        String name = command.getCommandSpec().qualifiedName();
        return report(command, FailureMessage.own(e) + " (see '" + name + " --help')", ExitStatus.USAGE);
    }

    private static int failure(Exception e, CommandLine command, ParseResult parsed) {
        if (e instanceof IllegalArgumentException) {
            return report(command, FailureMessage.own(e), ExitStatus.USAGE);
        }
        if (e instanceof StoppedException) {
            return report(command, e.getMessage(), ExitStatus.STOPPED);
        }
        LoggerFactory.getLogger(SlottedCommand.class)
                .debug("{} failed", command.getCommandSpec().qualifiedName(), e);
        // These already name their cause, with the database's passwords masked: its raw message
        // underneath may quote one.
        boolean explained = e instanceof DatabaseFailure || e instanceof ServiceFailure;
        return report(command, explained ? FailureMessage.own(e) : FailureMessage.of(e), ExitStatus.FAILURE);
    }

    private static int report(CommandLine command, String reason, int status) {
        command.getErr().println(command.getCommandSpec().qualifiedName() + ": " + reason);
        command.getErr().flush();
        return status;
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
