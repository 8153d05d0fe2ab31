package io.slotted.server.http.response;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A counter's expiry after it was set or taken away:
 * {@code {"type": "sessions", "id": "u1", "expires_at": "2026-12-02T10:00:00Z"}}, with
 * {@code "expires_at": null} once it has none.
 *
 * @param type the type as the request gave it
 * @param id the id as the request gave it
 * @param expiresAt when the counter expires (ISO-8601), or null when it does not
 */
public record ExpiryResponse(Object type, Object id,
        @JsonProperty("expires_at") @JsonInclude(JsonInclude.Include.ALWAYS) String expiresAt) {
}
