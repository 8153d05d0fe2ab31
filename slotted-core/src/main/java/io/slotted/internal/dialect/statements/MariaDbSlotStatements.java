package io.slotted.internal.dialect.statements;

import io.slotted.internal.sql.TableName;
import java.util.Collections;

/**
 * MariaDB's and MySQL's text for the slot statements that are cheaper as one statement than as a
 * batch.
 *
 * <p>A roll-up takes what it read out of each slot row it folded: about 700 rows a chunk of 500
 * counters under load. MariaDB parses and plans each statement of a batch anew (the driver
 * prepares on the client), so 700 one-row {@code UPDATE}s cost the server about 20 times one
 * {@code UPDATE} joining the rows' keys (docs/benchmarks.md). The join is written with the list
 * first and {@code STRAIGHT_JOIN}, so it stays a key lookup per listed row, in the list's order —
 * the key order every writer locks rows in — whatever the table's statistics say.
 */
public final class MariaDbSlotStatements extends SlotStatements {
    /**
     * The statements of one counter table.
     *
     * @param counters the counter table
     */
    public MariaDbSlotStatements(TableName counters) {
        super(counters);
    }

    @Override
    public String subtractFromSlots(int rows) {
        if (rows < 1 || rows > SUBTRACTED_AT_ONCE) {
            throw new IllegalArgumentException("1 to " + SUBTRACTED_AT_ONCE + " rows, not " + rows);
        }
        String more = rows == 1 ? "" : " UNION ALL " + String.join(" UNION ALL ", Collections.nCopies(rows - 1,
                "SELECT ?, ?, ?"));
        return "UPDATE (SELECT ? AS record_id, ? AS slot, ? AS amount" + more + ") taken STRAIGHT_JOIN "
                + counters + " c ON c.record_type = ? AND c.record_id = taken.record_id AND c.slot = taken.slot"
                + " SET c.count = c.count - taken.amount";
    }
}
