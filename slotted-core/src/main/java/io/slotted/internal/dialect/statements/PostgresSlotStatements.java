package io.slotted.internal.dialect.statements;

import io.slotted.internal.sql.TableName;
import java.util.Collections;

/**
 * PostgreSQL's text for the slot statements whose plan must not depend on the table's statistics.
 *
 * <p>A read of some counters' rows by an id list is planned from the table's statistics, and a
 * table that was never analyzed (autovacuum off, which also stops automatic {@code ANALYZE}) has
 * none: PostgreSQL then scanned the type's whole key range and filtered it by the list, 32 ms a
 * chunk of 500 counters under load where probing the key for each id takes 4 ms (docs/
 * benchmarks.md). Here each id is joined laterally to its own rows, a nested loop of one key
 * lookup per id whatever the statistics say, in the list's order, so that rows are still locked
 * in key order.
 */
public final class PostgresSlotStatements extends SlotStatements {
    /**
     * The statements of one counter table.
     *
     * @param counters the counter table
     */
    public PostgresSlotStatements(TableName counters) {
        super(counters);
    }

    @Override
    public String lockFromSlot(int ids) {
        return byIds(ids, " FOR UPDATE");
    }

    @Override
    public String readFromSlot(int ids) {
        return byIds(ids, "");
    }

    /** Binds as the statements it replaces: the type, the smallest and the largest id, the ids, the lowest slot. */
    private String byIds(int ids, String locking) {
        String values = String.join(", ", Collections.nCopies(ids, "(CAST(? AS BIGINT))"));
        return "SELECT s.record_id, s.slot, s.count FROM (SELECT CAST(? AS INT) AS record_type,"
                + " CAST(? AS BIGINT) AS lo, CAST(? AS BIGINT) AS hi) p"
                + " CROSS JOIN (VALUES " + values + ") AS k(id)"
                + " CROSS JOIN LATERAL (SELECT record_id, slot, count FROM " + counters
                + " WHERE record_type = p.record_type AND record_id = k.id AND slot >= ? ORDER BY slot"
                + locking + ") s ORDER BY s.record_id, s.slot";
    }
}
