package io.slotted.internal.keys;

import io.slotted.IdempotencyConflictException;
import io.slotted.Increment;
import io.slotted.internal.dialect.Dialect;
import io.slotted.internal.mutation.Mutation;
import io.slotted.internal.sql.CounterKey;
import io.slotted.internal.sql.TableName;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Callers' idempotency keys: each key stands for one increment, applied at most once.
 *
 * <p>A key is recorded in the same transaction that applies its increment, with a fingerprint of
 * what it applied ({@code add 5 to counter (record_type=1, record_id=2)}, or a digest for a batch)
 * and the flush that wrote it. Recording is an insert that does nothing when the key exists, so a
 * retry of the same request finds the key and applies nothing; the stored fingerprint tells a true
 * replay from a key reused for something else, which is refused. The insert
 * waits for a concurrent transaction holding the same new key, so two requests with one key cannot
 * both apply. The flush reference lets a flush whose commit outcome was unknown tell its own keys
 * from earlier requests' once it learns that it committed. Keys older than the retention period are
 * deleted, when due, by the transactions that record keys, before they record theirs; times are
 * epoch milliseconds from the application's clock, so no database time zone is involved.
 */
public final class IdempotencyKeys {
    /** What recording a key found. */
    public enum Outcome {
        /** The key is new: the increment is written in this transaction. */
        APPLIED,
        /** The same increment was recorded before: nothing is written. */
        REPLAYED,
        /** The key was recorded for another increment: nothing is written; the caller is told. */
        CONFLICT
    }

    /**
     * The outcome, and for a conflict the exception its caller gets.
     *
     * @param outcome what recording found
     * @param conflict the caller's exception when {@code outcome} is CONFLICT, else null
     */
    public record Verdict(Outcome outcome, IdempotencyConflictException conflict) {
        /** The key is new. */
        public static final Verdict APPLIED = new Verdict(Outcome.APPLIED, null);
        static final Verdict REPLAYED = new Verdict(Outcome.REPLAYED, null);
    }

    /** Pruning runs at most this often, and at least four times per retention period. */
    private static final Duration MAX_PRUNE_INTERVAL = Duration.ofMinutes(10);

    private final TableName keys;
    private final Duration retention;
    private final Supplier<Duration> longestWindow;
    private final Clock clock;
    private final long pruneIntervalMillis;
    private final AtomicLong nextPruneAt;

    /**
     * Creates the key store.
     *
     * @param keys the key table
     * @param retention how long a key is remembered, at least
     * @param longestWindow the longest window of a type with limits per window, now: a key is kept
     *     at least that long too, so that it outlives the window of the increment it names
     * @param clock where time comes from
     */
    public IdempotencyKeys(TableName keys, Duration retention, Supplier<Duration> longestWindow, Clock clock) {
        this.keys = keys;
        this.retention = retention;
        this.longestWindow = longestWindow;
        this.clock = clock;
        this.pruneIntervalMillis = Math.min(MAX_PRUNE_INTERVAL.toMillis(), retention.toMillis() / 4);
        this.nextPruneAt = new AtomicLong(clock.millis());
    }

    /**
     * Deletes expired keys if a prune is due, in the given connection's transaction. Only the
     * one writer that wins the race for a due prune runs it.
     *
     * @param connection an open connection
     * @param dialect the database's dialect
     * @throws SQLException if the delete fails
     */
    public void pruneIfDue(Connection connection, Dialect dialect) throws SQLException {
        long now = clock.millis();
        long due = nextPruneAt.get();
        if (now >= due && nextPruneAt.compareAndSet(due, now + pruneIntervalMillis)) {
            pruneExpired(connection, dialect);
        }
    }

