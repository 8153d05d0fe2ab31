package io.slotted.server.http.response;

import java.util.List;

/**
 * The counters with the most added over a window: {@code {"type": "downloads", "from": "…",
 * "to": "…", "top": [{"id": 456, "count": 1234}, …]}}, highest first, ties by id.
 *
 * @param type the type as the request gave it: a {@link String} name or an {@link Integer}
 * @param from the window's start as read, an ISO-8601 instant
 * @param to the window's end as read, an ISO-8601 instant
 * @param top the counters, at most as many as asked for
 */
public record TopResponse(Object type, String from, String to, List<Ranked> top) {
    /**
     * One counter of the top.
     *
     * @param id the record id, or its string id when the name dictionary maps it
     * @param count the sum of its buckets in the window
     */
    public record Ranked(Object id, long count) {
    }
}
