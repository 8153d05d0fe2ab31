package io.slotted.campaign.history;

import java.util.Map;

/**
 * One operation of the history, once it has ended (or the campaign ended without it). Times are
 * {@link System#nanoTime()} of the campaign's JVM, which both invokes and completes every
 * operation, so they order operations as the real time does.
 *
 * @param id its place among the invocations
 * @param process the library instance or service process it went to
 * @param kind what it was
 * @param deltas what it adds to each counter, in order; empty for a read
 * @param key the idempotency key, or null
 * @param invoked when it was invoked
 * @param completed when its outcome came; {@link Long#MAX_VALUE} if it never came
 * @param outcome what its caller learned
 * @param values the totals it answered: a read's, or an {@code addAndGet}'s right after itself
 * @param applied for a keyed increment that succeeded: whether it says it applied now (false: a
 *     replay of one applied before); null otherwise
 * @param error the error it ended with, or null
 */
public record Operation(long id, String process, Kind kind, Map<Counter, Long> deltas, String key, long invoked,
        long completed, Outcome outcome, Map<Counter, Long> values, Boolean applied, String error) {

    /** Whether it never answered: the campaign ended, or gave up waiting, first. */
    public boolean stalled() {
        return completed == Long.MAX_VALUE;
    }

    @Override
    public String toString() {
        StringBuilder line = new StringBuilder("#").append(id).append(' ').append(process).append(' ').append(kind);
        if (!deltas.isEmpty()) {
            line.append(' ').append(deltas);
        }
        if (key != null) {
            line.append(" key=").append(key);
        }
        line.append(" [").append(invoked / 1_000_000).append("ms..")
                .append(stalled() ? "never" : completed / 1_000_000 + "ms").append("] ").append(outcome);
        if (!values.isEmpty()) {
            line.append(" values=").append(values);
        }
        if (applied != null) {
            line.append(applied ? " applied" : " replayed");
        }
        if (error != null) {
            line.append(" error=").append(error);
        }
        return line.toString();
    }
}
