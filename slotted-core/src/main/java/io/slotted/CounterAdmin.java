package io.slotted;

import java.util.List;

/**
 * Corrections and changes of shape, rarely made and never on the hot path: setting a counter,
 * checking counters against a source of truth, moving a type onto fewer slots, and reading what
 * the type registry holds. Reached through {@link SlottedCounters#admin()}.
 */
public interface CounterAdmin {
    /**
     * Sets a counter to an exact value. Increments acknowledged after this returns count on top
     * of it; increments acknowledged before it are replaced by it. On a type bound to an owner
     * column in {@link OwnerMode#FOLD} mode the column is set and the counter's slot rows removed;
     * otherwise the slot rows are replaced by one holding {@code count}. In {@code BUFFERED}
     * mode, increments accepted before the set but not yet written land on top of it.
     *
     * @param recordType what is counted
     * @param recordId whose count it is
     * @param count the new total, any 64-bit value
     * @throws CounterOverflowException if {@code count} does not fit the column it is written
     *     to; nothing changes
     * @throws SlottedException as {@link SlottedCounters#add(int, long, long)} does; nothing changes
     */
    void set(int recordType, long recordId, long count);

    /**
     * Compares every counter of a type with a source of truth and, if asked, repairs the
     * differences. The source is a query returning {@code (record_id, count)} rows, such as
     * {@code SELECT repo_id, COUNT(*) FROM downloads GROUP BY repo_id}; an id it does not return
     * is expected to be 0. The source and the counters are read in one snapshot. A repair adds
     * each difference as an increment, so increments landing meanwhile are neither lost nor
     * counted twice; it is exact when the counted events and their increments commit together
     * (through {@link SlottedCounters#add(java.sql.Connection, int, long, long)}). Otherwise a counter may differ by
     * increments still in flight, so a repair reads twice, a second apart, and repairs only
     * differences seen unchanged in both.
     *
     * @param recordType the counter type
     * @param sourceQuery a query whose rows are {@code (record_id, count)}, integers, one per id
     * @param fix true to repair the differences, false only to report them
     * @return what was checked, found and fixed
     * @throws IllegalArgumentException if the query does not return two integer columns with
     *     distinct ids, or fails (the database's message is kept); nothing changes
     * @throws SlottedException if the database fails
     */
    default RecountReport recount(int recordType, String sourceQuery, boolean fix) {
        return recount(recordType, sourceQuery, fix, Progress.NONE);
    }

    /**
     * As {@link #recount(int, String, boolean)}, followed by {@code progress}, which may stop it:
     * while it reads, nothing has changed; while it repairs, between batches of repairs, each one
     * transaction.
     *
     * @param recordType the counter type
     * @param sourceQuery a query whose rows are {@code (record_id, count)}, integers, one per id
     * @param fix true to repair the differences, false only to report them
     * @param progress what follows the steps and may ask it to stop
     * @return what was checked, found and fixed
     * @throws IllegalArgumentException as {@link #recount(int, String, boolean)} does
     * @throws StoppedException if {@code progress} asked it to stop; the repairs committed stay
     * @throws SlottedException if the database fails
     */
    RecountReport recount(int recordType, String sourceQuery, boolean fix, Progress progress);

    /**
     * Moves a counter type onto a new number of slots while increments continue, for every
     * process using this database (the slot count is recorded in the type registry, which
     * overrides {@link SlottedCountersBuilder#slots(int, int)}). Rows in slots beyond the new count
     * are moved into the remaining ones, each move one transaction, so no increment is lost or
     * counted twice; this returns once no row is left beyond the new count after every process
     * has seen it.
     *
     * @param recordType the counter type
     * @param slots from 1 to {@link SlottedCountersBuilder#MAX_SLOTS}
     * @return how many slot rows were moved
     * @throws IllegalArgumentException if {@code slots} is out of range, or the type expires
     * @throws SlottedException if the database fails; rows moved stay moved, and it may be run again
     */
    default long shrink(int recordType, int slots) {
        return shrink(recordType, slots, Progress.NONE);
    }

    /**
     * As {@link #shrink(int, int)}, followed by {@code progress}, which may stop it between the
     * transactions that move rows. Stopped, the type is on the new slot count all the same and
     * every read stays exact; the rows not yet moved are moved by the next shrink.
     *
     * @param recordType the counter type
     * @param slots from 1 to {@link SlottedCountersBuilder#MAX_SLOTS}
     * @param progress what follows the steps and may ask it to stop
     * @return how many slot rows were moved
     * @throws IllegalArgumentException if {@code slots} is out of range, or the type expires
     * @throws StoppedException if {@code progress} asked it to stop; rows moved stay moved
     * @throws SlottedException if the database fails; rows moved stay moved, and it may be run again
     */
    long shrink(int recordType, int slots, Progress progress);

    /**
     * Reads the type registry, which every process using this database follows: each counter type
     * it holds a row for — one bound to an owner column, moved onto fewer slots, or given limits —
     * with its slots, limits, binding and roll-up. A type the registry holds no row for is written
     * with this process's own settings.
     *
     * @return the registered types, by record type
     * @throws SlottedException if the database fails
     */
    List<RegisteredType> types();
}
