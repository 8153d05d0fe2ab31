package io.slotted.internal.write;

import io.slotted.LimitExceededException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a decision under the limits found for each increment it was given, by position: refused,
 * with the reason, or applied; and for an applied increment of a type with limits per window, its
 * window's count right after it, which is what a limiter answers.
 *
 * @param refusals for each increment, null when it may be applied, else why it is refused
 * @param windowCounts by position, the window's count right after each applied increment of a
 *     windowed type
 */
public record Decided(List<LimitExceededException> refusals, Map<Integer, Long> windowCounts) {
    /**
     * Keeps the lists as they are given.
     *
     * @throws NullPointerException if either is null
     */
    public Decided {
        Objects.requireNonNull(refusals, "refusals");
        Objects.requireNonNull(windowCounts, "windowCounts");
    }

    /**
     * The first refusal, in the increments' order.
     *
     * @return the refusal, or empty if every increment may be applied
     */
    public Optional<LimitExceededException> firstRefusal() {
        return refusals.stream().filter(Objects::nonNull).findFirst();
    }
}
