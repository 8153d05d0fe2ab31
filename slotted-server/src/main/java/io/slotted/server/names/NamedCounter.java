package io.slotted.server.names;

import io.slotted.server.config.CounterType;

/**
 * A counter as a client named it, with the numbers the table stores: the type, and the id as a
 * {@code record_id} with the text the client gave when it was a string.
 *
 * @param type the counter type
 * @param id the {@code record_id}
 * @param idText the string id the client gave, or null when it gave a number
 */
public record NamedCounter(CounterType type, long id, String idText) {

    /**
     * What a response says the id was: the string as a JSON string, or the number as a JSON number.
     *
     * @return a {@link String} or a {@link Long}
     */
    public Object echoId() {
        return idText != null ? idText : id;
    }
}
