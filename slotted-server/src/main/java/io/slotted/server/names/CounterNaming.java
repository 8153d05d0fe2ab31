package io.slotted.server.names;

import io.slotted.CounterNames;
import io.slotted.SlottedException;
import io.slotted.server.config.CounterType;
import io.slotted.server.config.TypeNames;
import io.slotted.server.store.FailureMessage;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How the front ends turn the types and ids clients send into the numbers the table stores: a
 * pinned name or a number as it is, any other type name and any string id through the library's
 * name dictionary, which records it on its first write and never on a read.
 *
 * <p>Every check that needs no database is made at once, on the caller's thread, and throws: a
 * malformed type, an id too long. What is left is a future, completed at once for numbers and for
 * names this process has seen, so a known key costs a hash lookup. A read of a name no process
 * has recorded answers empty: its counters read 0, and nothing is recorded for it.
 */
public final class CounterNaming {
    private static final Logger LOG = LoggerFactory.getLogger(CounterNaming.class);

    private final TypeNames pinned;
    private final CounterNames names;

    private CounterNaming(TypeNames pinned, CounterNames names) {
        this.pinned = pinned;
        this.names = names;
    }

    /**
     * Records the pinned names in the dictionary, so that every process maps them alike.
     *
     * @param pinned the names given numbers by the settings
     * @param names the dictionary
     * @return the naming
     * @throws IllegalArgumentException if the dictionary has a pinned name under another number,
     *     or a pinned number under another name
     */
    public static CounterNaming start(TypeNames pinned, CounterNames names) {
        pinned.asMap().forEach((name, number) -> {
            try {
                names.pin(name, number);
            } catch (IllegalStateException e) {
                throw new IllegalArgumentException("types " + name + "=" + number + ": " + e.getMessage(), e);
            } catch (SlottedException e) {
                // A role that may not write the dictionary (a read-only service) still serves its
                // pinned names, which it reads before the dictionary.
                LOG.warn("could not record type name {}={} in the name dictionary ({}); this service"
                        + " uses it, and services that name it without --types may map it elsewhere",
                        name, number, FailureMessage.of(e));
            }
        });
        return new CounterNaming(pinned, names);
    }

    /**
     * A naming for work that only reads: the pinned names are used as given and not recorded.
     *
     * @param pinned the names given numbers by the settings
     * @param names the dictionary
     * @return the naming
     */
    public static CounterNaming forReads(TypeNames pinned, CounterNames names) {
        return new CounterNaming(pinned, names);
    }

    /**
     * Checks a type and an id without the database.
     *
     * @param type the type as given
     * @param id the id as given
     * @throws IllegalArgumentException naming what is wrong with either
     */
    public void check(String type, String id) {
        checkType(type);
        CounterNames.numberOf(id);
    }

    /**
     * Checks a type without the database.
     *
     * @param type the type as given
     * @throws IllegalArgumentException if it is neither a number in range nor a well-formed name
     */
    public void checkType(String type) {
        pinned.pinnedOrNumber(type);
    }

    /**
     * The counter a write names, recording a new type name or string id.
     *
     * @param type the type as given
     * @param id the id as given
     * @return the counter; failed with {@link io.slotted.NameLimitException} when a bound refuses
     *     a new name, or with the database's failure
     * @throws IllegalArgumentException if either is malformed
     */
    public CompletableFuture<NamedCounter> toWrite(String type, String id) {
        OptionalLong number = CounterNames.numberOf(id);
        return typeToWrite(type).thenCompose(counterType -> number.isPresent()
                ? CompletableFuture.completedFuture(new NamedCounter(counterType, number.getAsLong(), null))
                : names.idAsync(counterType.recordType(), id)
                        .thenApply(recordId -> new NamedCounter(counterType, recordId, id)));
    }

    /**
     * The counter a read names, recording nothing.
     *
     * @param type the type as given
     * @param id the id as given
     * @return the counter, or empty when its type name or string id was never recorded (it reads 0)
     * @throws IllegalArgumentException if either is malformed
     */
    public CompletableFuture<Optional<NamedCounter>> toRead(String type, String id) {
        OptionalLong number = CounterNames.numberOf(id);
        return typeToRead(type).thenCompose(found -> {
            if (found.isEmpty()) {
                return CompletableFuture.completedFuture(Optional.empty());
            }
            CounterType counterType = found.get();
            return number.isPresent()
                    ? CompletableFuture.completedFuture(Optional.of(new NamedCounter(counterType, number.getAsLong(), null)))
                    : names.findIdAsync(counterType.recordType(), id).thenApply(recordId -> recordId.isEmpty()
                            ? Optional.empty() : Optional.of(new NamedCounter(counterType, recordId.getAsLong(), id)));
        });
    }

    /**
     * A type a write names, recording it if it is a new name.
     *
     * @param type the type as given
     * @return the type
     * @throws IllegalArgumentException if it is malformed
     */
    public CompletableFuture<CounterType> typeToWrite(String type) {
        Optional<CounterType> known = pinned.pinnedOrNumber(type);
        return known.isPresent() ? CompletableFuture.completedFuture(known.get())
                : names.typeAsync(type).thenApply(number -> new CounterType(number, type));
    }

    /**
     * A type a read names, recording nothing.
     *
     * @param type the type as given
     * @return the type, or empty for a name no process has recorded
     * @throws IllegalArgumentException if it is malformed
     */
    public CompletableFuture<Optional<CounterType>> typeToRead(String type) {
        Optional<CounterType> known = pinned.pinnedOrNumber(type);
        return known.isPresent() ? CompletableFuture.completedFuture(known)
                : names.findTypeAsync(type).thenApply(number -> number.isPresent()
                        ? Optional.of(new CounterType(number.getAsInt(), type)) : Optional.empty());
    }

    /**
     * The names and numbers pinned by the settings.
     *
     * @return the pinned names
     */
    public TypeNames pinned() {
        return pinned;
    }

    /**
     * The dictionary behind the names.
     *
     * @return the library's names
     */
    public CounterNames names() {
        return names;
    }
}
