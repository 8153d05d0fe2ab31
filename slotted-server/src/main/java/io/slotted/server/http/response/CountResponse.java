package io.slotted.server.http.response;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * One counter's count: {@code {"type": "downloads", "id": 456, "count": 1234}}, and for a counter
 * of an expiring type that has an expiry, {@code "expires_at"}.
 *
 * @param type the type as the request gave it: a {@link String} name or an {@link Integer}
 * @param id the id as the request gave it: a number as a JSON number, a string id as a JSON string
 * @param count the counter's total, 0 for a counter never incremented
 * @param expiresAt when the counter expires (ISO-8601), or null when it does not
 */
public record CountResponse(Object type, Object id, long count,
        @JsonProperty("expires_at") @JsonInclude(JsonInclude.Include.NON_NULL) String expiresAt) {
    /**
     * A count without an expiry.
     *
     * @param type the type as the request gave it
     * @param id the id as the request gave it
     * @param count the counter's total
     */
    public CountResponse(Object type, Object id, long count) {
        this(type, id, count, null);
    }
}
