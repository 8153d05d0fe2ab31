package io.slotted;

import java.sql.Connection;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import javax.sql.DataSource;

/**
 * Hot counters kept in a SQL table, spread over several rows (slots) per counter so that
 * concurrent increments do not queue on one row lock.
 *
 * <p>A counter is named by an {@code int recordType} (what is counted: downloads, views, likes) and
 * a {@code long recordId} (whose: the repository, page or post). Counters exist implicitly: one that
 * was never incremented reads 0. Instances are thread-safe and meant to be shared, one per table;
 * get one from {@link #builder(DataSource)} and {@link #close()} it when the application stops.
 *
 * <pre>{@code
 * SlottedCounters counters = SlottedCounters.builder(dataSource).build();
 * counters.migrate();
 * counters.increment(DOWNLOADS, repositoryId);
 * long downloads = counters.get(DOWNLOADS, repositoryId);
 * }</pre>
 */
public interface SlottedCounters extends AutoCloseable {
    /**
     * The one {@code record_type} no counter may use: group commit keeps a row of it per flusher
     * in the counter table, which records the flusher's last flush so that a flush whose commit was
     * lost can tell whether it landed. Every call taking a record type refuses it. Queries of your
     * own that sum the whole table should leave it out.
     */
    int RESERVED_RECORD_TYPE = Integer.MIN_VALUE;

    /**
     * The largest amount one increment may add or, negated, subtract: 2^52 - 1
     * (4,503,599,627,370,495). Each slot row holds at most this much, so that no counter's total
     * can leave the signed 64-bit range in any process; a counter of {@code S} slots holds up to
     * {@code S × MAX_DELTA} in its slots (and, bound in fold mode, up to 2^62 - 1 more in its
     * owner column). An increment that would take its slot row past the limit is refused with a
     * {@link CounterOverflowException} and changes nothing; a subtraction always brings a counter
     * back.
     */
    long MAX_DELTA = (1L << 52) - 1;

    /**
     * Starts configuring counters stored through the given data source. Slotted borrows a
     * connection per write or read and returns it at once; a pool such as HikariCP is recommended.
     *
     * @param dataSource where the counter table lives
     * @return a builder with the defaults described on each of its methods
     * @throws NullPointerException if {@code dataSource} is null
     */
    static SlottedCountersBuilder builder(DataSource dataSource) {
        return new SlottedCountersBuilder(dataSource);
    }

    /**
     * Checks an idempotency key against the rule every keyed call applies: 1 to 128 printable
     * ASCII characters (space to tilde), compared exactly. Front ends call this to refuse a bad key
     * before doing any other work; the keyed calls check it themselves.
     *
     * @param idempotencyKey the key a caller sent
     * @return the key, unchanged
     * @throws NullPointerException if {@code idempotencyKey} is null
     * @throws IllegalArgumentException if the key is empty, longer than 128 characters, or holds a
     *     character that is not printable ASCII; the message says which
     */
    static String checkIdempotencyKey(String idempotencyKey) {
        Objects.requireNonNull(idempotencyKey, "idempotencyKey must not be null");
        boolean printable = idempotencyKey.chars().allMatch(c -> c >= 0x20 && c <= 0x7e);
        if (idempotencyKey.isEmpty() || idempotencyKey.length() > 128 || !printable) {
            throw new IllegalArgumentException("idempotencyKey must be 1 to 128 printable ASCII"
                    + " characters, but had " + idempotencyKey.length() + " characters"
                    + (printable ? "" : ", some of them not printable ASCII"));
        }
        return idempotencyKey;
    }

    /**
     * Checks an increment's amount against the rule every call that adds applies: not 0, and
     * within {@code ±}{@link #MAX_DELTA}.
     *
     * @param recordType the counter's type, for the message
     * @param recordId the counter's id, for the message
     * @param delta the amount a caller gave
     * @return the amount, unchanged
     * @throws IllegalArgumentException if it is 0 or larger than {@link #MAX_DELTA} either way
     */
    static long checkDelta(int recordType, long recordId, long delta) {
        if (delta == 0) {
            throw new IllegalArgumentException("delta must not be 0 (counter (record_type="
                    + recordType + ", record_id=" + recordId + "))");
        }
        if (delta < -MAX_DELTA || delta > MAX_DELTA) {
            throw new IllegalArgumentException("delta must be between -" + MAX_DELTA + " and "
                    + MAX_DELTA + " (2^52 - 1, the most one slot row holds), but was " + delta
                    + " (counter (record_type=" + recordType + ", record_id=" + recordId
                    + ")); add a larger amount as several increments");
        }
        return delta;
    }

