package io.slotted.server.store;

import io.slotted.CounterOverflowException;
import io.slotted.Increment;
import io.slotted.SlottedCounters;
import io.slotted.server.config.CounterType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Refuses an increment that would take a counter's total out of the signed 64-bit range, before
 * anything is written.
 *
 * <p>The library checks each slot exactly: the database refuses a slot value that leaves its
 * {@code BIGINT} column, inside the writing transaction. A total, though, is a sum over slots, and
 * could pass {@link Long#MAX_VALUE} while every slot stays in range; reads would then fail with
 * {@link CounterOverflowException}. So the total is read first and the write refused if the total
 * plus the delta leaves the range. That check is best-effort under concurrency: two increments
 * checked at the same moment can each pass and together overflow the total (never a slot), and so
 * can increments that other processes write.
 *
 * <p>Reading the total on every increment would cost a query per request on the hot path, so a
 * read is remembered as a budget: the total's distance to the nearer end of the range. Any run of
 * increments whose sizes add up to less than that keeps the total in range whatever their signs,
 * so they pass without a read; only when a counter's budget runs out is its total read again. A
 * counter incremented by small deltas is thus read once, and one pushed near the limit is read on
 * every request. Budgets of the most recently used {@value #REMEMBERED} counters are kept.
 */
public final class OverflowGuard {
    private static final int REMEMBERED = 100_000;

    private final SlottedCounters counters;
    private final Map<String, Long> budgets = new LinkedHashMap<>(1024, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
            return size() > REMEMBERED;
        }
    };

    /**
     * Creates a guard with no budgets yet.
     *
     * @param counters the counters whose totals it reads
     */
    public OverflowGuard(SlottedCounters counters) {
        this.counters = counters;
    }

    /**
     * Checks one increment.
     *
     * @param type the counter type, for the message
     * @param recordId the counter
     * @param delta the amount about to be added
     * @throws CounterOverflowException if the total would leave the signed 64-bit range
     */
    public void check(CounterType type, long recordId, long delta) {
        String counter = type.recordType() + " " + recordId;
        long size = delta == Long.MIN_VALUE ? Long.MAX_VALUE : Math.abs(delta);
        if (spend(counter, size)) {
            return;
        }
        long total = counters.get(type.recordType(), recordId);
        long next = checkSum(type + " " + recordId, total, delta);
        synchronized (budgets) {
            budgets.put(counter, next >= 0 ? Long.MAX_VALUE - next : next - Long.MIN_VALUE);
        }
    }

    /** Takes {@code size} from the counter's budget if it has that much left. */
    private boolean spend(String counter, long size) {
        synchronized (budgets) {
            Long left = budgets.get(counter);
            if (left == null || left <= size) {
                return false;
            }
            budgets.put(counter, left - size);
            return true;
        }
    }

    /**
     * Checks a batch: each counter's total plus the sum of the batch's deltas for it.
     *
     * @param increments the batch
     * @throws CounterOverflowException if any counter's total would leave the signed 64-bit range
     */
    public void check(List<Increment> increments) {
        Map<Integer, Map<Long, Long>> sums = new LinkedHashMap<>();
        for (Increment increment : increments) {
            Map<Long, Long> byId = sums.computeIfAbsent(increment.recordType(),
                    t -> new LinkedHashMap<>());
            long sum = byId.getOrDefault(increment.recordId(), 0L);
            String counter = "type " + increment.recordType() + " id " + increment.recordId();
            byId.put(increment.recordId(), checkSum(counter + " in this batch", sum, increment.delta()));
        }
        sums.forEach((type, byId) -> {
            Map<Long, Long> totals = counters.getAll(type, new ArrayList<>(byId.keySet()));
            byId.forEach((id, sum) -> checkSum("type " + type + " id " + id, totals.get(id), sum));
        });
    }

    private static long checkSum(String counter, long total, long delta) {
        try {
            return Math.addExact(total, delta);
        } catch (ArithmeticException e) {
            throw new CounterOverflowException("counter " + counter + " is at " + total
                    + "; adding " + delta + " would leave the signed 64-bit range");
        }
    }
}