    /**
     * Records a key for an increment in the caller's transaction.
     *
     * @param connection the connection of the transaction that applies the increment
     * @param dialect the database's dialect
     * @param idempotencyKey the caller's key
     * @param fingerprint what the key stands for, from {@link #fingerprint}
     * @param flushRef which write recorded it: a flush's reference, or {@code direct}
     * @return the verdict: applied if the key is new and the increment must be written, replayed if
     *     the same increment was recorded before, conflict if the key was used for another
     * @throws SQLException if the database fails
     */
    public Verdict record(Connection connection, Dialect dialect, String idempotencyKey,
            String fingerprint, String flushRef) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(dialect.keyStatements(keys).insertIfAbsent())) {
            insert.setString(1, idempotencyKey);
            insert.setString(2, fingerprint);
            insert.setString(3, flushRef);
            insert.setLong(4, clock.millis());
            if (insert.executeUpdate() == 1 || Mutation.KEY_LOOKUP_SKIPPED.planted()) {
                return Verdict.APPLIED;
            }
        }
        return compare(idempotencyKey, find(connection, dialect, idempotencyKey), fingerprint, flushRef, false);
    }

    /**
     * What a single increment is recorded as: readable, so that a conflict message can say what
     * the key was first used for. Stored keys hold this text, so its form must never change.
     *
     * @param key the counter
     * @param delta the amount
     * @return the fingerprint
     */
    public static String fingerprint(CounterKey key, long delta) {
        return "add " + delta + " to counter (record_type=" + key.recordType() + ", record_id="
                + key.recordId() + ")";
    }

    /**
     * What a batch is recorded as: its size and a digest of its increments, in order.
     *
     * @param batch the increments
     * @return the fingerprint
     */
    public static String fingerprint(List<Increment> batch) {
        MessageDigest sha256;
        try {
            sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
        for (Increment increment : batch) {
            String line = increment.recordType() + ":" + increment.recordId() + ":" + increment.delta() + "\n";
            sha256.update(line.getBytes(StandardCharsets.US_ASCII));
        }
        return "add a batch of " + batch.size() + " increments (sha-256 "
                + HexFormat.of().formatHex(sha256.digest()) + ")";
    }

    /**
     * After learning that an earlier attempt of a flush committed: was this key applied by it, or
     * was it already there?
     *
     * @param connection an open connection
     * @param dialect the database's dialect
     * @param idempotencyKey the caller's key
     * @param fingerprint what the key stands for
     * @param flushRef the reference of the flush that committed
     * @param firstInFlush false for a second use of the key within the same flush, which can only
     *     be a replay of the first
     * @return applied if that flush recorded the key, else replayed or conflict
     * @throws SQLException if the database fails
     */
    public Verdict recall(Connection connection, Dialect dialect, String idempotencyKey, String fingerprint,
            String flushRef, boolean firstInFlush) throws SQLException {
        return compare(idempotencyKey, find(connection, dialect, idempotencyKey), fingerprint, flushRef,
                firstInFlush);
    }

    /** Deletes keys older than the retention period. */
    private void pruneExpired(Connection connection, Dialect dialect) throws SQLException {
        try (PreparedStatement delete = connection.prepareStatement(
                dialect.keyStatements(keys).deleteOlderThan())) {
            Duration kept = retention.compareTo(longestWindow.get()) >= 0 ? retention : longestWindow.get();
            delete.setLong(1, clock.millis() - kept.toMillis());
            delete.executeUpdate();
        }
    }

    private static Verdict compare(String idempotencyKey, Stored stored, String fingerprint,
            String flushRef, boolean firstInFlush) {
        if (!stored.fingerprint.equals(fingerprint)) {
            return new Verdict(Outcome.CONFLICT, new IdempotencyConflictException("idempotency key '"
                    + idempotencyKey + "' was first used to " + stored.fingerprint + ", not to "
                    + fingerprint + "; nothing was applied. Use a new key for a different increment."));
        }
        return firstInFlush && stored.flushRef.equals(flushRef) ? Verdict.APPLIED : Verdict.REPLAYED;
    }

    /**
     * Reads a recorded key with a locking read, which sees the latest committed row whatever the
     * transaction's snapshot. A key that vanished between the insert and this read was pruned
     * concurrently; that is reported as a serialization failure so the whole attempt is retried.
     */
    private Stored find(Connection connection, Dialect dialect, String idempotencyKey) throws SQLException {
        try (PreparedStatement select = connection.prepareStatement(dialect.keyStatements(keys).lock())) {
            select.setString(1, idempotencyKey);
            try (ResultSet row = select.executeQuery()) {
                if (!row.next()) {
                    throw new SQLException("idempotency key '" + idempotencyKey + "' vanished while"
                            + " being read", "40001");
                }
                return new Stored(row.getString(1), row.getString(2));
            }
        }
    }

    private record Stored(String fingerprint, String flushRef) {
    }
}