    /**
     * Checks a record type against {@link #RESERVED_RECORD_TYPE}.
     *
     * @param recordType the type a caller gave
     * @return the type, unchanged
     * @throws IllegalArgumentException if it is the reserved type
     */
    static int checkRecordType(int recordType) {
        if (recordType == RESERVED_RECORD_TYPE) {
            throw new IllegalArgumentException("record_type " + recordType + " is reserved for"
                    + " Slotted's own rows (see SlottedCounters.RESERVED_RECORD_TYPE); use any other int");
        }
        return recordType;
    }

    /**
     * Creates the counter table if it is missing, or checks an existing one. An existing table is
     * never altered; anything about it that works but has a cost (a surrogate auto-increment id
     * consumed by every upsert, {@code INT} columns that overflow) is reported as a warning.
     *
     * @return what was found or done, with warnings
     * @throws SchemaException if an existing table lacks a needed column or the unique key
     * @throws DatabaseUnavailableException if the database cannot be reached
     */
    MigrationReport migrate();

    /**
     * Adds {@code delta} to a counter and returns once the change is durable and visible to every
     * later read.
     *
     * @param recordType what is counted
     * @param recordId whose count it is
     * @param delta the amount to add; negative to subtract; never 0
     * @throws IllegalArgumentException if {@code delta} is 0
     * @throws CounterOverflowException if the slot written would leave its column's range; nothing
     *     changes
     * @throws ContentionException if lock conflicts outlasted every retry; nothing changes
     * @throws DatabaseUnavailableException if the database cannot be reached; nothing changes
     * @throws OutcomeUnknownException if the connection was lost while committing
     * @throws SchemaException if the counter table is missing or has the wrong shape
     * @throws IllegalStateException if these counters are closed
     */
    void add(int recordType, long recordId, long delta);

    /**
     * Adds 1 to a counter: {@code add(recordType, recordId, 1)}.
     *
     * @param recordType what is counted
     * @param recordId whose count it is
     * @throws SlottedException as {@link #add(int, long, long)} does
     */
    default void increment(int recordType, long recordId) {
        add(recordType, recordId, 1);
    }

    /**
     * Adds {@code delta} to a counter at most once per idempotency key, for callers that retry:
     * the first call with a key applies the increment; a later call with the same key and the same
     * counter and delta applies nothing and returns false. Keys are remembered for at least
     * {@link SlottedCountersBuilder#idempotencyRetention(java.time.Duration)}. The key is recorded
     * in the same transaction as the increment, so after an {@link OutcomeUnknownException} a
     * retry with the same key is always safe. Returns once durable, in every write mode.
     *
     * @param recordType what is counted
     * @param recordId whose count it is
     * @param delta the amount to add; never 0
     * @param idempotencyKey 1 to 128 printable ASCII characters naming this one increment
     * @return true if the increment was applied now; false if it had been applied before
     * @throws IllegalArgumentException if {@code delta} is 0 or the key is malformed
     * @throws IdempotencyConflictException if the key was used for a different increment; nothing
     *     changes
     * @throws SlottedException as {@link #add(int, long, long)} does
     */
    boolean add(int recordType, long recordId, long delta, String idempotencyKey);

    /**
     * Adds a batch of increments all or nothing: in one transaction, committed before this
     * returns. A batch is already a group, so it is written at once rather than queued.
     *
     * @param increments the increments, to any counters; several may name the same counter
     * @return how many increments were applied: all of them
     * @throws CounterOverflowException if any counter's slot would overflow; nothing changes
     * @throws SlottedException as {@link #add(int, long, long)} does; nothing changes
     */
    long addAll(Collection<Increment> increments);

    /**
     * Adds a batch of increments all or nothing, as {@link #addAll(Collection)} does, and answers
     * the total of each increment's counter right after that increment, as Redis answers the
     * increments of a {@code MULTI}: as if the batch had run alone, one increment after another.
     * The totals are read in the batch's transaction, before it commits (a type folding into an
     * owner column after), so they include the batch and every increment acknowledged before it.
     *
     * @param increments the increments, to any counters; several may name the same counter
     * @return each increment's total, in the order given
     * @throws CounterOverflowException if any counter's slot would overflow; nothing changes
     * @throws SlottedException as {@link #add(int, long, long)} does, and nothing changes; or,
     *     saying that the batch was applied, if totals could not be read after it
     */
    List<Long> addAllAndGet(Collection<Increment> increments);

    /**
     * Adds a batch of increments all or nothing, at most once per idempotency key: a later call
     * with the same key and the same increments, in the same order, applies nothing and returns
     * false.
     *
     * @param increments the increments
     * @param idempotencyKey 1 to 128 printable ASCII characters naming this one batch
     * @return true if the batch was applied now; false if it had been applied before
     * @throws IdempotencyConflictException if the key was used for something else
     * @throws SlottedException as {@link #addAll(Collection)} does
     */
    boolean addAll(Collection<Increment> increments, String idempotencyKey);

