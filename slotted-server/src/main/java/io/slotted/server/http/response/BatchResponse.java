package io.slotted.server.http.response;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * The answer to a batch: {@code {"applied": 4}}, or {@code {"applied": 0, "replayed": true}} when
 * its {@code Idempotency-Key} was seen before. {@code replayed} appears only on a replay, as the
 * contract shows it.
 *
 * @param applied how many increments this request applied
 * @param replayed true on a replay, null (and left out) otherwise
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record BatchResponse(long applied, Boolean replayed) {
    /**
     * A batch applied now.
     *
     * @param applied how many increments it held
     * @return {@code {"applied": N}}
     */
    public static BatchResponse of(long applied) {
        return new BatchResponse(applied, null);
    }

    /**
     * A batch applied before under the same key, so nothing was applied now.
     *
     * @return {@code {"applied": 0, "replayed": true}}
     */
    public static BatchResponse replay() {
        return new BatchResponse(0, true);
    }
}
