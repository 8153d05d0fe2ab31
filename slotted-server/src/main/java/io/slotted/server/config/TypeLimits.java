package io.slotted.server.config;

import io.slotted.Limits;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The counter types with limits, as the {@code --limits} option gives them: {@code stock=0..},
 * {@code quota=..1000}, {@code seats=0..120}, a type (a configured name or a number) and its
 * bounds, either end left out for none.
 */
public final class TypeLimits {
    private TypeLimits() {
    }

    /**
     * Reads the specs, each {@code TYPE=MIN..MAX}.
     *
     * @param specs the specs; each may also hold several separated by commas
     * @param names the configured type names, for types given by name
     * @return each record type with its limits, in the order given
     * @throws IllegalArgumentException if a spec is malformed, names an unknown type, repeats a
     *     type, or bounds nothing; the message says which
     */
    public static Map<Integer, Limits> parse(List<String> specs, TypeNames names) {
        Map<Integer, Limits> limits = new LinkedHashMap<>();
        for (String option : specs) {
            for (String spec : option.split(",", -1)) {
                if (spec.isBlank()) {
                    continue;
                }
                int equals = spec.indexOf('=');
                if (equals < 1) {
                    throw new IllegalArgumentException("limits must be TYPE=MIN..MAX, either end left out for"
                            + " none, such as stock=0.. or quota=..1000, but had '" + Excerpt.of(spec.strip()) + "'");
                }
                CounterType type = names.resolve(spec.substring(0, equals).strip());
                Limits bounds;
                try {
                    bounds = Limits.parse(spec.substring(equals + 1).strip());
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("limits of type " + type + ": " + e.getMessage(), e);
                }
                if (limits.put(type.recordType(), bounds) != null) {
                    throw new IllegalArgumentException("limits give type " + type + " twice");
                }
            }
        }
        return Collections.unmodifiableMap(limits);
    }

    /**
     * Reads the types whose counters may expire, as the {@code --expiring} option gives them.
     *
     * @param specs the types, configured names or numbers; each may hold several separated by commas
     * @param names the configured type names
     * @return the record types
     * @throws IllegalArgumentException if a type is malformed or unknown; the message says which
     */
    public static Set<Integer> parseExpiring(List<String> specs, TypeNames names) {
        Set<Integer> types = new LinkedHashSet<>();
        for (String option : specs) {
            for (String spec : option.split(",", -1)) {
                if (!spec.isBlank()) {
                    types.add(names.resolve(spec.strip()).recordType());
                }
            }
        }
        return Collections.unmodifiableSet(types);
    }
}
