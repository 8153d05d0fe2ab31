package io.slotted.server.config;

import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The names configured for counter types (such as {@code downloads=1,views=2}), and the reading of
 * a type as a request gives it: a configured name, or the {@code record_type} number itself.
 */
public final class TypeNames {
    /** What a type name looks like: lowercase, starting with a letter, at most 63 characters. */
    public static final Pattern NAME = io.slotted.CounterNames.TYPE_NAME;
    private static final Pattern NUMBER = Pattern.compile("[0-9]{1,30}");

    private final Map<String, Integer> numbers;
    /** The configured names' types, made once: every request naming a type looks it up. */
    private final Map<String, CounterType> named = new HashMap<>();

    private TypeNames(Map<String, Integer> numbers) {
        this.numbers = Collections.unmodifiableMap(new LinkedHashMap<>(numbers));
        numbers.forEach((name, number) -> named.put(name, new CounterType(number, name)));
    }

    /**
     * No names: every type is given by its number.
     *
     * @return an empty mapping
     */
    public static TypeNames none() {
        return new TypeNames(Map.of());
    }

    /**
     * Parses {@code name=number} pairs separated by commas.
     *
     * @param spec such as {@code downloads=1,views=2}; blank for none
     * @return the mapping
     * @throws IllegalArgumentException if a pair, name or number is malformed, or a name repeats
     */
    public static TypeNames parse(String spec) {
        Map<String, Integer> numbers = new LinkedHashMap<>();
        if (spec == null || spec.isBlank()) {
            return none();
        }
        for (String pair : spec.split(",", -1)) {
            String[] parts = pair.strip().split("=", -1);
            if (parts.length != 2 || !NAME.matcher(parts[0]).matches()) {
                throw new IllegalArgumentException("types must be name=number pairs separated by"
                        + " commas, with names matching " + NAME + ", such as downloads=1,views=2,"
                        + " but had '" + pair + "'");
            }
            if (numbers.put(parts[0], recordType(parts[1], "types " + parts[0])) != null) {
                throw new IllegalArgumentException("types give the name '" + parts[0] + "' twice");
            }
        }
        return new TypeNames(numbers);
    }

    /**
     * Reads a type as a request gives it.
     *
     * @param text a configured name or a {@code record_type} number
     * @return the type
     * @throws UnknownTypeException for a well-formed name that is not configured
     * @throws IllegalArgumentException for anything else that is neither a name nor a number in
     *     range
     */
    public CounterType resolve(String text) {
        CounterType configured = named.get(text);
        if (configured != null) {
            return configured;
        }
        if (NUMBER.matcher(text).matches()) {
            if (!fitsRecordType(text)) {
                throw new IllegalArgumentException("type " + text + " is out of range:"
                        + " a record_type number must be 0 to " + Integer.MAX_VALUE);
            }
            return new CounterType(Integer.parseInt(text), null);
        }
        if (!NAME.matcher(text).matches()) {
            throw new IllegalArgumentException("type '" + Excerpt.of(text) + "' is neither a name"
                    + " (lowercase letters, digits, _; starting with a letter) nor a record_type"
                    + " number 0 to " + Integer.MAX_VALUE);
        }
        throw new UnknownTypeException("unknown type '" + text + "': "
                    + (numbers.isEmpty() ? "no type names are configured"
                            : "the configured names are " + String.join(", ", numbers.keySet()))
                    + "; give the record_type number instead, or configure the name as"
                    + " name=number in the type names");
    }

    /**
     * Reads a type that needs no name dictionary: a pinned name or a {@code record_type} number.
     *
     * @param text the type as a request gives it
     * @return the type, or empty for a well-formed name that is not pinned (the dictionary's to
     *     map)
     * @throws IllegalArgumentException for anything that is neither a name nor a number in range
     */
    public Optional<CounterType> pinnedOrNumber(String text) {
        // On every request: a pinned name or a name is found without an exception.
        CounterType configured = named.get(text);
        if (configured != null) {
            return Optional.of(configured);
        }
        if (!text.isEmpty() && text.length() <= 63 && text.charAt(0) >= 'a' && text.charAt(0) <= 'z'
                && NAME.matcher(text).matches()) {
            return Optional.empty();
        }
        return Optional.of(resolve(text));
    }

    /**
     * The configured names and their numbers, in the order given.
     *
     * @return an unmodifiable map
     */
    public Map<String, Integer> asMap() {
        return numbers;
    }

    private static int recordType(String text, String where) {
        if (!NUMBER.matcher(text).matches() || !fitsRecordType(text)) {
            throw new IllegalArgumentException(where + " must be a record_type number from 0 to "
                    + Integer.MAX_VALUE + ", but was '" + text + "'");
        }
        return Integer.parseInt(text);
    }

    private static boolean fitsRecordType(String digits) {
        String significant = digits.replaceFirst("^0+(?=.)", "");
        return significant.length() <= 10 && Long.parseLong(significant) <= Integer.MAX_VALUE;
    }
}
