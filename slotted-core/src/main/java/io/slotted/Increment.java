package io.slotted;

/**
 * One increment of a batch given to {@link SlottedCounters#addAll}.
 *
 * @param recordType what is counted
 * @param recordId whose count it is
 * @param delta the amount to add; never 0, and at most {@link SlottedCounters#MAX_DELTA} either way
 */
public record Increment(int recordType, long recordId, long delta) {

    /**
     * Creates an increment.
     *
     * @throws IllegalArgumentException if {@code delta} is 0 or past {@link SlottedCounters#MAX_DELTA},
     *     or the record type is
     *     {@link SlottedCounters#RESERVED_RECORD_TYPE}
     */
    public Increment {
        CounterArguments.checkRecordType(recordType);
        CounterArguments.checkDelta(recordType, recordId, delta);
    }
}
