package io.slotted.internal.registry;

import io.slotted.RegisteredType;
import io.slotted.SlottedConfig;
import io.slotted.internal.jdbc.Retrier;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The type registry as {@link io.slotted.CounterAdmin#types()} shows it: read afresh from the
 * database (which also refreshes the registry's view), each row as a {@link RegisteredType}.
 */
public final class RegisteredTypes {
    private final Retrier retrier;
    private final TypeRegistry registry;
    private final SlottedConfig config;

    /**
     * Reads through the registry.
     *
     * @param retrier runs the read, retrying contention
     * @param registry the registry it reads
     * @param config this process's own slot counts, for types the registry records none for
     */
    public RegisteredTypes(Retrier retrier, TypeRegistry registry, SlottedConfig config) {
        this.retrier = retrier;
        this.registry = registry;
        this.config = config;
    }

    /**
     * Reads every registered type.
     *
     * @return the types, by record type
     * @throws io.slotted.SlottedException if the database fails
     */
    public List<RegisteredType> read() {
        return retrier.read("read the type registry", (connection, dialect) -> registry.reload(connection))
                .values().stream().sorted(Comparator.comparingInt(Registration::recordType))
                .map(this::shown).toList();
    }

    private RegisteredType shown(Registration row) {
        return new RegisteredType(row.recordType(), row.slotCount().orElse(config.slots(row.recordType())),
                row.limits(), Optional.ofNullable(row.owner()), Optional.ofNullable(row.mode()),
                row.bound() ? Optional.of(Instant.ofEpochMilli(row.rolledUpMs())) : Optional.empty());
    }
}
