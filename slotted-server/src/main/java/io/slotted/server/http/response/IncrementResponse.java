package io.slotted.server.http.response;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * The answer to one increment: {@code {"type": "downloads", "id": 456, "delta": 5,
 * "replayed": false, "durable": true}}, and {@code "count"} on a type with limits per window.
 *
 * @param type the type as the request gave it: a {@link String} name or an {@link Integer}
 * @param id the id as the request gave it: a number as a JSON number, a string id as a JSON string
 * @param delta the amount added
 * @param replayed true when the {@code Idempotency-Key} was seen before and nothing was applied
 * @param durable true when the increment is committed; false when it was accepted in
 *     {@code BUFFERED} mode and a crash before its flush would lose it
 * @param count on a type with limits per window, the window's count after the increment; null,
 *     and left out, on every other type
 */
public record IncrementResponse(Object type, Object id, long delta, boolean replayed,
        boolean durable, @JsonInclude(JsonInclude.Include.NON_NULL) Long count) {

    /**
     * The answer on a type without limits per window.
     *
     * @param type the type as the request gave it
     * @param id the id as the request gave it
     * @param delta the amount added
     * @param replayed whether nothing was applied because the key was seen before
     * @param durable whether the increment is committed
     */
    public IncrementResponse(Object type, Object id, long delta, boolean replayed, boolean durable) {
        this(type, id, delta, replayed, durable, null);
    }
}
