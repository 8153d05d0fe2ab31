package io.slotted.server.http.response;

import java.util.List;

/**
 * One counter's count per time bucket: {@code {"type": "downloads", "id": 456, "unit": "hour",
 * "buckets": [{"start": "2026-11-22T09:00:00Z", "count": 12}, …]}}, oldest first, zeros included.
 *
 * @param type the type as the request gave it: a {@link String} name or an {@link Integer}
 * @param id the id as the request gave it: a number as a JSON number, a string id as a JSON string
 * @param unit the bucket length: {@code minute}, {@code hour} or {@code day}
 * @param buckets every bucket of the window
 */
public record SeriesResponse(Object type, Object id, String unit, List<Bucket> buckets) {
    /**
     * One bucket.
     *
     * @param start when it starts, an ISO-8601 instant in UTC
     * @param count what was added in it
     */
    public record Bucket(String start, long count) {
    }
}
