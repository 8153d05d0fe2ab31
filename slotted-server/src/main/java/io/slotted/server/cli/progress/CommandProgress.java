package io.slotted.server.cli.progress;

import io.slotted.Progress;
import io.slotted.Ticker;
import java.io.Console;
import java.io.PrintWriter;
import org.jline.utils.Signals;
import picocli.CommandLine;

/**
 * The {@link Progress} of a command that walks a whole table ({@code recount}, {@code shrink},
 * {@code release}, {@code adopt}, {@code migrate}): each step drawn as a progress bar with its rate
 * and ETA when the output is a terminal, as plain lines every few seconds when it is not.
 *
 * <p>While it is open, {@code Ctrl-C} (SIGINT) does not end the process: it asks the work to stop
 * at the next point where nothing is left half done, which the library reaches between
 * transactions (or at once, while it only reads). The work then throws
 * {@link io.slotted.StoppedException}, whose message says how far it got, and the command exits
 * with {@value io.slotted.server.cli.SlottedCommand#STOPPED}. A second {@code Ctrl-C} ends the
 * process as it would without this class, through the JVM's shutdown hooks; the database rolls
 * back the transaction the command was in.
 *
 * <pre>{@code
 * try (CommandProgress progress = CommandProgress.start(spec.commandLine())) {
 *     counters.admin().shrink(type, slots, progress);
 * }
 * }</pre>
 */
public final class CommandProgress implements Progress, AutoCloseable {
    private static final String INTERRUPT = "INT";

    private final String command;
    private final StepDisplay display;
    private final PrintWriter err;
    private final Object previousHandler;
    private volatile boolean stopAsked;
    private boolean handlerRestored;

    private CommandProgress(String command, StepDisplay display, PrintWriter err) {
        this.command = command;
        this.display = display;
        this.err = err;
        this.previousHandler = Signals.register(INTERRUPT, this::interrupted);
    }

    /**
     * Starts showing progress for the command, and takes over {@code Ctrl-C} until closed.
     *
     * @param commandLine the running command, whose name the lines carry and where they go
     * @return the progress, to hand to the library's call
     */
    public static CommandProgress start(CommandLine commandLine) {
        String command = commandLine.getCommandSpec().qualifiedName();
        // Progress goes to standard error, so that what a command prints on standard output stays
        // its result alone for whoever reads it.
        StepDisplay display = onTerminal() ? new BarDisplay(System.err)
                : new LineDisplay(command, commandLine.getErr(), Ticker.systemTicker());
        return new CommandProgress(command, display, commandLine.getErr());
    }

    /**
     * Whether the output is a terminal that can redraw a bar in place. Before Java 22 a console
     * exists only when standard input and output are both terminals; from Java 22 one always does,
     * and says whether it is a terminal.
     */
    private static boolean onTerminal() {
        Console console = System.console();
        if (console == null) {
            return false;
        }
        try {
            return (Boolean) Console.class.getMethod("isTerminal").invoke(console);
        } catch (NoSuchMethodException beforeJava22) {
            return true;
        } catch (ReflectiveOperationException e) {
            return false;
        }
    }

    private void interrupted() {
        if (stopAsked) {
            return;
        }
        stopAsked = true;
        restoreHandler();
        err.println();
        err.println(command + ": stopping at the next point where nothing is left half done"
                + " (Ctrl-C again ends it at once)");
        err.flush();
    }

    @Override
    public void begin(String step, long total, String unit) {
        display.begin(step, total, unit);
    }

    @Override
    public void advance(long done) {
        display.advance(done);
    }

    @Override
    public boolean stopRequested() {
        return stopAsked;
    }

    /**
     * Gives {@code Ctrl-C} back to the JVM's own handler, under which the next one ends the process
     * through its shutdown hooks, as without this class.
     */
    private synchronized void restoreHandler() {
        if (!handlerRestored) {
            handlerRestored = true;
            Signals.unregister(INTERRUPT, previousHandler);
        }
    }

    /** Ends the last step's display and gives {@code Ctrl-C} back. */
    @Override
    public void close() {
        display.finish();
        restoreHandler();
    }
}
