package io.slotted.server.http.response;

/**
 * One counter's count: {@code {"type": "downloads", "id": 456, "count": 1234}}.
 *
 * @param type the type as the request gave it: a {@link String} name or an {@link Integer}
 * @param id the id as the request gave it: a number as a JSON number, a string id as a JSON string
 * @param count the counter's total, 0 for a counter never incremented
 */
public record CountResponse(Object type, Object id, long count) {
}
