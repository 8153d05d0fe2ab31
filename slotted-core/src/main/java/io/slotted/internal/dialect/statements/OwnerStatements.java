package io.slotted.internal.dialect.statements;

import io.slotted.OwnerColumn;
import io.slotted.internal.sql.TableName;

/**
 * The SQL that reads and writes a counter type's owner column beside its slot rows. Standard SQL
 * that every supported database takes; a dialect whose database needs other text returns a subclass
 * from {@code Dialect.ownerStatements}.
 *
 * <p>Every statement names the owner table and columns unquoted, as checked identifiers (see
 * {@link OwnerColumn}), and binds every value. A fold-mode read adds the column to the slots in one
 * statement, so it sees a roll-up either wholly or not at all: the roll-up moves a sum from the
 * slots to the column in one transaction, and one statement reads one snapshot.
 */
public class OwnerStatements {
    /** The owner column. */
    protected final OwnerColumn owner;
    /** The counter table. */
    protected final TableName slots;

    /**
     * Creates the SQL for one owner column.
     *
     * @param owner the owner column
     * @param slots the counter table
     */
    public OwnerStatements(OwnerColumn owner, TableName slots) {
        this.owner = owner;
        this.slots = slots;
    }

    /**
     * The owner column.
     *
     * @return the owner column
     */
    public OwnerColumn owner() {
        return owner;
    }

    /**
     * One counter's total, column plus slots. Binds the record id, the record type and the
     * record id again.
     *
     * @return the SQL text; its one row holds the total, or null when there is nothing
     */
    public String totalSql() {
        return "SELECT SUM(n) FROM (SELECT " + owner.countColumn() + " AS n FROM " + owner.table()
                + " WHERE " + owner.keyColumn() + " = ? UNION ALL SELECT count AS n FROM " + slots
                + " WHERE record_type = ? AND record_id = ?) t";
    }

    /**
     * Many counters' totals. Binds the {@code ids} record ids, the record type, the least and the
     * most of the ids, and the record ids again. The bounds keep the slot rows' read to one range
     * of the key per id whatever the table's statistics say: without them MariaDB read 198,000
     * rows for 500 counters of a type it had planned from statistics taken while the table filled
     * (26 ms, docs/benchmarks.md), and H2 scans the type for an {@code IN} list on the key's
     * second column ({@link SlotStatements#lockFromSlot}).
     *
     * @param ids how many ids
     * @return the SQL text; rows of (record id, total)
     */
    public String totalsSql(int ids) {
        String in = SlotStatements.placeholders(ids);
        return "SELECT id, SUM(n) FROM (SELECT " + owner.keyColumn() + " AS id, " + owner.countColumn()
                + " AS n FROM " + owner.table() + " WHERE " + owner.keyColumn() + " IN (" + in + ")"
                + " UNION ALL SELECT record_id AS id, count AS n FROM " + slots
                + " WHERE record_type = ? AND record_id BETWEEN ? AND ? AND record_id IN (" + in + ")) t"
                + " GROUP BY id";
    }

    /**
     * The counters of the type whose total, column plus slots, lies outside some limits: owner
     * rows with or without slot rows, and slot rows with no owner row. Binds the record type, then
     * the least and the most total within the limits.
     *
     * @return the SQL text; rows of (record id, total)
     */
    public String outsideSql() {
        return "SELECT id, SUM(n) FROM (SELECT " + owner.keyColumn() + " AS id, " + owner.countColumn()
                + " AS n FROM " + owner.table() + " UNION ALL SELECT record_id AS id, count AS n FROM " + slots
                + " WHERE record_type = ?) t GROUP BY id HAVING SUM(n) < ? OR SUM(n) > ?";
    }

    /**
     * Reads and locks owner rows, in key order. Binds the {@code ids} keys.
     *
     * @param ids how many keys
     * @return the SQL text; rows of (key, column value or null)
     */
    public String lockSql(int ids) {
        return "SELECT " + owner.keyColumn() + ", " + owner.countColumn() + " FROM " + owner.table()
                + " WHERE " + owner.keyColumn() + " IN (" + SlotStatements.placeholders(ids) + ") ORDER BY "
                + owner.keyColumn() + " FOR UPDATE";
    }

