package io.slotted.internal.dialect.statements;

import io.slotted.OwnerColumn;
import io.slotted.internal.sql.TableName;
import java.util.Collections;

/**
 * PostgreSQL's text for the owner-column statements whose plan must not depend on the counter
 * table's statistics: the totals of many folded counters read each counter's slot rows by a key
 * lookup, as {@link PostgresSlotStatements} reads a roll-up's chunk. With an {@code IN} list,
 * a table never analyzed (autovacuum off, or a new table before its first automatic
 * {@code ANALYZE}) had the totals of 500 counters read by a scan of the type's key range: 16 ms
 * a call under load (docs/benchmarks.md). {@code OFFSET 0} keeps PostgreSQL from pulling the
 * lateral subquery up into a hash join that scans the same range, as it did here (184 ms, against
 * 4.8 ms with it, on a table of 440,000 rows never analyzed).
 */
public final class PostgresOwnerStatements extends OwnerStatements {
    /**
     * Creates the SQL for one owner column.
     *
     * @param owner the owner column
     * @param slots the counter table
     */
    public PostgresOwnerStatements(OwnerColumn owner, TableName slots) {
        super(owner, slots);
    }

    /** Binds as the statement it replaces: the ids, the type, the least and the most id, the ids. */
    @Override
    public String totalsSql(int ids) {
        String keys = String.join(", ", Collections.nCopies(ids, "(CAST(? AS BIGINT))"));
        return "SELECT id, SUM(n) FROM (SELECT " + owner.keyColumn() + " AS id, " + owner.countColumn()
                + " AS n FROM " + owner.table() + " WHERE " + owner.keyColumn() + " IN ("
                + SlotStatements.placeholders(ids) + ") UNION ALL SELECT k.id, s.count AS n FROM (SELECT"
                + " CAST(? AS INT) AS record_type, CAST(? AS BIGINT) AS lo, CAST(? AS BIGINT) AS hi) p"
                + " CROSS JOIN (VALUES " + keys + ") AS k(id) CROSS JOIN LATERAL (SELECT count FROM " + slots
                + " WHERE record_type = p.record_type AND record_id = k.id OFFSET 0) s) t GROUP BY id";
    }
}
