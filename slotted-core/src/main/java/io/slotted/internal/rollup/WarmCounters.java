package io.slotted.internal.rollup;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The counters of one type that this process's roll-ups visited since the sweep last listed the
 * type's counters at 0, and when that was: what tells a cold counter, whose zero rows may go, from
 * a warm one, whose next increment would only insert them again.
 *
 * <p>The ids are kept as one sorted array, 8 bytes each, merged with each pass's list (which comes
 * sorted from the database), so a type whose every counter changes costs as many longs as it has
 * counters, and no boxing. Another process's roll-ups are not seen here; a counter they visited
 * may then be swept as cold, which costs its next increment an insert and loses nothing.
 */
final class WarmCounters {
    private long[] ids = new long[0];
    private long since;

    /**
     * Starts counting from a moment.
     *
     * @param since the epoch millis of the last listing, or of when this process began rolling the type
     */
    WarmCounters(long since) {
        this.since = since;
    }

    /**
     * Adds the counters a pass visited.
     *
     * @param visited ids, ascending
     */
    synchronized void add(List<Long> visited) {
        long[] merged = new long[ids.length + visited.size()];
        int a = 0;
        int b = 0;
        int n = 0;
        while (a < ids.length || b < visited.size()) {
            long next = b == visited.size() || (a < ids.length && ids[a] <= visited.get(b)) ? ids[a++]
                    : visited.get(b++);
            if (n == 0 || merged[n - 1] != next) {
                merged[n++] = next;
            }
        }
        ids = Arrays.copyOf(merged, n);
    }

    /**
     * The candidates that were not visited since the last listing.
     *
     * @param candidates ids
     * @return those of them this process has not rolled up since the last listing, in their order
     */
    synchronized List<Long> cold(List<Long> candidates) {
        List<Long> cold = new ArrayList<>();
        for (Long id : candidates) {
            if (Arrays.binarySearch(ids, id) < 0) {
                cold.add(id);
            }
        }
        return cold;
    }

    /**
     * Whether a listing is due.
     *
     * @param now epoch millis
     * @param every the time between listings
     * @return true once {@code every} has passed since the last listing
     */
    synchronized boolean due(long now, long every) {
        return now - since >= every;
    }

    /**
     * Starts a new period once the counters at 0 have been listed: nothing is warm yet.
     *
     * @param now epoch millis of the listing
     */
    synchronized void restart(long now) {
        ids = new long[0];
        since = now;
    }
}