    /**
     * Sets one owner row's column. Binds the value, then the key.
     *
     * @return the SQL text
     */
    public String setSql() {
        return "UPDATE " + owner.table() + " SET " + owner.countColumn() + " = ? WHERE "
                + owner.keyColumn() + " = ?";
    }

    /**
     * Sets many owner rows' columns in one statement, the keys and values written into its text
     * (numbers only): one statement per chunk rather than one per row, which a roll-up of
     * thousands of counters a second feels. No parameters.
     *
     * @param values each key's new column value; not empty
     * @return the SQL text
     */
    public String setManySql(java.util.Map<Long, Long> values) {
        StringBuilder cases = new StringBuilder();
        StringBuilder keys = new StringBuilder();
        for (java.util.Map.Entry<Long, Long> value : values.entrySet()) {
            cases.append(" WHEN ").append(value.getKey().longValue()).append(" THEN ")
                    .append(value.getValue().longValue());
            keys.append(keys.length() == 0 ? "" : ", ").append(value.getKey().longValue());
        }
        return "UPDATE " + owner.table() + " SET " + owner.countColumn() + " = CASE "
                + owner.keyColumn() + cases + " END WHERE " + owner.keyColumn() + " IN (" + keys + ")";
    }

    /**
     * The owner rows whose column differs from their counter's slot sum, and the slot sums with no
     * owner row, for a copy-mode roll-up. Binds the record type.
     *
     * @return the SQL text; rows of (record id, slot sum, owner key or null)
     */
    public String copyDifferencesSql() {
        return "SELECT s.record_id, s.total, o." + owner.keyColumn() + " FROM (SELECT record_id,"
                + " SUM(count) AS total FROM " + slots + " WHERE record_type = ? GROUP BY record_id) s"
                + " LEFT JOIN " + owner.table() + " o ON o." + owner.keyColumn() + " = s.record_id"
                + " WHERE o." + owner.keyColumn() + " IS NULL OR o." + owner.countColumn() + " IS NULL"
                + " OR o." + owner.countColumn() + " <> s.total";
    }

    /**
     * The owner rows with a non-zero column. No parameters.
     *
     * @return the SQL text; rows of (key, column value)
     */
    public String nonZeroSql() {
        return "SELECT " + owner.keyColumn() + ", " + owner.countColumn() + " FROM " + owner.table()
                + " WHERE " + owner.countColumn() + " <> 0";
    }

    /**
     * The column's smallest and largest values. No parameters.
     *
     * @return the SQL text; one row of (min, max), nulls for an empty table
     */
    public String rangeSql() {
        return "SELECT MIN(" + owner.countColumn() + "), MAX(" + owner.countColumn() + ") FROM "
                + owner.table();
    }

    /**
     * Counts the counters whose column and slots both hold counts, which a fold-mode adoption
     * would add together. Binds the record type.
     *
     * @return the SQL text; one row of the count
     */
    public String foldClashSql() {
        return "SELECT COUNT(*) FROM " + owner.table() + " o JOIN (SELECT record_id, SUM(count) AS total FROM "
                + slots + " WHERE record_type = ? GROUP BY record_id) s ON s.record_id = o."
                + owner.keyColumn() + " WHERE o." + owner.countColumn() + " <> 0 AND s.total <> 0";
    }

    /**
     * Counts the counters whose column does not equal their slots' sum, which a copy-mode adoption
     * would overwrite. Binds the record type.
     *
     * @return the SQL text; one row of the count
     */
    public String copyClashSql() {
        return "SELECT COUNT(*) FROM " + owner.table() + " o LEFT JOIN (SELECT record_id, SUM(count) AS total"
                + " FROM " + slots + " WHERE record_type = ? GROUP BY record_id) s"
                + " ON s.record_id = o." + owner.keyColumn() + " WHERE o." + owner.countColumn() + " <> 0"
                + " AND (s.total IS NULL OR s.total <> o." + owner.countColumn() + ")";
    }
}
