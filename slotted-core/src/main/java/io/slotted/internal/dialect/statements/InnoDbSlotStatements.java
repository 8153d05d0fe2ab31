package io.slotted.internal.dialect.statements;

import io.slotted.internal.sql.TableName;

/**
 * The slot statements of MariaDB and MySQL, whose InnoDB reads a repeatable-read transaction's
 * snapshot, taken at its first read, unless a read locks.
 */
public final class InnoDbSlotStatements extends SlotStatements {
    /**
     * The statements of one counter table.
     *
     * @param counters the counter table
     */
    public InnoDbSlotStatements(TableName counters) {
        super(counters);
    }

    /** A locking read, which reads the latest committed rows whatever the snapshot. */
    @Override
    public String lockedTotal() {
        return total() + " FOR UPDATE";
    }
}