    /**
     * Adds {@code delta} to a counter without blocking the caller where the write mode allows it.
     * The future completes when the change is durable, or exceptionally with the exception
     * {@link #add(int, long, long)} would have thrown.
     *
     * @param recordType what is counted
     * @param recordId whose count it is
     * @param delta the amount to add; never 0
     * @return a future completed once the increment is durable
     * @throws IllegalArgumentException if {@code delta} is 0
     */
    CompletableFuture<Void> addAsync(int recordType, long recordId, long delta);

    /**
     * As {@link #add(int, long, long, String)}, without blocking the caller where the write mode
     * allows it ({@code GROUPED} and {@code BUFFERED}: the increment joins a flush, which records
     * its key; {@code DIRECT} writes before returning).
     *
     * @param recordType what is counted
     * @param recordId whose count it is
     * @param delta the amount to add; never 0
     * @param idempotencyKey 1 to 128 printable ASCII characters naming this one increment
     * @return completed once durable: with true if applied now, false if applied before with this
     *     key; or exceptionally with what {@link #add(int, long, long, String)} would have thrown
     * @throws IllegalArgumentException if {@code delta} is 0 or the key is malformed
     */
    CompletableFuture<Boolean> addAsync(int recordType, long recordId, long delta, String idempotencyKey);

    /**
     * Adds {@code delta} to a counter and answers the counter's total right after the increment's
     * commit, as Redis {@code INCRBY} does: durable when it returns, in every write mode
     * ({@code BUFFERED} too, which waits for the flush). The total includes this increment and
     * every increment acknowledged to anyone before this one was accepted; it may include others
     * committed since, and callers adding at the same moment may see the same total. A flush
     * learns the totals of what it writes with one query per flush, not per caller, sent in the
     * same packet as the flush where the connections take several statements (PostgreSQL;
     * MariaDB with {@code allowMultiQueries=true}), else right after it. A type bound in
     * {@link OwnerMode#FOLD} mode, or keeping time buckets in {@code DIRECT} mode, reads its total
     * after the commit.
     *
     * @param recordType what is counted
     * @param recordId whose count it is
     * @param delta the amount to add; negative to subtract; never 0, at most {@link #MAX_DELTA}
     *     either way
     * @return the counter's total right after the commit
     * @throws IllegalArgumentException if {@code delta} is 0 or past {@link #MAX_DELTA}
     * @throws SlottedException as {@link #add(int, long, long)} does; or, saying that the
     *     increment was applied, if its total could not be read after it
     */
    long addAndGet(int recordType, long recordId, long delta);

    /**
     * As {@link #addAndGet}, without blocking the caller where the write mode allows it.
     *
     * @param recordType what is counted
     * @param recordId whose count it is
     * @param delta the amount to add; never 0, at most {@link #MAX_DELTA} either way
     * @return a future completed with the total once the increment is durable, or exceptionally
     *     with what {@link #addAndGet} would have thrown
     * @throws IllegalArgumentException if {@code delta} is 0 or past {@link #MAX_DELTA}
     */
    CompletableFuture<Long> addAndGetAsync(int recordType, long recordId, long delta);

    /**
     * Adds {@code delta} to a counter inside the caller's own transaction. The upsert runs on
     * {@code connection} and is not committed here: it lands or rolls back with the caller's work,
     * so a download and its count are recorded together or not at all. Not retried on lock
     * conflicts either, since a deadlock aborts the caller's whole transaction; the caller retries
     * its transaction.
     *
     * @param connection the caller's connection, usually with auto-commit off
     * @param recordType what is counted
     * @param recordId whose count it is
     * @param delta the amount to add; never 0
     * @throws IllegalArgumentException if {@code delta} is 0
     * @throws SlottedException as {@link #add(int, long, long)} does, except that nothing is
     *     retried
     */
    void add(Connection connection, int recordType, long recordId, long delta);

    /**
     * Reads a counter: the sum of its slots, plus its owner column when its type is bound in
     * {@link OwnerMode#FOLD} mode, read in one statement so that a roll-up never shows half done.
     *
     * @param recordType what is counted
     * @param recordId whose count it is
     * @return the total; 0 for a counter never incremented
     * @throws CounterOverflowException if the total is outside the signed 64-bit range
     * @throws DatabaseUnavailableException if the database cannot be reached
     * @throws SchemaException if the counter table is missing
     */
    long get(int recordType, long recordId);

