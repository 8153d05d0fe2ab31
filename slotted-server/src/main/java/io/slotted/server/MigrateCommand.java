package io.slotted.server;

import io.slotted.SlottedException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code slotted migrate}: creates the counter table and its companions, or checks them. */
@Command(name = "migrate", mixinStandardHelpOptions = true,
        description = "Creates the schema if it is missing, or checks the one there; says what it did.")
final class MigrateCommand implements Callable<Integer> {
    @Mixin
    DatabaseOptions db;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        try (Database database = Database.open(db.settings(), Database.CounterSettings.DEFAULTS, 2, null)) {
            try {
                spec.commandLine().getOut().println(database.counters().migrate().describe());
            } catch (SlottedException e) {
                throw database.explain(e);
            }
        }
        return 0;
    }
}
