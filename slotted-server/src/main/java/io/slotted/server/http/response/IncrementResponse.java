package io.slotted.server.http.response;

/**
 * The answer to one increment: {@code {"type": "downloads", "id": 456, "delta": 5,
 * "replayed": false}}.
 *
 * @param type the type as the request gave it: a {@link String} name or an {@link Integer}
 * @param id the record id
 * @param delta the amount added
 * @param replayed true when the {@code Idempotency-Key} was seen before and nothing was applied
 */
public record IncrementResponse(Object type, long id, long delta, boolean replayed) {
}