    /**
     * Reads many counters of one type.
     *
     * @param recordType what is counted
     * @param recordIds whose counts to read; duplicates are read once
     * @return every requested id mapped to its total, 0 for ids never incremented, in the order
     *     the ids were given
     * @throws CounterOverflowException if a total is outside the signed 64-bit range
     * @throws DatabaseUnavailableException if the database cannot be reached
     */
    Map<Long, Long> getAll(int recordType, Collection<Long> recordIds);

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
     * @throws SlottedException as {@link #add(int, long, long)} does; nothing changes
     */
    void set(int recordType, long recordId, long count);

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
     *     taken in {@code mode} (the message says which and what to do); nothing changes
     * @throws IllegalStateException if the type is already bound; nothing changes
     * @throws SlottedException if the database fails
     */
    AdoptionReport adopt(int recordType, OwnerColumn owner, OwnerMode mode);

    /**
     * Rolls everything a bound counter type holds in its slot rows into the owner column, then
     * unbinds it, so the application may go back to plain {@code UPDATE}s of the column. Stop
     * writing the type through Slotted first: increments made after the release stay in the slot
     * rows, outside the column.
     *
     * @param recordType the bound counter type
     * @return what the final roll-up did
     * @throws IllegalStateException if the type is not bound; nothing changes
     * @throws SlottedException if the database fails; the binding then stays and the release may
     *     be run again
     */
    RollUpReport release(int recordType);

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

    /**
     * Compares every counter of a type with a source of truth and, if asked, repairs the
     * differences. The source is a query returning {@code (record_id, count)} rows, such as
     * {@code SELECT repo_id, COUNT(*) FROM downloads GROUP BY repo_id}; an id it does not return
     * is expected to be 0. The source and the counters are read in one snapshot. A repair adds
     * each difference as an increment, so increments landing meanwhile are neither lost nor
     * counted twice; it is exact when the counted events and their increments commit together
     * (through {@link #add(Connection, int, long, long)}). Otherwise a counter may differ by
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
    RecountReport recount(int recordType, String sourceQuery, boolean fix);

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
     * @throws IllegalArgumentException if {@code slots} is out of range
     * @throws SlottedException if the database fails; rows moved stay moved, and it may be run again
     */
    long shrink(int recordType, int slots);

    /**
     * Reads what was added to a counter per time bucket over a window: every bucket of the type's
     * unit that overlaps {@code [from, to)}, oldest first, with 0 for buckets nothing was added in.
     * Only increments count in buckets; {@link #set} and repairs made by {@link #recount} change
     * the total but no bucket.
     *
     * @param recordType a counter type configured with
     *     {@link SlottedCountersBuilder#buckets(int, BucketUnit, java.time.Duration)}
     * @param recordId whose count it is
     * @param from the window's start, inclusive: the bucket it falls in is the first
     * @param to the window's end, exclusive
     * @return one entry per bucket
     * @throws IllegalArgumentException if the type keeps no buckets, {@code to} is not after
     *     {@code from}, the window holds more than 10,000 buckets, or it starts before the oldest
     *     bucket kept (the current one minus the retention); the message says which
     * @throws DatabaseUnavailableException if the database cannot be reached
     */
    List<BucketCount> series(int recordType, long recordId, Instant from, Instant to);

    /**
     * Reads the counters of a type with the most added over a window: the sums of every bucket
     * of the type's unit that overlaps {@code [from, to)}.
     *
     * @param recordType a counter type configured with buckets
     * @param from the window's start, inclusive
     * @param to the window's end, exclusive
     * @param n how many counters, from 1 to 1,000
     * @return up to {@code n} counters with a non-zero sum, highest first, ties by ascending id
     * @throws IllegalArgumentException as {@link #series} does, or if {@code n} is out of range
     * @throws DatabaseUnavailableException if the database cannot be reached
     */
    List<RankedCounter> top(int recordType, Instant from, Instant to, int n);

    /**
     * Names for counters whose keys are strings: type names recorded on first use, and string ids
     * mapped to record ids through the name dictionary, the same in every process (see
     * {@link CounterNames}). Needs the dictionary table that {@link #migrate()} makes.
     *
     * @return the names of these counters' table
     */
    CounterNames names();

    /**
     * The settings these counters were built with.
     *
     * @return the immutable configuration
     */
    SlottedConfig config();

    /**
     * Counts of what these counters have done since they were built, for metrics and tests.
     *
     * @return a snapshot; later work does not change it
     */
    SlottedStats stats();

    /**
     * Writes everything already accepted, then releases threads. Later writes fail with
     * {@link IllegalStateException}. Does not close the data source, which belongs to the caller.
     */
    @Override
    void close();
}
