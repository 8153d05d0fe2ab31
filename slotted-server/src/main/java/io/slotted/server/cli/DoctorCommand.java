package io.slotted.server.cli;

import io.slotted.server.doctor.Doctor;
import io.slotted.server.doctor.DoctorReport;
import io.slotted.server.doctor.DoctorSettings;
import io.slotted.server.doctor.DoctorText;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code slotted doctor}: samples a MariaDB/MySQL or PostgreSQL database's row-lock waits for a
 * window, names the hot rows with the waiting statements and what to do, and checks the
 * durability settings and Slotted's own tables. Exit status 0 when there is nothing to fix,
 * {@value ExitStatus#FINDINGS} when the report has findings.
 */
@Command(name = "doctor", mixinStandardHelpOptions = true,
        description = "Finds the hot rows of any MariaDB/MySQL or PostgreSQL database and checks"
                + " Slotted's tables and the durability settings. Exit status 0 when there is"
                + " nothing to fix, 3 when there are findings.")
final class DoctorCommand implements Callable<Integer> {
    @Option(names = "--watch", paramLabel = "TIME", converter = DurationConverter.class,
            defaultValue = "${env:SLOTTED_DOCTOR_WATCH:-10s}",
            description = "How long to sample lock waits, 0s to 10m. Default: 10s. Env: SLOTTED_DOCTOR_WATCH.")
    Duration watch;

    @Option(names = "--json", description = "Print the report as JSON (the shape of GET /v1/doctor).")
    boolean json;

    @Option(names = "--table", paramLabel = "NAME", defaultValue = "slotted_counters",
            description = "Slotted's counter table to check, with its _ledger, _keys and _types."
                    + " Default: slotted_counters.")
    String table;

    @Mixin
    DatabaseOptions db;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        DoctorSettings settings = DoctorSettings.watching(watch, db.describeOption()).withTable(table);
        DoctorReport report = db.withDataSource(dataSource ->
                new Doctor(dataSource, settings, Clock.systemUTC()).examine());
        spec.commandLine().getOut().print(json ? report.toJson() + System.lineSeparator()
                : DoctorText.render(report));
        spec.commandLine().getOut().flush();
        return report.hasFindings() ? ExitStatus.FINDINGS : 0;
    }
}
