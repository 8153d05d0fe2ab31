package io.slotted.server;

import io.slotted.CounterOverflowException;
import io.slotted.Increment;
import io.slotted.SlottedCounters;
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
 * checked at the same moment can each pass and together overflow the total (never a slot). It costs
 * one read per request, which is cheap next to a durable commit.
 */
final class OverflowGuard {
    private final SlottedCounters counters;

    OverflowGuard(SlottedCounters counters) {
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
    void check(CounterType type, long recordId, long delta) {
        long total = counters.get(type.recordType(), recordId);
        checkSum(type + " " + recordId, total, delta);
    }

    /**
     * Checks a batch: each counter's total plus the sum of the batch's deltas for it.
     *
     * @param increments the batch
     * @throws CounterOverflowException if any counter's total would leave the signed 64-bit range
     */
    void check(List<Increment> increments) {
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
