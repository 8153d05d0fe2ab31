package io.slotted.server.http.response;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * The answer to a batch: {@code {"applied": 4, "durable": true}}, or {@code {"applied": 0,
 * "replayed": true, "durable": true}} when its {@code Idempotency-Key} was seen before.
 * {@code replayed} appears only on a replay, as the contract shows it; a batch is written in one
 * transaction of its own in every write mode, so it is always durable when answered.
 *
 * @param applied how many increments this request applied
 * @param replayed true on a replay, null (and left out) otherwise
 * @param durable always true
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record BatchResponse(long applied, Boolean replayed, boolean durable) {
    /**
     * A batch applied now.
     *
     * @param applied how many increments it held
     * @return {@code {"applied": N, "durable": true}}
     */
    public static BatchResponse of(long applied) {
        return new BatchResponse(applied, null, true);
    }

    /**
     * A batch applied before under the same key, so nothing was applied now.
     *
     * @return {@code {"applied": 0, "replayed": true, "durable": true}}
     */
    public static BatchResponse replay() {
        return new BatchResponse(0, true, true);
    }
}
