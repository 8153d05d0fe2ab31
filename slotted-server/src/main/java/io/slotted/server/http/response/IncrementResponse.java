package io.slotted.server.http.response;

/**
 * The answer to one increment: {@code {"type": "downloads", "id": 456, "delta": 5,
 * "replayed": false, "durable": true}}.
 *
 * @param type the type as the request gave it: a {@link String} name or an {@link Integer}
 * @param id the id as the request gave it: a number as a JSON number, a string id as a JSON string
 * @param delta the amount added
 * @param replayed true when the {@code Idempotency-Key} was seen before and nothing was applied
 * @param durable true when the increment is committed; false when it was accepted in
 *     {@code BUFFERED} mode and a crash before its flush would lose it
 */
public record IncrementResponse(Object type, Object id, long delta, boolean replayed,
        boolean durable) {
}
