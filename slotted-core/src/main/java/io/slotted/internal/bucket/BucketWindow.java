package io.slotted.internal.bucket;

import io.slotted.TimeBuckets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The buckets a series or top-N reads: every bucket of the type's unit that overlaps
 * {@code [from, to)}, so an instant inside a bucket brings in the whole bucket.
 *
 * <p>A window must end after it starts, hold at most {@value #MAX_BUCKETS} buckets, and start
 * no earlier than the oldest bucket kept: the current one minus the retention. Pruning removes
 * only buckets a full bucket older than that, so a window accepted here never reads a bucket
 * that is half pruned.
 *
 * @param buckets the type's buckets
 * @param firstStart the first bucket's start, in epoch seconds
 * @param count how many buckets, at least 1
 */
public record BucketWindow(TimeBuckets buckets, long firstStart, int count) {
    /** The most buckets one read may cover. */
    public static final int MAX_BUCKETS = 10_000;

    /**
     * Checks a window against the type's buckets and the current time.
     *
     * @param recordType the counter type, for messages
     * @param buckets its buckets
     * @param from the window's start, inclusive
     * @param to the window's end, exclusive
     * @param now the current time
     * @return the window's buckets
     * @throws IllegalArgumentException if {@code to} is not after {@code from}, the window holds
     *     too many buckets, or it starts before the oldest bucket kept; the message says which
     */
    public static BucketWindow of(int recordType, TimeBuckets buckets, Instant from, Instant to, Instant now) {
        if (!to.isAfter(from)) {
            throw new IllegalArgumentException("to (" + to + ") must be after from (" + from + ")");
        }
        long length = buckets.unit().length().getSeconds();
        long first = buckets.unit().startOf(from).getEpochSecond();
        long span = to.getEpochSecond() - first + (to.getNano() > 0 ? 1 : 0);
        long count = (span + length - 1) / length;
        String unit = buckets.unit().name().toLowerCase(Locale.ROOT);
        if (count > MAX_BUCKETS) {
            throw new IllegalArgumentException("the window from " + from + " to " + to + " holds "
                    + count + " " + unit + " buckets; at most " + MAX_BUCKETS + " may be read at once");
        }
        Instant oldest = oldestKept(buckets, now);
        if (first < oldest.getEpochSecond()) {
            throw new IllegalArgumentException("from (" + from + ") is before the oldest " + unit
                    + " bucket kept, " + oldest + ": record_type " + recordType + " keeps "
                    + describe(buckets.retention()) + " of buckets; start the window there or later");
        }
        return new BucketWindow(buckets, first, (int) count);
    }

    /**
     * The start of the oldest bucket a read may ask for.
     *
     * @param buckets the type's buckets
     * @param now the current time
     * @return the current bucket's start minus the retention
     */
    public static Instant oldestKept(TimeBuckets buckets, Instant now) {
        return buckets.unit().startOf(now).minus(buckets.retention());
    }

    /**
     * The end of the last bucket, exclusive, in epoch seconds.
     *
     * @return the first start plus the count of buckets
     */
    public long end() {
        return firstStart + count * buckets.unit().length().getSeconds();
    }

    /**
     * Every bucket's start, oldest first.
     *
     * @return the starts, in epoch seconds
     */
    public List<Long> starts() {
        long length = buckets.unit().length().getSeconds();
        List<Long> starts = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            starts.add(firstStart + i * length);
        }
        return starts;
    }

    private static String describe(Duration retention) {
        if (retention.toMinutes() % (24 * 60) == 0) {
            return plural(retention.toDays(), "day");
        }
        return retention.toMinutes() % 60 == 0 ? plural(retention.toHours(), "hour")
                : plural(retention.toMinutes(), "minute");
    }

    private static String plural(long count, String unit) {
        return count + " " + unit + (count == 1 ? "" : "s");
    }
}
