package io.slotted;

/**
 * Owner columns: counter types bound to a column of their owning row, such as
 * {@code repositories.downloads_count}, kept up to date by roll-ups. Reached through
 * {@link SlottedCounters#owners()}; the binding is recorded in the database, so it holds for
 * every process counting into the same table.
 */
public interface OwnerColumns {
    /**
     * Binds a counter type to a column of its owning row, such as
     * {@code repositories.id.downloads_count}, for every process using this database: the binding
     * is recorded in Slotted's type registry ({@code <table>_types}), which every instance reads.
     * In {@link OwnerMode#FOLD} mode the column's current value becomes each counter's base and
     * nothing is copied, so an application still running {@code UPDATE … SET downloads_count =
     * downloads_count + 1} can adopt the column while it runs and move its writers to Slotted
     * afterwards. Roll-ups begin a few seconds later, once every process has seen the binding.
     *
     * @param recordType the counter type
     * @param owner the owner table, its unique integer key column and its integer count column
     * @param mode how the column is kept
     * @return the column's type and headroom, and warnings
     * @throws IllegalArgumentException if the owner table or a column does not exist, a column
     *     is not an integer type, the key column is not unique, or the column's values cannot be
     *     taken in {@code mode} (the message says which and what to do), or the type expires;
     *     nothing changes
     * @throws IllegalStateException if the type is already bound; nothing changes
     * @throws SlottedException if the database fails
     */
    default AdoptionReport adopt(int recordType, OwnerColumn owner, OwnerMode mode) {
        return adopt(recordType, owner, mode, Progress.NONE);
    }

    /**
     * As {@link #adopt(int, OwnerColumn, OwnerMode)}, followed by {@code progress}: each check is
     * one statement over the owner table, which the database runs whole, and a stop asked for
     * before the binding is written binds nothing.
     *
     * @param recordType the counter type
     * @param owner the owner table, its unique integer key column and its integer count column
     * @param mode how the column is kept
     * @param progress what follows the steps and may ask it to stop
     * @return the column's type and headroom, and warnings
     * @throws IllegalArgumentException as {@link #adopt(int, OwnerColumn, OwnerMode)} does
     * @throws IllegalStateException if the type is already bound; nothing changes
     * @throws StoppedException if {@code progress} asked it to stop; nothing changes
     * @throws SlottedException if the database fails
     */
    AdoptionReport adopt(int recordType, OwnerColumn owner, OwnerMode mode, Progress progress);

    /**
     * Rolls everything a bound counter type holds in its slot rows into the owner column, deletes
     * the slot rows and unbinds the type, so the application may go back to plain {@code UPDATE}s
     * of the column. Every counter reads exactly what was added throughout, a failure included: a
     * {@link OwnerMode#COPY} type, whose reads come from its slots, keeps its slot rows until the
     * one transaction that empties them and unbinds it. Stop writing the type through Slotted
     * first: increments made after the release stay in the slot rows, outside the column.
     *
     * @param recordType the bound counter type
     * @return what the final roll-up did
     * @throws IllegalStateException if the type is not bound; nothing changes
     * @throws SlottedException if the database fails; the binding then stays, every counter exact,
     *     and the release may be run again (unless the failure hid the success of the COMMIT that
     *     unbinds the type: running it again then says the type is not bound)
     */
    default RollUpReport release(int recordType) {
        return release(recordType, Progress.NONE);
    }

    /**
     * As {@link #release(int)}, followed by {@code progress}, which may stop it before the roll-up
     * begins and between the transactions that roll counters into the column (a type bound in
     * {@link OwnerMode#FOLD} mode) or copy them into it ({@link OwnerMode#COPY}), but not in a
     * copy-mode type's last transaction, which empties its slot rows and unbinds it. Stopped, the
     * type stays bound, and the counters rolled up or copied are in the column as a roll-up would
     * have left them.
     *
     * @param recordType the bound counter type
     * @param progress what follows the steps and may ask it to stop
     * @return what the final roll-up did
     * @throws IllegalStateException if the type is not bound; nothing changes
     * @throws StoppedException if {@code progress} asked it to stop; the type stays bound
     * @throws SlottedException if the database fails, as {@link #release(int)} says
     */
    RollUpReport release(int recordType, Progress progress);

    /**
     * Rolls up every bound counter type now, waiting for a roll-up another process is running to
     * finish first. Roll-ups also run by themselves when
     * {@link SlottedCountersBuilder#rollUpEvery(java.time.Duration)} is set.
     *
     * @return what was rolled up
     * @throws SlottedException if the database fails; what was committed stays committed, the rest
     *     is rolled up next time
     */
    RollUpReport rollUpNow();
}
