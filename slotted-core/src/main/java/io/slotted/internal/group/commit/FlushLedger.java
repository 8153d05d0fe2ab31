package io.slotted.internal.group.commit;

import io.slotted.internal.dialect.Failure;
import io.slotted.internal.dialect.statements.LedgerStatements;
import io.slotted.internal.jdbc.Database;
import io.slotted.internal.mutation.Mutation;
import io.slotted.internal.sql.FlushMark;
import io.slotted.internal.sql.TableName;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Makes a flush's commit idempotent, so that a commit whose outcome is unknown can be retried
 * without counting twice.
 *
 * <p>Each flusher has one row: its id and the sequence number of its last committed flush. Every
 * flush transaction begins by claiming its own sequence number, moving the row from a lower number
 * to its own. If the connection is lost while COMMIT is in flight, the flusher retries the same
 * flush with the same number on a new connection, and the claim decides:
 * <ul>
 *   <li>the row still holds a lower number: the lost commit did not happen; the claim succeeds and
 *       the retry writes the increments;</li>
 *   <li>the row holds this flush's number: the lost commit did happen; the retry writes nothing
 *       and the callers are told their increments are durable.</li>
 * </ul>
 * The claim is an {@code UPDATE} of (or, the first time, an {@code INSERT} into) the row, so if the
 * lost transaction is somehow still running on the server, the claim waits for its row lock and
 * sees its outcome instead of racing it. One row per flusher keeps the ledger tiny; rows of
 * flushers gone for a day are pruned.
 *
 * <p>A flush sent as one statement does not touch this table: a second table in the transaction
 * costs the server about as much as the whole upsert. It sets the flusher's {@link FlushMark}, a
 * reserved row of the counter table, to its number in the same statement instead. A flush whose
 * outcome is unknown therefore first locks the mark ({@link #markShows}): if it holds the flush's
 * number, the one-statement attempt landed; if not, the claim above decides as before.
 *
 * <p>"If not" must mean "never will". A lost statement may not have reached the server yet — held
 * up on the network, or waiting for a busy server to start it — when the retry looks at the
 * mark; it would then land after the retry wrote the flush again, and count it twice. So the
 * retry <em>fences</em> the mark: finding it without the flush's number, it sets the number itself,
 * in the transaction that writes the flush again, and a one-statement flush sets its number only
 * where the mark holds a lower one, failing whole otherwise (the dialect's
 * {@code FlushMark.unlessFenced}). Whichever reaches the mark first wins, and the other writes nothing;
 * either way the mark holding the number means the flush landed, once. The mark only ever grows:
 * the flusher's later flushes set their own, higher numbers, and a statement held up past all of
 * them still finds the mark at or past its number and fails. Flushers that write only marks
 * touch their ledger row once an hour, so that a live flusher is never taken for gone.
 *
 * <p>So flush numbers must never come back to a value the mark has passed. The mark is a count
 * cell, which the original pattern's table makes an {@code INT}; a flusher numbers its flushes
 * from 1 up to {@link #LAST_NUMBER} and then takes a new id ({@link #nextFlush}): a new ledger row
 * and a new mark, which start below 1 again, while the old mark keeps its last number until it is
 * pruned with its row, a day later. A statement still on its way from the old id then finds the
 * old mark past its number. (Numbers taken modulo the column's range would have come back into
 * the window that a late statement carries.)
 */
public final class FlushLedger {
    /** What claiming a flush's number found. */
    public enum Claim {
        /** The number was claimed in this transaction: write the flush. */
        CLAIMED,
        /** An earlier attempt of this flush committed: write nothing. */
        ALREADY_COMMITTED
    }

    /**
     * The highest flush number under one flusher id: one below the largest value of an
     * {@code INT} count, which a fence may set one past a flush's number ({@link #fenceAbove}).
     */
    public static final long LAST_NUMBER = Integer.MAX_VALUE - 1;
    private static final Duration ABANDONED_AFTER = Duration.ofDays(1);
    private static final Duration TOUCH_EVERY = Duration.ofHours(1);
    /** A mark's value before its flusher's first one-statement flush: no flush number maps to it. */
    private static final int NO_FLUSH = -1;

    private final TableName ledger;
    private final TableName counters;
    private final Database database;
    private LedgerStatements statements;
    /** The id the flusher was made with; each renewal adds a generation to it. */
    private final String firstId;
    private final long lastNumber;
    private int generation;
    private String flusherId;
    /** This flusher's mark, its value aside: its key is hashed once per id, not per flush. */
    private FlushMark markKey;
    private long lastFlush;
    private final Clock clock;
    private boolean registered;
    private long touchedAt;

    public FlushLedger(Database database, TableName ledger, String flusherId, Clock clock) {
        this(database, ledger, flusherId, clock, LAST_NUMBER);
    }

    /**
     * A ledger whose flusher takes a new id after {@code lastNumber} flushes, rather than
     * {@link #LAST_NUMBER}: for tests, which cannot make two billion flushes.
     */
    public FlushLedger(Database database, TableName ledger, String flusherId, Clock clock, long lastNumber) {
        if (!flusherId.matches("[0-9a-f-]{1,48}")) {
            throw new IllegalArgumentException("flusher id must be 1 to 48 hex digits and dashes: " + flusherId);
        }
        if (lastNumber < 1 || lastNumber > LAST_NUMBER) {
            throw new IllegalArgumentException("the last flush number must be between 1 and " + LAST_NUMBER
                    + ", but was " + lastNumber);
        }
        this.database = database;
        this.ledger = ledger;
        this.counters = database.table();
        this.firstId = flusherId;
        this.lastNumber = lastNumber;
        this.clock = clock;
        takeId(flusherId);
    }

    /**
     * The next flush's number, from 1 up; past {@link #LAST_NUMBER} the flusher first takes a new
     * id, whose numbers start at 1 again (see the class comment). Called once per flush, before
     * its first attempt, by the one thread writing through this ledger.
     */
    public long nextFlush() {
        if (lastFlush >= lastNumber) {
            generation++;
            takeId(firstId + "-" + Integer.toHexString(generation));
        }
        return ++lastFlush;
    }

    /** Leaves out every number up to {@code number}: a fence has set the mark to it. */
    public void skipPast(long number) {
        lastFlush = Math.max(lastFlush, number);
    }

    /**
     * Flushes under a new id: a ledger row and a mark of its own, registered before its first
     * flush. The old id's row and mark stay as they were, and are pruned as a gone flusher's.
     */
    private void takeId(String id) {
        this.flusherId = id;
        this.markKey = markOf(id, NO_FLUSH);
        this.lastFlush = 0;
        this.registered = false;
    }

    /**
     * The ledger's statements, from the dialect: known once a connection has been made, as it has
     * whenever the ledger is asked anything. Two threads meeting here both make equal statements,
     * whose fields are final: a race costs an object, never a wrong text.
     */
    private LedgerStatements sql() {
        if (statements == null) {
            statements = database.dialect().ledgerStatements(counters, ledger);
        }
        return statements;
    }

    /** This flusher's mark holding flush {@code seq}'s number. */
    public FlushMark mark(long seq) {
        return new FlushMark(markKey.recordId(), markKey.slot(), Math.toIntExact(seq));
    }

    /**
     * The mark row of a flusher: its key is 62 bits of a hash of the flusher's id, so marks of
     * flushers in different processes do not meet.
     */
    private static FlushMark markOf(String flusherId, int value) {
        long bits = UUID.nameUUIDFromBytes(flusherId.getBytes(StandardCharsets.US_ASCII))
                .getMostSignificantBits();
        return new FlushMark((int) (bits >>> 33), (int) (bits & Integer.MAX_VALUE), value);
    }

    /**
     * Locks this flusher's mark until the caller's transaction ends, waiting for a statement still
     * writing it, and says whether it holds flush {@code seq}'s number: whether an attempt of the
     * flush, sent as one statement or written again by a retry, committed. If it does not, the mark
     * is fenced: set to the number in the caller's transaction, which writes the flush again, so
     * that an attempt still on its way can no longer land. A missing mark (pruned while the flusher
     * idled) is made again holding the number, which waits for, and then fails on, a statement
     * still creating it.
     *
     * @throws SQLException on failure, including a duplicate key the caller retries
     */
    public boolean markShows(Connection connection, long seq) throws SQLException {
        FlushMark mark = mark(seq);
        try (PreparedStatement select = connection.prepareStatement(sql().lockMark())) {
            bindMarkKey(select, mark);
            try (ResultSet row = select.executeQuery()) {
                if (row.next()) {
                    long current = row.getLong(1);
                    if (current == mark.value()) {
                        return true;
                    }
                    if (current > mark.value()) {
                        throw new IllegalStateException("the mark of flusher " + flusherId + " holds flush "
                                + current + ", ahead of flush " + seq + ": two writers share one flusher id");
                    }
                    if (!Mutation.FENCE_REMOVED.planted()) {
                        fence(connection, mark);
                    }
                    return false;
                }
            }
        }
        insertMark(connection, mark.value());
        return false;
    }

    /**
     * Fences off a flush whose COMMIT was lost and which will not be written again as it was (it
     * overflowed, and is split or failed), in the caller's transaction: locks the mark, and unless
     * it shows the flush landed, sets it one past the flush's number, so that the lost statement
     * can never land. The caller commits, and numbers its next flush past that ({@link #skipPast}).
     * The mark one past the number tells a fence whose own COMMIT was lost that it landed.
     *
     * @return true if fenced off, now or by an earlier attempt; false if the flush had landed
     * @throws SQLException on failure
     */
    public boolean fenceAbove(Connection connection, long seq) throws SQLException {
        FlushMark fence = mark(seq + 1);
        try (PreparedStatement select = connection.prepareStatement(sql().lockMark())) {
            bindMarkKey(select, fence);
            try (ResultSet row = select.executeQuery()) {
                if (!row.next()) {
                    insertMark(connection, fence.value());
                    return true;
                }
                long current = row.getLong(1);
                if (current == seq || claimed(connection, seq)) {
                    return false;
                }
                if (current > fence.value()) {
                    throw new IllegalStateException("the mark of flusher " + flusherId + " holds flush " + current
                            + ", ahead of flush " + seq + ": two writers share one flusher id");
                }
            }
        }
        fence(connection, fence);
        return true;
    }

    /**
     * Whether the flusher's ledger row holds flush {@code seq}'s number: whether an attempt of
     * the flush written as the ledger's transaction committed, rather than one sent as one
     * statement, which sets only the mark.
     *
     * @param connection a connection in the caller's transaction
     * @param seq the flush's number
     * @return true if the ledger claimed it
     * @throws SQLException if the read fails
     */
    public boolean claimed(Connection connection, long seq) throws SQLException {
        Long current = current(connection);
        return current != null && current == seq;
    }

    /**
     * Sets the mark to the flush's number in the caller's transaction, which writes the flush
     * again: from then on the lost statement can never land (see {@link #markShows}).
     */
    private void fence(Connection connection, FlushMark mark) throws SQLException {
        try (PreparedStatement update = connection.prepareStatement(sql().setMark())) {
            update.setLong(1, mark.value());
            update.setInt(2, FlushMark.RECORD_TYPE);
            update.setInt(3, mark.recordId());
            update.setInt(4, mark.slot());
            update.executeUpdate();
        }
    }

    /**
     * Makes the mark again if it was pruned with the flusher's ledger row while the flusher
     * idled: a flush spending bounded counters' allowances only updates the mark, which has to
     * exist. A one-statement flush since may have made it already.
     */
    private void restoreMark(Connection connection) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(sql().lockMark())) {
            bindMarkKey(select, markKey);
            try (ResultSet row = select.executeQuery()) {
                if (row.next()) {
                    return;
                }
            }
        }
        insertMark(connection, NO_FLUSH);
    }

    private void insertMark(Connection connection, int value) throws SQLException {
        FlushMark mark = new FlushMark(markKey.recordId(), markKey.slot(), value);
        try (PreparedStatement insert = connection.prepareStatement(sql().insertMark())) {
            bindMarkKey(insert, mark);
            insert.setLong(4, value);
            insert.executeUpdate();
        }
    }

    private static void bindMarkKey(PreparedStatement statement, FlushMark mark) throws SQLException {
        statement.setInt(1, FlushMark.RECORD_TYPE);
        statement.setInt(2, mark.recordId());
        statement.setInt(3, mark.slot());
    }

    /**
     * Tells the ledger this flusher is alive, at most once an hour, once it has registered: in a
     * statement of its own, in auto-commit, between flushes, so that no flush waits for it. A
     * flush's claim keeps the row fresh as well; the touch is for flushers that write only marks.
     *
     * @param connection the flusher's connection, with no transaction open
     */
    public void touchIfDue(Connection connection) throws SQLException {
        long now = clock.millis();
        if (!registered || now - touchedAt < TOUCH_EVERY.toMillis()) {
            return;
        }
        connection.setAutoCommit(true);
        try (PreparedStatement update = connection.prepareStatement(sql().touch())) {
            update.setLong(1, now);
            update.setString(2, flusherId);
            if (update.executeUpdate() == 0) {
                return; // pruned as abandoned: the next flush's claim registers it again, with its mark
            }
        }
        touchedAt = now;
    }

    /**
     * Whether this flusher's mark row is surely there: it registered, and told the ledger it lives
     * within half the time after which another process prunes its ledger row and its mark as
     * abandoned. A flusher held up for longer (a process suspended, or idle without a connection)
     * may have lost its mark; its next flush claims its number in the ledger, which puts the mark
     * back.
     *
     * @return true if a statement may update the mark without making sure it exists
     */
    public boolean markCertain() {
        return registered && clock.millis() - touchedAt < ABANDONED_AFTER.toMillis() / 2;
    }

    /** This flusher's id, which also names its flushes in the idempotency key table. */
    public String flusherId() {
        return flusherId;
    }

    /**
     * Claims {@code seq} inside the caller's open transaction.
     *
     * @throws SQLException on failure, including lock conflicts the caller retries
     * @throws IllegalStateException if the row is ahead of {@code seq}: another process is using
     *     this flusher's id, which would make outcomes unknowable
     */
    public Claim claim(Connection connection, long seq) throws SQLException {
        if (advance(connection, seq) == 1) {
            return Claim.CLAIMED;
        }
        Long current = current(connection);
        if (current == null) {
            restoreMark(connection);
            return insertFirst(connection, seq);
        }
        if (current == seq) {
            return Claim.ALREADY_COMMITTED;
        }
        throw new IllegalStateException("flush ledger " + ledger + " row " + flusherId + " is at "
                + current + ", ahead of flush " + seq + ": two writers share one flusher id");
    }

    /**
     * Before its first flush, a flusher prunes abandoned ledger rows and then registers its own,
     * each in transactions of their own that hold nothing else, so that flushers starting together
     * cannot deadlock on the ledger (see {@link #pruneAbandoned}). A registration whose commit was
     * lost may have landed; finding the row already there then means it did. It waits for the
     * first flush, not the flusher's start, because the tables may not exist before the
     * application's {@code migrate()}.
     *
     * @param connection the flusher's connection, with no transaction open; left in manual-commit
     *     mode
     */
    public void registerOnce(Connection connection) throws SQLException {
        if (registered) {
            return;
        }
        connection.setAutoCommit(false);
        pruneAbandoned(connection);
        try {
            register(connection);
            connection.commit();
        } catch (SQLException e) {
            if (database.dialect().classify(e) != Failure.DUPLICATE_KEY) {
                throw e;
            }
            connection.rollback();
        }
        registered = true;
    }

    /**
     * Creates this flusher's row, at sequence 0, and its mark, in the caller's transaction, which
     * the caller commits before its first flush. Creating it up front keeps the first flush's claim an
     * update of an existing row: two new flushers that each looked for a missing row with a
     * locking read and then inserted it would deadlock on InnoDB's gap locks.
     */
    private void register(Connection connection) throws SQLException {
        insertFirst(connection, 0);
        insertMark(connection, NO_FLUSH);
        touchedAt = clock.millis();
    }

    /**
     * Removes the rows, and marks, of flushers that have not written for a day, each in a transaction of its
     * own, committed at once, before this flusher registers. The rows are found by a plain read,
     * which locks nothing, and deleted one by one by primary key, which locks only that row. A
     * range delete ({@code WHERE updated_ms < ?}) would instead scan with next-key locks up to the
     * end of the table; in the registration's transaction two flushers starting together would
     * each hold that lock on the last gap and wait to insert into it, a deadlock. Each delete
     * checks the age again, so a row claimed since the read is kept, and its mark with it.
     *
     * @param connection a connection in manual-commit mode with no work pending
     */
    private void pruneAbandoned(Connection connection) throws SQLException {
        long cutoff = clock.millis() - ABANDONED_AFTER.toMillis();
        for (String abandoned : abandonedSince(connection, cutoff)) {
            deleteIfStillAbandoned(connection, abandoned, cutoff);
            connection.commit();
        }
    }

    private void deleteIfStillAbandoned(Connection connection, String abandoned, long cutoff)
            throws SQLException {
        try (PreparedStatement delete = connection.prepareStatement(sql().deleteAbandoned())) {
            delete.setString(1, abandoned);
            delete.setLong(2, cutoff);
            if (delete.executeUpdate() == 0) {
                return;
            }
        }
        try (PreparedStatement delete = connection.prepareStatement(sql().deleteMark())) {
            bindMarkKey(delete, markOf(abandoned, NO_FLUSH));
            delete.executeUpdate();
        }
    }

    private List<String> abandonedSince(Connection connection, long cutoff) throws SQLException {
        List<String> abandoned = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement(sql().abandoned())) {
            select.setLong(1, cutoff);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    abandoned.add(rows.getString(1));
                }
            }
        }
        return abandoned;
    }

    private int advance(Connection connection, long seq) throws SQLException {
        try (PreparedStatement update = connection.prepareStatement(sql().advance())) {
            update.setLong(1, seq);
            update.setLong(2, clock.millis());
            update.setString(3, flusherId);
            update.setLong(4, seq);
            return update.executeUpdate();
        }
    }

    private Long current(Connection connection) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(sql().lockCurrent())) {
            select.setString(1, flusherId);
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? row.getLong(1) : null;
            }
        }
    }

    /**
     * Creates the flusher's row: at registration, or if a long-idle flusher's row was pruned. If
     * an earlier attempt of this same flush created
     * it and committed, the insert meets a duplicate key, which the caller retries like any lock
     * conflict (PostgreSQL needs the transaction rolled back first); the next attempt's
     * {@code UPDATE} then finds the committed row.
     */
    private Claim insertFirst(Connection connection, long seq) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(sql().insertFlusher())) {
            insert.setString(1, flusherId);
            insert.setLong(2, seq);
            insert.setLong(3, clock.millis());
            insert.executeUpdate();
            return Claim.CLAIMED;
        }
    }
}
