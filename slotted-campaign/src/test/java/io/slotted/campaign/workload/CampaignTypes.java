package io.slotted.campaign.workload;

import io.slotted.Limits;
import io.slotted.OwnerColumn;
import io.slotted.Window;
import io.slotted.campaign.history.Counter;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The counters the campaign writes: a few hot ones every client shares, stock that must never go
 * below 0, quotas per window never passed, counters rolled up into an owner column while they are written (in fold mode, whose
 * roll-ups move counts out of the slot rows, and in copy mode), and counters kept in time
 * buckets as well.
 */
public final class CampaignTypes {
    /** Plain counters. */
    public static final int HOT = 1;
    /** Bounded counters: at least 0. */
    public static final int STOCK = 2;
    /** Counters bound to an owner column in fold mode, rolled up while they are written, and set now and then. */
    public static final int FOLDED = 3;
    /** Counters bound to an owner column in copy mode, rolled up while they are written, and set now and then. */
    public static final int COPIED = 4;
    /**
     * Counters that keep time buckets too, a minute long, so that every minute of a run closes one,
     * whose pending rows the bucket keepers move while increments go on.
     */
    public static final int BUCKETED = 5;
    /** Counters bound to an owner column in copy mode and released, cycle after cycle ({@link ReleaseCycles}). */
    public static final int RELEASED = 6;
    /**
     * Counters incremented only in the caller's own transaction, together with a row of an events
     * table that a recount takes as its source of truth ({@link Recounts}).
     */
    public static final int RECOUNTED = 7;
    /** Plain counters set and deleted now and then: the service's {@code SET}, {@code DEL} and {@code PUT}. */
    public static final int RESET = 8;
    /** Counters with a quota per window ({@link #QUOTA_LIMITS}), charged and refunded. */
    public static final int QUOTA = 9;
    /**
     * Counters that expire: given an expiry at the next multiple of {@link #EXPIRY_PERIOD_MILLIS}
     * now and then, so that they are cleared while increments race the clearing.
     */
    public static final int EXPIRING = 10;
    /** The grid the expiring counters' expiries fall on, in wall-clock milliseconds. */
    public static final long EXPIRY_PERIOD_MILLIS = 2_000;

    /**
     * The next point of the expiry grid at least 300 ms from now, in wall-clock milliseconds:
     * where the workload's expiries fall.
     *
     * @return epoch milliseconds
     */
    public static long nextExpiry() {
        return (System.currentTimeMillis() + 300) / EXPIRY_PERIOD_MILLIS * EXPIRY_PERIOD_MILLIS + EXPIRY_PERIOD_MILLIS;
    }

    /**
     * Waits until every expiry given has passed, and a margin after it, so that no expiry falls
     * after the final values are read.
     *
     * @param latestExpiryMillis the latest time an expiry was given for, in wall-clock milliseconds
     */
    public static void waitUntilExpiriesPassed(long latestExpiryMillis) {
        long left = latestExpiryMillis + 500 - System.currentTimeMillis();
        if (left > 0) {
            try {
                Thread.sleep(left);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Whether the wall clock is within 150 ms before or 300 ms after a point of the expiry grid:
     * no increment of an expiring counter begins then, so that the first ones after an expiry,
     * which clear the counter, come in a burst from every process and race each other, well
     * clear of the checker's margin around the expiry (where an increment may count on either
     * side, and so could not show one lost).
     *
     * @return true while increments of the expiring counters wait
     */
    public static boolean nearAnExpiry() {
        long intoPeriod = System.currentTimeMillis() % EXPIRY_PERIOD_MILLIS;
        return intoPeriod < 300 || intoPeriod > EXPIRY_PERIOD_MILLIS - 150;
    }

    public static final List<Counter> HOT_COUNTERS = counters(HOT, 4);
    public static final List<Counter> STOCK_COUNTERS = counters(STOCK, 2);
    public static final List<Counter> FOLDED_COUNTERS = counters(FOLDED, 2);
    public static final List<Counter> COPIED_COUNTERS = counters(COPIED, 2);
    public static final List<Counter> BUCKETED_COUNTERS = counters(BUCKETED, 2);
    public static final List<Counter> RECOUNTED_COUNTERS = counters(RECOUNTED, 2);
    public static final List<Counter> RESET_COUNTERS = counters(RESET, 2);
    public static final List<Counter> QUOTA_COUNTERS = counters(QUOTA, 2);
    public static final List<Counter> EXPIRING_COUNTERS = counters(EXPIRING, 2);

    /**
     * The quota: at most 500 per month, the month starting on a day about two weeks from the run's
     * start, so that no run, an hour long or a week, crosses a window's end, where the count a read
     * answers would start again from 0. A window is a window whatever its length: a charge is
     * decided under the window's lock against the window's count, as a minute's would be.
     */
    public static final Limits QUOTA_LIMITS = Limits.atMost(500)
            .per(Window.MONTH.startingOnDay(LocalDate.now(ZoneOffset.UTC).plusDays(15).getDayOfMonth() % 28 + 1));

    /** The counters the workload sets now and then: those rolled up into an owner column. */
    public static final List<Counter> SETTABLE = Stream.concat(FOLDED_COUNTERS.stream(), COPIED_COUNTERS.stream())
            .toList();
    /** The counters with no limits, which any increment may go to. */
    public static final List<Counter> UNBOUNDED = Stream.of(HOT_COUNTERS, FOLDED_COUNTERS, COPIED_COUNTERS,
            BUCKETED_COUNTERS).flatMap(List::stream).toList();

    private CampaignTypes() {
    }

    private static List<Counter> counters(int type, int howMany) {
        return java.util.stream.LongStream.rangeClosed(1, howMany).mapToObj(id -> new Counter(type, id)).toList();
    }

    /** Every counter the workload touches. */
    public static List<Counter> all() {
        return Stream.of(UNBOUNDED, STOCK_COUNTERS, RECOUNTED_COUNTERS, QUOTA_COUNTERS, EXPIRING_COUNTERS)
                .flatMap(List::stream).sorted()
                .toList();
    }

    /** The limits the checker holds each counter to. */
    public static Map<Counter, Limits> limits() {
        Map<Counter, Limits> limits = new java.util.HashMap<>();
        STOCK_COUNTERS.forEach(counter -> limits.put(counter, Limits.atLeast(0)));
        QUOTA_COUNTERS.forEach(counter -> limits.put(counter, QUOTA_LIMITS));
        return limits;
    }

    /** The owner column a rolled-up type is bound to, in a table named after the counter table. */
    public static OwnerColumn ownerColumn(String table, int type) {
        return OwnerTables.column(table + "_owners_" + type);
    }
}
