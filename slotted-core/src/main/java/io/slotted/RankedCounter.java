package io.slotted;

/**
 * One counter of a top-N: its id and what was added to it over the window asked for.
 *
 * @param recordId whose count it is
 * @param count the sum of its buckets in the window
 */
public record RankedCounter(long recordId, long count) {
}
