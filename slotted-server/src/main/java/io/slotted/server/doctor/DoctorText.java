package io.slotted.server.doctor;

import io.slotted.server.doctor.locks.DeadlockReport;
import io.slotted.server.doctor.locks.HotRow;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** The doctor's report as a screen a person can act on: hot rows first, then the checks. */
public final class DoctorText {
    private DoctorText() {
    }

    /**
     * Renders a report.
     *
     * @param report what the doctor found
     * @return lines of text, ending with a line break
     */
    public static String render(DoctorReport report) {
        StringBuilder out = new StringBuilder();
        line(out, "slotted doctor: " + report.database() + ", lock waits sampled for "
                + seconds(report.windowMillis()) + " (" + report.samples() + " samples)");
        line(out, "");
        hotRows(out, report.hotRows());
        line(out, "In the window: " + count(report.deadlocks(), "deadlock", "deadlocks")
                + ", " + count(report.lockWaitTimeouts(), "lock-wait timeout", "lock-wait timeouts")
                + (report.rowLockWaitMillis() < 0 ? "" : ", " + seconds(report.rowLockWaitMillis())
                        + " spent waiting for row locks (all rows)"));
        if (report.latestDeadlock() != null) {
            DeadlockReport deadlock = report.latestDeadlock();
            line(out, "Latest deadlock the server describes (" + deadlock.detectedAt() + "): "
                    + String.join(" / ", deadlock.statements()) + "; rows " + String.join(" and ", deadlock.rows())
                    + (deadlock.rolledBack() > 0 ? "; statement " + deadlock.rolledBack() + " was rolled back" : ""));
        }
        line(out, "");
        line(out, "Checks:");
        report.checks().forEach(check -> {
            line(out, "  " + (check.ok() ? "ok   " : "FIX  ") + check.name() + ": " + check.value());
            if (!check.ok()) {
                line(out, "       why: " + check.why());
                line(out, "       do:  " + check.advice());
            }
        });
        if (report.checks().isEmpty()) {
            line(out, "  (none: no settings or Slotted tables could be read)");
        }
        list(out, "Missing privileges:", report.missingGrants());
        list(out, "Notes:", report.notes());
        line(out, "");
        line(out, report.hasFindings() ? "Findings to act on above (exit status 3)." : "Nothing to fix.");
        return out.toString();
    }

    private static void hotRows(StringBuilder out, List<HotRow> rows) {
        if (rows.isEmpty()) {
            line(out, "No hot rows: no row had sessions queueing for it in the window.");
            line(out, "");
            return;
        }
        line(out, "Hot rows:");
        for (HotRow row : rows) {
            String key = row.key().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                    .collect(Collectors.joining(", "));
            line(out, "  " + row.table() + " " + key + (row.index() == null ? "" : " (index " + row.index() + ")"));
            line(out, "    " + row.waits() + " waits from " + row.sessions() + " sessions; at least "
                    + seconds(row.totalWaitMillis()) + " in all, the longest at least "
                    + seconds(row.longestWaitMillis()));
            line(out, "    waiting: " + row.statement());
            line(out, "    do: " + row.advice());
        }
        line(out, "");
    }

    private static void list(StringBuilder out, String heading, List<String> items) {
        if (!items.isEmpty()) {
            line(out, heading);
            items.forEach(item -> line(out, "  - " + item));
        }
    }

    private static String count(long n, String one, String many) {
        return n < 0 ? many + " not counted" : n + " " + (n == 1 ? one : many);
    }

    private static String seconds(long millis) {
        return millis < 1000 ? millis + " ms" : String.format(Locale.ROOT, "%.1f s", millis / 1000.0);
    }

    private static void line(StringBuilder out, String text) {
        out.append(text).append(System.lineSeparator());
    }
}
