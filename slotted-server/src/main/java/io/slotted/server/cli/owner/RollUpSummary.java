package io.slotted.server.cli.owner;

import io.slotted.RollUpReport;
import java.io.PrintWriter;

/**
 * What a roll-up did, in lines for a person: how many counters were written into their owner
 * columns, how many stayed in the slots for want of an owner row, and each refusal with its
 * reason. {@code rollup --once} and {@code release} print it alike.
 */
final class RollUpSummary {
    private RollUpSummary() {
    }

    /**
     * Prints the report.
     *
     * @param out where to print
     * @param report what the roll-up did
     */
    static void print(PrintWriter out, RollUpReport report) {
        out.println("counters written into owner columns: " + report.countersRolledUp());
        if (report.countersWithoutOwnerRow() > 0) {
            out.println("counters without an owner row: " + report.countersWithoutOwnerRow()
                    + " (their counts stay in the slots, where reads still find them)");
        }
        report.refused().forEach(reason -> out.println("refused: " + reason));
    }
}
