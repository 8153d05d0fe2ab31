package io.slotted.server.cli.owner;

import io.slotted.RecountReport.Difference;
import io.slotted.RecountReport;
import io.slotted.server.cli.DatabaseOptions;
import io.slotted.server.cli.ExitStatus;
import io.slotted.server.cli.TypeNamesOption;
import io.slotted.server.cli.progress.CommandProgress;
import io.slotted.server.config.CounterType;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code slotted recount TYPE --source "SQL" [--fix]}: compares every counter of a type with a
 * source-of-truth query returning {@code (record_id, count)} rows, prints how many were checked,
 * differ, were fixed and were left unsettled (their difference moved between the two readings a
 * fix makes: increments were in flight), and the largest differences as a small table.
 *
 * <p>Exit status 0 when nothing differs or every difference was fixed, and
 * {@value ExitStatus#FINDINGS} when differences remain: found without {@code --fix}, or left
 * unsettled by it (run it again). A query that fails or does not return two integer columns with
 * distinct ids is a usage error, with the database's message.
 */
@Command(name = "recount", mixinStandardHelpOptions = true,
        description = "Compares every counter of a type with a source-of-truth query; --fix repairs"
                + " the differences. Exit status 0 when none remain, 3 when some do.")
public final class RecountCommand implements Callable<Integer> {
    private static final String[] HEADINGS = {"ID", "SOURCE", "COUNTER", "DIFFERENCE"};

    @Parameters(index = "0", paramLabel = "TYPE", description = "A type name from --types, or a record_type number.")
    String type;

    @Option(names = "--source", paramLabel = "SQL", defaultValue = "${env:SLOTTED_RECOUNT_SOURCE}",
            description = "A query returning (record_id, count) rows, one per id, such as"
                    + " \"SELECT repo_id, COUNT(*) FROM downloads GROUP BY repo_id\"; an id it does"
                    + " not return should count 0. Env: SLOTTED_RECOUNT_SOURCE.")
    String source;

    @Option(names = "--fix", defaultValue = "${env:SLOTTED_RECOUNT_FIX:-false}",
            description = "Repair the differences, each as an increment, so increments landing"
                    + " meanwhile are neither lost nor counted twice. Env: SLOTTED_RECOUNT_FIX.")
    boolean fix;

    @Mixin
    TypeNamesOption types;

    @Mixin
    DatabaseOptions db;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (source == null || source.isBlank()) {
            throw new ParameterException(spec.commandLine(), "missing --source \"SQL\", a query"
                    + " returning (record_id, count) rows, such as --source \"SELECT repo_id,"
                    + " COUNT(*) FROM downloads GROUP BY repo_id\"");
        }
        CounterType counterType = types.resolve(type);
        AtomicReference<RecountReport> found = new AtomicReference<>();
        try (CommandProgress progress = CommandProgress.start(spec.commandLine())) {
            db.withCounters(4, counters -> found.set(counters.admin().recount(counterType.recordType(), source,
                    fix, progress)));
        }
        RecountReport report = found.get();
        print(counterType, report);
        return report.fixed() == report.differing() ? 0 : ExitStatus.FINDINGS;
    }

    private void print(CounterType counterType, RecountReport report) {
        PrintWriter out = spec.commandLine().getOut();
        out.println("checked " + report.checked() + (report.checked() == 1 ? " counter" : " counters")
                + " of " + counterType + ": "
                + report.differing() + " differ, " + report.fixed() + " fixed, "
                + report.unsettled() + " unsettled");
        if (!report.largest().isEmpty()) {
            out.println("largest differences:");
            table(report.largest()).forEach(out::println);
        }
        long remaining = report.differing() - report.fixed();
        if (remaining > 0) {
            out.println(fix ? remaining + " differences changed while they were read (increments in"
                    + " flight): run the recount again" : "run with --fix to repair them");
        }
    }

    /** The differences as rows of right-aligned columns under their headings. */
    private static List<String> table(List<Difference> differences) {
        List<String[]> rows = new ArrayList<>();
        rows.add(HEADINGS);
        differences.forEach(difference -> rows.add(new String[] {
            Long.toString(difference.recordId()), Long.toString(difference.expected()),
            Long.toString(difference.actual()), String.format(Locale.ROOT, "%+d", difference.difference())}));
        StringBuilder format = new StringBuilder();
        for (int column = 0; column < HEADINGS.length; column++) {
            int at = column;
            int width = rows.stream().mapToInt(row -> row[at].length()).max().orElse(0);
            format.append("  %").append(width).append('s');
        }
        return rows.stream().map(row -> String.format(Locale.ROOT, format.toString(), (Object[]) row))
                .toList();
    }
}
