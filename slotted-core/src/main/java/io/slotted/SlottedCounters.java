package io.slotted;

import io.slotted.internal.sql.CounterKey;
import io.slotted.internal.sql.SlotRange;
import java.sql.Connection;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
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
    int RESERVED_RECORD_TYPE = CounterKey.RESERVED_RECORD_TYPE;

    /**
     * The largest amount one increment may add or, negated, subtract: 2^52 - 1
     * (4,503,599,627,370,495). Each slot row holds at most this much, so that no counter's total
     * can leave the signed 64-bit range in any process; a counter of {@code S} slots holds up to
     * {@code S × MAX_DELTA} in its slots (and, bound in fold mode, up to 2^62 - 1 more in its
     * owner column). An increment that would take its slot row past the limit is refused with a
     * {@link CounterOverflowException} and changes nothing; a subtraction always brings a counter
     * back.
     */
    long MAX_DELTA = SlotRange.MAX_DELTA;

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
     * Creates the counter table if it is missing, or checks an existing one. An existing table is
     * never altered; anything about it that works but has a cost (a surrogate auto-increment id
     * consumed by every upsert, {@code INT} columns that overflow) is reported as a warning.
     *
     * @return what was found or done, with warnings
     * @throws SchemaException if an existing table lacks a needed column or the unique key
     * @throws DatabaseUnavailableException if the database cannot be reached
     */
    default MigrationReport migrate() {
        return migrate(Progress.NONE);
    }

    /**
     * As {@link #migrate()}, followed by {@code progress}, one table after another; a stop asked
     * for is kept between tables, since each change is one statement the database makes whole.
     *
     * @param progress what follows the steps and may ask it to stop
     * @return what was created, converted or found, and what to look at
     * @throws SchemaException if an existing table cannot be used
     * @throws StoppedException if {@code progress} asked it to stop; the tables made stay
     * @throws SlottedException if the database fails
     */
    MigrationReport migrate(Progress progress);

    /**
     * Checks the schema and changes nothing, for applications whose schema is made by their own
     * migrations (Flyway, Liquibase, a reviewed script) from the schema file
     * ({@link SlottedSchema}): every table is there, each companion with all of its columns, the
     * counter table with what Slotted needs, and this release's schema version recorded. Needs
     * only {@code SELECT} on the tables.
     *
     * @return nothing done, and what to look at
     * @throws SchemaException naming everything missing and the file that makes it, or if the
     *     schema is newer than this release knows
     * @throws DatabaseUnavailableException if the database cannot be reached
     */
    MigrationReport verifySchema();


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
     * @throws LimitExceededException if the type has {@link Limits} and the increment would take
     *     the total outside them; nothing changes
     * @throws ContentionException if lock conflicts outlasted every retry; nothing changes
     * @throws DatabaseUnavailableException if the database cannot be reached; nothing changes
     * @throws OutcomeUnknownException if the connection was lost while committing
     * @throws SchemaException if the counter table is missing or has the wrong shape
     * @throws IllegalStateException if these counters are closed
     */
    void add(int recordType, long recordId, long delta);

    /**
     * Adds {@code delta} to a counter of a type with {@link Limits} if the total stays within
     * them: sells stock ({@code tryAdd(STOCK, item, -2)}) or spends a quota. Returns once the
     * increment is durable, or known refused; a refused increment counts nowhere, and a refusal
     * costs no retry: it was decided under the counter's lock against its exact total. For a type
     * without limits it is {@link #add(int, long, long)} returning true.
     *
     * @param recordType what is counted
     * @param recordId whose count it is
     * @param delta the amount to add; negative to subtract; never 0
     * @return true if applied, false if the limits refused it
     * @throws SlottedException as {@link #add(int, long, long)} does, but for a refusal
     */
    default boolean tryAdd(int recordType, long recordId, long delta) {
        try {
            add(recordType, recordId, delta);
            return true;
        } catch (LimitExceededException refused) {
            return false;
        }
    }

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
     * Gives back to a counter of a type with limits per window what an earlier increment took,
     * in the window that increment counted in — a refund for a request that failed, or a charge
     * made twice — and answers that window's count after it. The refund is durable when it
     * returns, in every write mode, and never takes the window below 0 (it is refused instead).
     * Windows are kept until the next one ends, so a refund may go into the current window or the
     * one before it.
     *
     * @param recordType what is counted; its type has {@linkplain Limits#per(Window) limits per
     *     window}
     * @param recordId whose count it is
     * @param amount how much to give back; positive, at most {@link #MAX_DELTA}
     * @param madeAt when the increment refunded was made, by this process's clock: any moment of
     *     its window
     * @return the count of that window after the refund
     * @throws IllegalArgumentException if {@code amount} is not positive or past {@link #MAX_DELTA},
     *     the type has no limits per window, or {@code madeAt} is in a window no longer kept or in
     *     one yet to come; nothing changes
     * @throws QuotaExceededException if the refund would take the window below 0; nothing changes
     * @throws SlottedException as {@link #add(int, long, long)} does
     */
    long refund(int recordType, long recordId, long amount, Instant madeAt);

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
     * Names for counters whose keys are strings: type names recorded on first use, and string ids
     * mapped to record ids through the name dictionary, the same in every process (see
     * {@link CounterNames}). Needs the dictionary table that {@link #migrate()} makes.
     *
     * @return the names of these counters' table
     */
    CounterNames names();

    /**
     * Owner columns: binding a counter type to a column of its owning row, releasing it, and
     * rolling up now.
     *
     * @return the owner-column operations of these counters
     */
    OwnerColumns owners();

    /**
     * Corrections and changes of shape: {@code set}, {@code recount} and {@code shrink}.
     *
     * @return the administrative operations of these counters
     */
    CounterAdmin admin();

    /**
     * Counters that expire: for the types given {@link SlottedCountersBuilder#expiring}.
     *
     * @return the expiry operations
     */
    CounterExpiry expiry();

    /**
     * What was added per time bucket, for types configured with
     * {@link SlottedCountersBuilder#buckets(int, BucketUnit, java.time.Duration)}.
     *
     * @return the time-series reads of these counters
     */
    TimeSeries timeSeries();

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
