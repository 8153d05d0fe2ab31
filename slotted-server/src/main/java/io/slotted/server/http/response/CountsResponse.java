package io.slotted.server.http.response;

import java.util.Map;

/**
 * Several counters' counts: {@code {"type": "downloads", "counts": {"1": 10, "2": 0}}}, the ids
 * as JSON keys in the order the request gave them.
 *
 * @param type the type as the request gave it: a {@link String} name or an {@link Integer}
 * @param counts each id's count, in the request's order
 */
public record CountsResponse(Object type, Map<String, Long> counts) {
}
