package io.slotted.internal;

import io.slotted.CounterArguments;
import io.slotted.CounterExpiry;
import io.slotted.ExpiryRule;
import io.slotted.internal.admin.CounterSetter;
import io.slotted.internal.expiry.ExpiringCounters;
import io.slotted.internal.jdbc.Retrier;
import io.slotted.internal.jdbc.Transactions;
import io.slotted.internal.sql.CounterKey;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** The library's {@link CounterExpiry}: each call one transaction under the counter's expiry lock. */
final class DefaultCounterExpiry implements CounterExpiry {
    private final ExpiringCounters counters;
    private final CounterSetter setter;
    private final Retrier retrier;
    private final Runnable checkOpen;

    DefaultCounterExpiry(ExpiringCounters counters, CounterSetter setter, Retrier retrier, Runnable checkOpen) {
        this.counters = counters;
        this.setter = setter;
        this.retrier = retrier;
        this.checkOpen = checkOpen;
    }

    @Override
    public boolean expiring(int recordType) {
        return counters.expiring(recordType);
    }

    @Override
    public boolean expireAt(int recordType, long recordId, Instant at, ExpiryRule rule) {
        Objects.requireNonNull(at, "at must not be null");
        Objects.requireNonNull(rule, "rule must not be null");
        CounterKey key = expiringKey(recordType, recordId);
        long atMs = at.toEpochMilli();
        return retrier.write("expire counter " + key + " at " + at, (connection, dialect) -> {
            counters.agree(connection, List.of(key));
            return Transactions.inTransaction(connection, () -> {
                Map<CounterKey, Long> current = counters.lockAndClear(connection, dialect, List.of(key));
                boolean set = counters.expireLocked(connection, dialect, key, current.get(key), atMs, rule);
                connection.commit();
                return set;
            });
        });
    }

    @Override
    public boolean expireIn(int recordType, long recordId, Duration timeToLive) {
        Objects.requireNonNull(timeToLive, "timeToLive must not be null");
        return expireAt(recordType, recordId, Instant.ofEpochMilli(counters.now()).plus(timeToLive));
    }

    @Override
    public Optional<Instant> expiresAt(int recordType, long recordId) {
        CounterKey key = expiringKey(recordType, recordId);
        Long at = retrier.read("read the expiry of counter " + key, (connection, dialect) ->
                counters.liveExpiries(connection, dialect, List.of(key)).get(key));
        return Optional.ofNullable(at).map(Instant::ofEpochMilli);
    }

    @Override
    public boolean persist(int recordType, long recordId) {
        CounterKey key = expiringKey(recordType, recordId);
        return retrier.write("persist counter " + key, (connection, dialect) -> {
            counters.agree(connection, List.of(key));
            return Transactions.inTransaction(connection, () -> {
                boolean had = counters.lockAndClear(connection, dialect, List.of(key)).containsKey(key);
                if (had) {
                    counters.setExpiry(connection, dialect, key, null);
                }
                connection.commit();
                return had;
            });
        });
    }

    @Override
    public void setUntil(int recordType, long recordId, long count, Instant at) {
        Objects.requireNonNull(at, "at must not be null");
        setter.set(expiringKey(recordType, recordId), count, at.toEpochMilli());
    }

    private CounterKey expiringKey(int recordType, long recordId) {
        checkOpen.run();
        CounterArguments.checkRecordType(recordType);
        if (!counters.expiring(recordType)) {
            throw new IllegalArgumentException("record_type " + recordType + " does not expire: build the counters"
                    + " with expiring(" + recordType + ") (the service: --expiring) to give its counters an expiry");
        }
        return new CounterKey(recordType, recordId);
    }
}
