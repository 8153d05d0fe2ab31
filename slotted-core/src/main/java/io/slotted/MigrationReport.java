package io.slotted;

import java.util.List;

/**
 * What {@link SlottedCounters#migrate()} found or did.
 *
 * @param table the counter table, as configured
 * @param created true if the counter table was missing and has been created; false if an existing
 *     table was checked and left as it was
 * @param actions each thing done, as a sentence ("created table slotted_counters_ledger")
 * @param warnings things about an existing table that work but cost something, each a sentence
 *     that says what to change; empty when there is nothing to say
 */
public record MigrationReport(String table, boolean created, List<String> actions,
        List<String> warnings) {

    /**
     * Creates a report.
     *
     * @param table the counter table
     * @param created whether it was created just now
     * @param actions what was done, possibly nothing
     * @param warnings what to look at, possibly nothing
     */
    public MigrationReport {
        actions = List.copyOf(actions);
        warnings = List.copyOf(warnings);
    }

    /**
     * A few lines for a person: what was done, then each warning.
     *
     * @return a description suitable for a log line or a command's output
     */
    public String describe() {
        StringBuilder text = new StringBuilder(created ? "" : "table " + table
                + " exists and has the columns and unique key Slotted needs");
        actions.forEach(a -> text.append(text.length() == 0 ? "" : System.lineSeparator()).append(a));
        warnings.forEach(w -> text.append(System.lineSeparator()).append("warning: ").append(w));
        return text.toString();
    }
}
