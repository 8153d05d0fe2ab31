package io.slotted.server.cli;

/**
 * The exit statuses of the {@code slotted} command line, besides 0 for success
 * ({@link SlottedCommand} says which failure gets which).
 */
public final class ExitStatus {
    /** A usage error: a bad option or a setting refused. */
    public static final int USAGE = 2;
    /** A runtime failure, such as a database that could not be reached. */
    public static final int FAILURE = 1;
    /** A command that ran and found something left to fix. */
    public static final int FINDINGS = 3;
    /**
     * A command stopped by {@code Ctrl-C} at a point where nothing was left half done: 128 + SIGINT,
     * as a shell reports an interrupted command.
     */
    public static final int STOPPED = 130;

    private ExitStatus() {
    }
}
