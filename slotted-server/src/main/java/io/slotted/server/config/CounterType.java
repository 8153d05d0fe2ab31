package io.slotted.server.config;

/**
 * A counter type as a request named it: the {@code record_type} number, and the configured name
 * when the request used one. Responses echo what the request used, so a client that says
 * {@code downloads} reads {@code downloads} back, and one that says {@code 7} reads {@code 7}.
 *
 * @param recordType the {@code record_type} number, 0 or more
 * @param name the configured name used, or null when the request gave the number
 */
public record CounterType(int recordType, String name) {

    /**
     * What a response says the type was: the name as a JSON string, or the number as a JSON
     * number.
     *
     * @return a {@link String} or an {@link Integer}
     */
    public Object echo() {
        return name != null ? name : recordType;
    }

    @Override
    public String toString() {
        return name != null ? name : Integer.toString(recordType);
    }
}
