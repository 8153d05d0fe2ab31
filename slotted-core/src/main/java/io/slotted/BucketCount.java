package io.slotted;

import java.time.Instant;

/**
 * One time bucket of a counter's series.
 *
 * @param start when the bucket starts, in UTC
 * @param count what was added to the counter in the bucket; 0 for a bucket nothing was added in
 */
public record BucketCount(Instant start, long count) {
}
