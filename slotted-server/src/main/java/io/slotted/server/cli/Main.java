package io.slotted.server.cli;

import java.io.PrintWriter;
import java.nio.charset.Charset;

/** Runs the {@code slotted} command line and exits with its status. */
public final class Main {
    private Main() {
    }

    /**
     * Runs a command.
     *
     * @param args the command and its options, such as {@code serve --port 8080}
     */
    public static void main(String[] args) {
        Charset charset = Charset.defaultCharset();
        int status = SlottedCommand.commandLine(new PrintWriter(System.out, true, charset),
                new PrintWriter(System.err, true, charset)).execute(args);
        System.exit(status);
    }
}
