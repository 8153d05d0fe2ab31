package io.slotted.internal.names;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.slotted.CounterNames;
import io.slotted.SlottedConfig;
import io.slotted.SlottedException;
import io.slotted.internal.jdbc.Database;
import io.slotted.internal.jdbc.Retrier;
import io.slotted.internal.schema.SchemaMigrator;
import io.slotted.internal.sql.CounterKey;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;

/**
 * The name dictionary of one counter table, as a process sees it: a cache of the names it has
 * mapped, in front of {@link NameLookups} for the names it has not.
 *
 * <p>A cached name is answered on the caller's thread with a completed future, so that the hot
 * path of a front end (a known key) costs a hash lookup. The cache holds at most
 * {@value #CACHE_BYTES} bytes of names, weighed by their length, and forgets the least used first;
 * a forgotten name costs one more lookup. Only names found in the dictionary are cached, never
 * their absence: another process may record a name at any moment.
 */
public final class NameDictionary implements CounterNames, AutoCloseable {
    /** The most the cache holds, weighed as each name's characters plus its entry. */
    static final long CACHE_BYTES = 64L << 20;

    /** A cached name: the type it belongs to ({@code RESERVED_RECORD_TYPE} for type names). */
    private record Key(int recordType, String name) {
    }

    private final Cache<Key, Long> cache = Caffeine.newBuilder()
            .maximumWeight(CACHE_BYTES)
            .<Key, Long>weigher((key, number) -> 64 + 2 * key.name().length())
            .build();
    /** The new names being recorded now, each with the one lookup its callers share. */
    private final Map<Key, CompletableFuture<OptionalLong>> recording = new ConcurrentHashMap<>();
    private final NameRows rows;
    private final Retrier retrier;
    private final NameLookups lookups;

    /**
     * Creates the dictionary of a counter table; reads nothing yet.
     *
     * @param database the database and its counter table
     * @param retrier runs the lookups, repeating them after failures that can be repeated (every
     *     lookup can: recording a name is an insert of what is missing)
     * @param config the bounds on new names and the clock
     */
    public NameDictionary(Database database, Retrier retrier, SlottedConfig config) {
        this.rows = new NameRows(database.table().withSuffix(SchemaMigrator.NAMES_SUFFIX), config.clock());
        this.retrier = retrier;
        this.lookups = new NameLookups(rows, retrier,
                new NewNameAllowance(config.newNamesPerSecond(), config.ticker()), config.maxTypeNames(),
                (lookup, number) -> cache.put(new Key(lookup.recordType(), lookup.name()), number));
    }

    @Override
    public int type(String name) {
        return join(typeAsync(name));
    }

    @Override
    public OptionalInt findType(String name) {
        return join(findTypeAsync(name));
    }

    @Override
    public long id(int recordType, String id) {
        return join(idAsync(recordType, id));
    }

    @Override
    public OptionalLong findId(int recordType, String id) {
        return join(findIdAsync(recordType, id));
    }

    @Override
    public CompletableFuture<Integer> typeAsync(String name) {
        IdText.checkTypeName(name);
        return look(NumberSpace.TYPES, CounterKey.RESERVED_RECORD_TYPE, name, true)
                .thenApply(number -> (int) number.getAsLong());
    }

    @Override
    public CompletableFuture<OptionalInt> findTypeAsync(String name) {
        IdText.checkTypeName(name);
        return look(NumberSpace.TYPES, CounterKey.RESERVED_RECORD_TYPE, name, false)
                .thenApply(number -> number.isPresent() ? OptionalInt.of((int) number.getAsLong())
                        : OptionalInt.empty());
    }

    @Override
    public CompletableFuture<Long> idAsync(int recordType, String id) {
        OptionalLong number = IdText.numberOf(id);
        if (number.isPresent()) {
            return CompletableFuture.completedFuture(number.getAsLong());
        }
        return look(NumberSpace.IDS, checkedType(recordType), id, true).thenApply(OptionalLong::getAsLong);
    }

    @Override
    public CompletableFuture<OptionalLong> findIdAsync(int recordType, String id) {
        OptionalLong number = IdText.numberOf(id);
        if (number.isPresent()) {
            return CompletableFuture.completedFuture(number);
        }
        return look(NumberSpace.IDS, checkedType(recordType), id, false);
    }

    @Override
    public Map<Long, String> idsOf(int recordType, Collection<Long> recordIds) {
        List<Long> mapped = recordIds.stream().filter(CounterNames::isMapped).distinct().toList();
        Map<Long, String> names = new HashMap<>();
        for (int from = 0; from < mapped.size(); from += NameRows.BATCH) {
            List<Long> chunk = mapped.subList(from, Math.min(mapped.size(), from + NameRows.BATCH));
            names.putAll(retrier.read("read the ids of numbers", (connection, dialect) ->
                    rows.namesOf(connection, dialect, recordType, chunk)));
        }
        return names;
    }

    @Override
    public void pin(String name, int recordType) {
        IdText.checkTypeName(name);
        if (recordType < 0) {
            throw new IllegalArgumentException("a type name is pinned to a record_type of 0 or more,"
                    + " but " + name + " was given " + recordType);
        }
        OptionalLong recorded = retrier.write("pin a type name", (connection, dialect) ->
                rows.claimExactly(connection, dialect, CounterKey.RESERVED_RECORD_TYPE, name, recordType));
        if (recorded.isEmpty()) {
            throw new IllegalStateException("type name '" + name + "' cannot be pinned to " + recordType
                    + ": the name dictionary maps " + recordType + " to another name; pick another"
                    + " number, or use the name the dictionary has for it");
        }
        if (recorded.getAsLong() != recordType) {
            throw new IllegalStateException("type name '" + name + "' cannot be pinned to " + recordType
                    + ": the name dictionary maps it to " + recorded.getAsLong() + " already, and its"
                    + " counters are stored under that number; pin it to " + recorded.getAsLong()
                    + " or leave it out");
        }
        cache.put(new Key(CounterKey.RESERVED_RECORD_TYPE, name), (long) recordType);
    }

    @Override
    public void close() {
        lookups.close();
    }

    private CompletableFuture<OptionalLong> look(NumberSpace space, int recordType, String name,
            boolean create) {
        Key key = new Key(recordType, name);
        Long cached = cache.getIfPresent(key);
        if (cached != null) {
            return CompletableFuture.completedFuture(OptionalLong.of(cached));
        }
        if (!create) {
            return lookups.submit(new NameLookups.Lookup(space, recordType, name, false, new CompletableFuture<>()));
        }
        // Callers meeting the same new name at once share one lookup: it goes to the database once.
        CompletableFuture<OptionalLong> mine = new CompletableFuture<>();
        CompletableFuture<OptionalLong> shared = recording.putIfAbsent(key, mine);
        if (shared != null) {
            return shared;
        }
        mine.whenComplete((number, failure) -> recording.remove(key, mine));
        return lookups.submit(new NameLookups.Lookup(space, recordType, name, true, mine));
    }

    private static int checkedType(int recordType) {
        if (recordType == CounterKey.RESERVED_RECORD_TYPE) {
            throw new IllegalArgumentException("record type " + recordType + " is reserved for"
                    + " Slotted's own rows; use another");
        }
        return recordType;
    }

    /** The answer of a future, its failure unwrapped as the synchronous methods throw it. */
    private static <T> T join(CompletableFuture<T> answer) {
        try {
            return answer.get();
        } catch (ExecutionException | CompletionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new SlottedException("a name lookup failed: " + cause, cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SlottedException("interrupted while waiting for a name lookup", e);
        }
    }
}
