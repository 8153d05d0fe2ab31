package io.slotted.campaign.history;

import java.util.Map;

/**
 * An operation sent and not yet answered: its caller ends it once, with what it learned. A second
 * end is ignored, so a caller that gave up waiting cannot be overruled by a late answer.
 */
public final class Invocation {
    private final History history;
    private final long id;
    private final String process;
    private final Kind kind;
    private final Map<Counter, Long> deltas;
    private final String key;
    private final long invoked;

    Invocation(History history, long id, String process, Kind kind, Map<Counter, Long> deltas, String key,
            long invoked) {
        this.history = history;
        this.id = id;
        this.process = process;
        this.kind = kind;
        this.deltas = deltas;
        this.key = key;
        this.invoked = invoked;
    }

    long id() {
        return id;
    }

    /** Applied, or for a read answered, with no value. */
    public void ok() {
        end(Outcome.OK, Map.of(), null, null);
    }

    /** A read's answer, or an increment's total right after it. */
    public void ok(Map<Counter, Long> values) {
        end(Outcome.OK, Map.copyOf(values), null, null);
    }

    /** A keyed increment's answer: applied now, or a replay of one applied before. */
    public void okApplied(boolean applied) {
        end(Outcome.OK, Map.of(), applied, null);
    }

    /** Surely not applied. */
    public void failed(Throwable error) {
        end(Outcome.FAILED, Map.of(), null, describe(error));
    }

    /** May or may not have been applied. */
    public void unknown(Throwable error) {
        end(Outcome.UNKNOWN, Map.of(), null, describe(error));
    }

    private void end(Outcome outcome, Map<Counter, Long> values, Boolean applied, String error) {
        history.end(this, new Operation(id, process, kind, deltas, key, invoked, history.now(), outcome, values,
                applied, error));
    }

    Operation neverAnswered() {
        return new Operation(id, process, kind, deltas, key, invoked, Long.MAX_VALUE, Outcome.UNKNOWN, Map.of(), null,
                "never answered");
    }

    @Override
    public String toString() {
        return "#" + id + " " + process + " " + kind + " " + deltas + (key == null ? "" : " key=" + key);
    }

    private static String describe(Throwable error) {
        String message = String.valueOf(error.getMessage());
        return error.getClass().getSimpleName() + ": "
                + (message.length() > 160 ? message.substring(0, 160) + "…" : message);
    }
}
