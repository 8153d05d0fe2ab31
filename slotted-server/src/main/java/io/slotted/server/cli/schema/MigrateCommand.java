package io.slotted.server.cli.schema;

import io.slotted.MigrationReport;
import io.slotted.server.cli.DatabaseOptions;
import io.slotted.server.cli.progress.CommandProgress;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code slotted migrate}: creates the counter table and its companions, or checks them. */
@Command(name = "migrate", mixinStandardHelpOptions = true,
        description = "Creates the schema if it is missing, or checks the one there; says what it did.")
public final class MigrateCommand implements Callable<Integer> {
    @Mixin
    DatabaseOptions db;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        db.withCounters(2, counters -> {
            MigrationReport report;
            try (CommandProgress progress = CommandProgress.start(spec.commandLine())) {
                report = counters.migrate(progress);
            }
            spec.commandLine().getOut().println(report.describe());
        });
        return 0;
    }
}
